import { describe, expect, it } from 'vitest';
import { inlineHash, tileImageSource, withImageSource, withStyleSource } from '~/server/http/csp';

/** The shape Astro sends: configured directives joined by ';', its own ones by '; '. */
const PAGE_POLICY =
  "default-src 'self';img-src 'self' data: blob:;connect-src 'self';frame-ancestors 'none'; script-src 'self' 'sha256-abc='; style-src 'self' 'sha256-def=';";

describe('tileImageSource', () => {
  it.each([
    ['https://tile.openstreetmap.org/{z}/{x}/{y}.png', 'https://tile.openstreetmap.org'],
    ['https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png', 'https://*.tile.openstreetmap.org'],
    ['https://tiles-{s}.example.com:8443/{z}/{x}/{y}{r}.png?key=abc', 'https://*.example.com:8443'],
    ['http://tiles.internal.lan/osm/{z}/{x}/{y}.png', 'http://tiles.internal.lan'],
    ['  HTTPS://Tiles.Example.COM/{z}/{x}/{y}.png ', 'https://tiles.example.com'],
  ])("when the template is '%s', then the source is %s", (template, source) => {
    expect(tileImageSource(template)).toBe(source);
  });

  it.each([
    ['a path on the portal itself', '/tiles/{z}/{x}/{y}.png'],
    ['a protocol-relative URL', '//tile.example.com/{z}/{x}/{y}.png'],
    ['another scheme', 'ftp://tile.example.com/{z}/{x}/{y}.png'],
    ['a wildcard over a top-level domain', 'https://{s}.org/{z}/{x}/{y}.png'],
    ['a fully templated host', 'https://{host}/{z}/{x}/{y}.png'],
    ['a host with CSP separators', 'https://tile.example.com;script-src/{z}.png'],
    ['an empty value', ''],
  ])('when the template is %s, then there is nothing to add', (_case, template) => {
    expect(tileImageSource(template)).toBeNull();
  });
});

describe('withImageSource', () => {
  it('when the page policy has img-src, then the tile source is appended to it and nothing else changes', () => {
    expect(withImageSource(PAGE_POLICY, 'https://tile.openstreetmap.org')).toBe(
      PAGE_POLICY.replace(
        "img-src 'self' data: blob:",
        "img-src 'self' data: blob: https://tile.openstreetmap.org",
      ),
    );
  });

  it('when the source is already listed, then the policy is unchanged', () => {
    const policy = withImageSource(PAGE_POLICY, 'https://tile.example.com');
    expect(withImageSource(policy, 'https://tile.example.com')).toBe(policy);
  });

  it('when the directive name is in capitals or spaced, then it is still found', () => {
    expect(
      withImageSource(
        "default-src 'self';  IMG-SRC 'self' ; object-src 'none'",
        'https://t.example.com',
      ),
    ).toBe("default-src 'self';  IMG-SRC 'self' https://t.example.com; object-src 'none'");
  });

  it('when the policy has no img-src (the closed API policy), then it is left as it is', () => {
    const closed = "default-src 'none'; frame-ancestors 'none'";
    expect(withImageSource(closed, 'https://tile.example.com')).toBe(closed);
  });

  it('when there is no source, then the policy is unchanged', () => {
    expect(withImageSource(PAGE_POLICY, null)).toBe(PAGE_POLICY);
  });

  it('when a directive merely mentions img-src in a source, then only the img-src directive changes', () => {
    expect(
      withImageSource(
        "script-src 'self' https://img-src.example;img-src 'self'",
        'https://t.example.com',
      ),
    ).toBe("script-src 'self' https://img-src.example;img-src 'self' https://t.example.com");
  });
});

describe('withStyleSource', () => {
  it('when a style hash is added, then it joins style-src only', () => {
    expect(withStyleSource(PAGE_POLICY, "'sha256-xyz='")).toBe(
      PAGE_POLICY.replace(
        "style-src 'self' 'sha256-def='",
        "style-src 'self' 'sha256-def=' 'sha256-xyz='",
      ),
    );
  });

  it('when the policy has no style-src, then it is left as it is', () => {
    const closed = "default-src 'none'; frame-ancestors 'none'";
    expect(withStyleSource(closed, "'sha256-xyz='")).toBe(closed);
  });
});

describe('inlineHash', () => {
  it('when given a script, then the SHA-256 source a browser computes for it', () => {
    expect(inlineHash("alert('hi')")).toBe('sha256-XTqNqFSUlZHAW7f/OGNYSOEzxKhjdAAGMXoid2VEbJk=');
  });
});
