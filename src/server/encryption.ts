/**
 * Values kept encrypted at rest: AES-256-GCM with a fresh 12-byte IV per value and a key derived from
 * APP_SECRET with HKDF, one key per purpose. A value that does not decrypt (another secret, a changed
 * byte, a value moved to another field) reads as absent. Values a link carries are signed (HMAC).
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 32-byte key for one purpose (the HKDF info), so keys for different uses never coincide. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'freight-portal', purpose, 32));
}

/** `v1.<iv>.<tag>.<ciphertext>` in base64url; `field` is bound as associated data. */
export function encryptValue(key: Buffer, plain: string, field: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(field));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [FORMAT, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

export function decryptValue(key: Buffer, sealed: string, field: string): string | null {
  const [format, iv, tag, ciphertext, ...rest] = sealed.split('.');
  if (
    format !== FORMAT ||
    iv === undefined ||
    tag === undefined ||
    ciphertext === undefined ||
    rest.length > 0
  )
    return null;
  try {
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) return null;
    const decipher = createDecipheriv(ALGORITHM, key, ivBytes, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(field));
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([
      decipher.update(Buffer.from(ciphertext, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return null;
  }
}

/** `<value>.<HMAC-SHA256 of it>` in base64url: a value anyone may read but nobody can forge. */
export function signValue(key: Buffer, value: string): string {
  return `${value}.${createHmac('sha256', key).update(value).digest('base64url')}`;
}

/** The value of a signed one whose signature holds; null otherwise. */
export function verifySignedValue(key: Buffer, signed: string): string | null {
  const cut = signed.lastIndexOf('.');
  if (cut < 0) return null;
  const value = signed.slice(0, cut);
  const given = Buffer.from(signed.slice(cut + 1), 'base64url');
  const expected = createHmac('sha256', key).update(value).digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
}
