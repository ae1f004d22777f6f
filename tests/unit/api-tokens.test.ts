/**
 * The pure parts of personal API tokens: base62, the token's shape and prefix, reading the bearer
 * credential of a request, the creation rules, and the one list of routes a token may read.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readBearerCredential } from '~/server/http/bearer';
import { generateApiToken } from '~/server/services/accounts/api-tokens';
import { isTokenReadable, TOKEN_READABLE_ROUTES } from '~/shared/api-token-access';
import {
  API_TOKEN_BODY_LENGTH,
  apiTokenPrefix,
  base62Length,
  createApiTokenSchema,
  encodeBase62,
  isApiTokenFormat,
} from '~/shared/api-tokens';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The test's own way back from base62 to a number, digit by digit. */
const decode = (text: string) =>
  [...text].reduce((value, digit) => value * 62n + BigInt(ALPHABET.indexOf(digit)), 0n);
const numberOf = (bytes: Uint8Array) =>
  [...bytes].reduce((value, byte) => (value << 8n) | BigInt(byte), 0n);

function firstMessage(input: unknown): string | null {
  const result = createApiTokenSchema.safeParse(input);
  return result.success ? null : result.error.issues[0]!.message;
}

describe('base62', () => {
  it('when bytes are encoded, then small numbers give their digits, left-padded to the length the byte count needs', () => {
    expect(encodeBase62(new Uint8Array([0]))).toBe('00');
    expect(encodeBase62(new Uint8Array([61]))).toBe('0z');
    expect(encodeBase62(new Uint8Array([62]))).toBe('10');
    expect(encodeBase62(new Uint8Array([255]))).toBe('47');
    expect(encodeBase62(new Uint8Array([1, 0]))).toBe('048');
    expect(encodeBase62(new Uint8Array(32))).toBe('0'.repeat(43));
  });

  it('when 32 bytes are encoded, then it takes 43 characters, and the largest value needs them all', () => {
    expect(base62Length(32)).toBe(API_TOKEN_BODY_LENGTH);
    const largest = encodeBase62(new Uint8Array(32).fill(255));
    expect(largest).toHaveLength(43);
    expect(largest[0]).not.toBe('0');
    expect(decode(largest)).toBe(2n ** 256n - 1n);
  });

  it('when random bytes are encoded, then the text decodes to the same number and uses only base62 digits', () => {
    for (let round = 0; round < 200; round += 1) {
      const bytes = randomBytes(32);
      const text = encodeBase62(bytes);
      expect(text).toMatch(/^[0-9A-Za-z]{43}$/);
      expect(decode(text)).toBe(numberOf(bytes));
    }
  });
});

describe('the token format', () => {
  it('when a token is generated, then it is fp_ and 43 base62 characters, a new one each time', () => {
    const tokens = new Set(Array.from({ length: 50 }, generateApiToken));
    expect(tokens.size).toBe(50);
    for (const token of tokens) {
      expect(token).toMatch(/^fp_[0-9A-Za-z]{43}$/);
      expect(isApiTokenFormat(token)).toBe(true);
    }
  });

  it.each([
    ['', 'empty'],
    ['fp_', 'the prefix alone'],
    [`fp_${'a'.repeat(42)}`, 'one character short'],
    [`fp_${'a'.repeat(44)}`, 'one character long'],
    [`fp_${'a'.repeat(42)}-`, 'a character outside base62'],
    [`FP_${'a'.repeat(43)}`, 'another prefix'],
    [`${'a'.repeat(43)}`, 'no prefix'],
    [` fp_${'a'.repeat(43)}`, 'a space before'],
  ])('when the text is %j (%s), then it is no token', (text) => {
    expect(isApiTokenFormat(text)).toBe(false);
  });

  it('when a token is listed, then only fp_ and the first 8 characters of its random part are shown', () => {
    expect(apiTokenPrefix(`fp_AbCdEfGh${'x'.repeat(35)}`)).toBe('fp_AbCdEfGh');
  });
});

describe('the bearer credential of a request', () => {
  const request = (authorization?: string) =>
    new Request(
      'http://portal.test/api/receipts',
      authorization === undefined ? {} : { headers: { authorization } },
    );

  it.each([
    ['Bearer fp_abc', 'fp_abc'],
    ['bearer fp_abc', 'fp_abc'],
    ['Bearer   fp_abc  ', 'fp_abc'],
    ['Bearer', ''],
    ['Bearer two words', 'two words'],
  ])('when Authorization is %j, then the credential is %j', (header, credential) => {
    expect(readBearerCredential(request(header))).toBe(credential);
  });

  it.each([[undefined], ['Basic dXNlcjpwYXNz'], ['Bearerfp_abc'], ['Token fp_abc']])(
    'when Authorization is %j, then there is no bearer credential',
    (header) => {
      expect(readBearerCredential(request(header))).toBeNull();
    },
  );
});

describe('createApiTokenSchema', () => {
  it('when the name and a known expiry are given, then the name is trimmed', () => {
    expect(createApiTokenSchema.parse({ name: '  Stock system ', expiresInDays: 90 })).toEqual({
      name: 'Stock system',
      expiresInDays: 90,
    });
    for (const days of [30, 90, 365])
      expect(firstMessage({ name: 'x', expiresInDays: days })).toBeNull();
  });

  it.each([
    [{ expiresInDays: 30 }, 'Give the token a name.'],
    [{ name: '   ', expiresInDays: 30 }, 'Give the token a name.'],
    [{ name: 'x'.repeat(61), expiresInDays: 30 }, 'The name can be at most 60 characters long.'],
    [{ name: 'line\nbreak', expiresInDays: 30 }, 'The name cannot contain control characters.'],
    [
      { name: 'x', expiresInDays: 45 },
      'Choose an expiry of one of these numbers of days: 30, 90, 365.',
    ],
    [
      { name: 'x', expiresInDays: '30' },
      'Choose an expiry of one of these numbers of days: 30, 90, 365.',
    ],
    [{ name: 'x' }, 'Choose an expiry of one of these numbers of days: 30, 90, 365.'],
  ])('when the payload is %j, then it is refused: %s', (payload, message) => {
    expect(firstMessage(payload)).toBe(message);
  });
});

describe('the routes a token may read', () => {
  it('when the list is read, then every entry is a GET: a token never writes', () => {
    expect(TOKEN_READABLE_ROUTES.length).toBeGreaterThan(0);
    for (const entry of TOKEN_READABLE_ROUTES) expect(entry.method).toBe('GET');
  });

  it('when a route and method are asked about, then only a listed pair is readable', () => {
    expect(isTokenReadable('GET', '/api/receipts')).toBe(true);
    expect(isTokenReadable('GET', '/api/receipts/[id]')).toBe(true);
    expect(isTokenReadable('GET', '/api/prealerts/[id]')).toBe(true);
    expect(isTokenReadable('POST', '/api/receipts')).toBe(false);
    expect(isTokenReadable('GET', '/api/receipts/[id]/share')).toBe(false);
    expect(isTokenReadable('GET', '/api/auth/tokens')).toBe(false);
    expect(isTokenReadable('GET', '/api/auth/users')).toBe(false);
    expect(isTokenReadable('GET', '/receipts')).toBe(false);
  });
});
