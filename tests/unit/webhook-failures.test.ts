/**
 * Why a webhook delivery failed (src/shared/webhook-failures.ts): each code said in English and in
 * Dutch, the stored form read back, kept within its column however long the receiver's text, text
 * logged before the codes left as it is, and a connection's error reduced to its system code.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  ADDRESS_KINDS,
  connectionFailure,
  decodeWebhookFailure,
  encodeWebhookFailure,
  isAddressRefusal,
  webhookFailureText,
  type WebhookFailure,
} from '~/shared/webhook-failures';
import { readMessagesIn, restoreLocale } from '../support/messages-locale';

afterEach(restoreLocale);

const CASES: Array<[WebhookFailure, string, string]> = [
  [{ code: 'http-status', status: 500 }, 'HTTP 500', 'HTTP-status 500'],
  [{ code: 'timeout', seconds: 10 }, 'Timed out after 10 s', 'Geen antwoord binnen 10 s'],
  [
    { code: 'redirect', status: 301, location: 'https://elsewhere.example.com/in' },
    'Redirect to https://elsewhere.example.com/in not followed',
    'Doorverwijzing naar https://elsewhere.example.com/in niet gevolgd',
  ],
  [
    { code: 'redirect', status: 307, location: null },
    'Redirect (HTTP 307) without a Location header, not followed',
    'Doorverwijzing (HTTP 307) zonder Location-header, niet gevolgd',
  ],
  [
    { code: 'connection-failed', systemCode: 'ECONNREFUSED' },
    'Connection failed (ECONNREFUSED)',
    'Verbinding mislukt (ECONNREFUSED)',
  ],
  [
    { code: 'scheme-refused', scheme: 'http:' },
    'Refused: http:// is not allowed, only https://',
    'Geweigerd: http:// is niet toegestaan, alleen https://',
  ],
  [
    { code: 'credentials-refused' },
    'Refused: an address with credentials is not allowed',
    'Geweigerd: een adres met inloggegevens is niet toegestaan',
  ],
  [
    { code: 'invalid-address' },
    'Refused: not a valid address',
    'Geweigerd: dit is geen geldig adres',
  ],
  [
    { code: 'address-refused', host: '10.0.0.1', kind: 'private' },
    'Refused: 10.0.0.1 is a private address',
    'Geweigerd: 10.0.0.1 is een privéadres',
  ],
  [
    { code: 'address-refused', host: '0.0.0.0', kind: 'unspecified' },
    'Refused: 0.0.0.0 is an unspecified address',
    'Geweigerd: 0.0.0.0 is een ongespecificeerd adres',
  ],
  [
    {
      code: 'resolved-address-refused',
      host: 'hooks.example.com',
      address: '169.254.169.254',
      kind: 'metadata',
    },
    'Refused: hooks.example.com resolves to 169.254.169.254, a metadata address',
    'Geweigerd: hooks.example.com verwijst naar 169.254.169.254, een metadata-adres',
  ],
];

describe('webhookFailureText', () => {
  it.each(CASES)(
    'when the failure is %o, then English says "%s" and Dutch "%s"',
    (failure, english, dutch) => {
      expect(webhookFailureText(failure)).toBe(english);
      readMessagesIn('nl');
      expect(webhookFailureText(failure)).toBe(dutch);
    },
  );

  it('when a delivery is refused for any kind of network, then each kind has its own words in both languages', () => {
    for (const locale of ['en', 'nl'] as const) {
      readMessagesIn(locale);
      const texts = ADDRESS_KINDS.map((kind) =>
        webhookFailureText({ code: 'address-refused', host: 'x', kind }),
      );
      expect(new Set(texts).size).toBe(ADDRESS_KINDS.length);
    }
  });

  it("when the time limit runs into thousands of seconds, then the number is written the reader's way", () => {
    expect(webhookFailureText({ code: 'timeout', seconds: 1500 })).toBe('Timed out after 1,500 s');
    readMessagesIn('nl');
    expect(webhookFailureText({ code: 'timeout', seconds: 1500 })).toBe(
      'Geen antwoord binnen 1.500 s',
    );
  });
});

describe('the stored form', () => {
  it.each(CASES.map(([failure]) => [failure.code, failure] as const))(
    'when a %s failure is stored, then it reads back the same',
    (_code, failure) => {
      expect(decodeWebhookFailure(encodeWebhookFailure(failure))).toEqual(failure);
    },
  );

  it("when a redirect's target is very long or full of quotes, then the stored form still fits the 500-character column and reads back", () => {
    const location = `https://elsewhere.example.com/${'"\\'.repeat(600)}`;
    const stored = encodeWebhookFailure({ code: 'redirect', status: 302, location });
    expect(stored.length).toBeLessThanOrEqual(500);
    expect(decodeWebhookFailure(stored)).toEqual({
      code: 'redirect',
      status: 302,
      location: location.slice(0, 200),
    });
  });

  it.each([
    ['text logged before the codes', 'Timed out after 10 s'],
    ['a system message', 'connect ECONNREFUSED 127.0.0.1:443'],
    ['JSON that is no failure', '{"code":"gone","status":1}'],
    ['broken JSON', '{"code":"timeout",'],
    ['nothing', null],
  ])('when the stored error is %s, then it holds no code', (_case, stored) => {
    expect(decodeWebhookFailure(stored)).toBeNull();
  });
});

describe('connectionFailure', () => {
  it.each([
    [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      'ECONNREFUSED',
    ],
    [
      Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
      'DEPTH_ZERO_SELF_SIGNED_CERT',
    ],
    [
      Object.assign(new Error('Hostname/IP does not match'), {
        code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      }),
      'ERR_TLS_CERT_ALTNAME_INVALID',
    ],
    [new Error('socket hang up'), 'UNKNOWN'],
    [Object.assign(new Error('odd'), { code: 'not a code <b>' }), 'UNKNOWN'],
    ['a string thrown', 'UNKNOWN'],
  ])('when the connection fails with %o, then its code is %s', (error, systemCode) => {
    expect(connectionFailure(error)).toEqual({ code: 'connection-failed', systemCode });
  });
});

describe('isAddressRefusal', () => {
  it('when the address itself is refused, then trying again cannot help; any other failure may pass', () => {
    const refusals = CASES.filter(([failure]) => isAddressRefusal(failure)).map(
      ([failure]) => failure.code,
    );
    expect(new Set(refusals)).toEqual(
      new Set([
        'scheme-refused',
        'credentials-refused',
        'invalid-address',
        'address-refused',
        'resolved-address-refused',
      ]),
    );
  });
});
