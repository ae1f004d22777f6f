import { describe, expect, it } from 'vitest';
import { decryptValue, deriveKey, encryptValue } from '~/server/encryption';

const key = deriveKey('an app secret of some length', 'provider-tokens');
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.payload.signature';

/** Flips one bit of the given part (1 iv, 2 tag, 3 ciphertext) of a sealed value. */
function flip(sealed: string, part: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[part]!, 'base64url');
  bytes[0]! ^= 1;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

describe('encrypted values (AES-256-GCM)', () => {
  it('when a value is encrypted and decrypted with the same key and field, then it comes back', () => {
    expect(decryptValue(key, encryptValue(key, TOKEN, 'accessToken'), 'accessToken')).toBe(TOKEN);
    expect(decryptValue(key, encryptValue(key, '', 'accessToken'), 'accessToken')).toBe('');
  });

  it('when the same value is encrypted twice, then the results differ (a fresh 12-byte IV each time) and hold no plain text', () => {
    const [a, b] = [
      encryptValue(key, TOKEN, 'accessToken'),
      encryptValue(key, TOKEN, 'accessToken'),
    ];
    expect(a).not.toBe(b);
    expect(Buffer.from(a.split('.')[1]!, 'base64url')).toHaveLength(12);
    expect(a).not.toContain('payload');
  });

  it.each([
    ['the IV', 1],
    ['the auth tag', 2],
    ['the ciphertext', 3],
  ])('when a bit of %s is changed, then it reads as absent', (_part, index) => {
    expect(
      decryptValue(key, flip(encryptValue(key, TOKEN, 'accessToken'), index), 'accessToken'),
    ).toBeNull();
  });

  it('when decrypted with another secret, for another purpose or as another field, then it reads as absent', () => {
    const sealed = encryptValue(key, TOKEN, 'accessToken');
    expect(
      decryptValue(deriveKey('another secret', 'provider-tokens'), sealed, 'accessToken'),
    ).toBeNull();
    expect(
      decryptValue(
        deriveKey('an app secret of some length', 'something else'),
        sealed,
        'accessToken',
      ),
    ).toBeNull();
    expect(decryptValue(key, sealed, 'refreshToken')).toBeNull();
  });

  it.each(['', 'plain-token', 'v1.a.b', 'v2.AAAA.AAAA.AAAA', 'v1.AAAA.AAAA.AAAA.AAAA'])(
    'when the stored value is %j, then it reads as absent',
    (sealed) => {
      expect(decryptValue(key, sealed, 'accessToken')).toBeNull();
    },
  );

  it('when the secret is the same, then the derived key is the same (values survive a restart)', () => {
    expect(deriveKey('an app secret of some length', 'provider-tokens').equals(key)).toBe(true);
    expect(key).toHaveLength(32);
  });
});
