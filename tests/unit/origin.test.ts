import { describe, expect, it } from 'vitest';
import { isCrossSiteRequest } from '~/server/http/origin';

/** The origin the request reached (behind a proxy it differs from PUBLIC_URL's). */
const REQUEST_ORIGIN = 'http://10.0.0.5:8080';
/** PUBLIC_URL's origin. */
const PUBLIC_ORIGIN = 'https://portal.example';
const EVIL = 'https://evil.example';

function crossSite(method: string, headers: Record<string, string> = {}): boolean {
  const init: RequestInit = { method, headers };
  if (!['GET', 'HEAD'].includes(method) && headers['Content-Type']) init.body = 'x';
  return isCrossSiteRequest(
    new Request(`${REQUEST_ORIGIN}/api/anything`, init),
    REQUEST_ORIGIN,
    PUBLIC_ORIGIN,
  );
}

describe('isCrossSiteRequest', () => {
  it.each(['GET', 'HEAD', 'OPTIONS'])(
    'when a %s comes from another site, then it is allowed (safe method)',
    (method) => {
      expect(crossSite(method, { Origin: EVIL })).toBe(false);
    },
  );

  it.each([
    [
      'JSON from the own origin',
      'POST',
      { Origin: REQUEST_ORIGIN, 'Content-Type': 'application/json' },
      false,
    ],
    [
      "JSON from PUBLIC_URL's origin",
      'POST',
      { Origin: PUBLIC_ORIGIN, 'Content-Type': 'application/json' },
      false,
    ],
    ['JSON without Origin (a script)', 'POST', { 'Content-Type': 'application/json' }, false],
    ['JSON from another site', 'POST', { Origin: EVIL, 'Content-Type': 'application/json' }, true],
    [
      "JSON from the opaque origin 'null'",
      'PUT',
      { Origin: 'null', 'Content-Type': 'application/json' },
      true,
    ],
    [
      'a form from the own origin',
      'POST',
      { Origin: REQUEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
      false,
    ],
    [
      "a form from PUBLIC_URL's origin",
      'POST',
      { Origin: PUBLIC_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
      false,
    ],
    [
      'a form without Origin',
      'POST',
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      true,
    ],
    [
      'a form from another site',
      'POST',
      { Origin: EVIL, 'Content-Type': 'application/x-www-form-urlencoded' },
      true,
    ],
    [
      'multipart without Origin',
      'POST',
      { 'Content-Type': 'multipart/form-data; boundary=x' },
      true,
    ],
    ['text/plain without Origin', 'POST', { 'Content-Type': 'Text/Plain; charset=utf-8' }, true],
    ['a body-less POST without Origin', 'POST', {}, true],
    ['a body-less POST from the own origin', 'POST', { Origin: REQUEST_ORIGIN }, false],
    ['a DELETE without Origin', 'DELETE', {}, true],
    ['a DELETE from another site', 'DELETE', { Origin: EVIL }, true],
    ['a DELETE from the own origin', 'DELETE', { Origin: REQUEST_ORIGIN }, false],
  ] as const)('when %s arrives, then cross-site is %s', (_case, method, headers, expected) => {
    expect(crossSite(method, { ...headers })).toBe(expected);
  });
});
