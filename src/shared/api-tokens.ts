/**
 * Personal API tokens: a user's key for their own systems to read the API (`Authorization: Bearer
 * fp_…`), read-only and in the user's scope. A token is `fp_` and 32 random bytes in base62; the server
 * keeps only its SHA-256, so the token is shown once, when it is made. The list shows its prefix.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import { noControlCharacters } from './receipts';

/** What every token starts with: tells it apart from other secrets (a secret scanner can look for it). */
export const API_TOKEN_PREFIX = 'fp_';
export const API_TOKEN_BYTES = 32;
/** Base62 characters of the random part: 43 hold any 32 bytes (62^43 > 2^256). */
export const API_TOKEN_BODY_LENGTH = 43;
/** Characters of the random part the list shows, so that a user tells their tokens apart. */
export const API_TOKEN_SHOWN_CHARACTERS = 8;
export const API_TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;
export type ApiTokenExpiryDays = (typeof API_TOKEN_EXPIRY_DAYS)[number];
/** Tokens a user may have working at once: enough for every system they run, few enough to keep track of. */
export const API_TOKENS_PER_USER = 20;
export const API_TOKEN_NAME_MAX = 60;

const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const API_TOKEN_PATTERN = new RegExp(`^${API_TOKEN_PREFIX}[0-9A-Za-z]{${API_TOKEN_BODY_LENGTH}}$`);

/** The base62 characters any `byteCount` bytes need. */
export const base62Length = (byteCount: number) => Math.ceil((byteCount * 8) / Math.log2(62));

/**
 * The bytes as one big-endian number in base62, left-padded with `0` to the length any bytes of that
 * count need: every token has the same length, and the text says nothing about its bytes' size.
 */
export function encodeBase62(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let text = '';
  while (value > 0n) {
    text = BASE62_ALPHABET[Number(value % 62n)] + text;
    value /= 62n;
  }
  return text.padStart(base62Length(bytes.length), '0');
}

/** Whether `text` has a token's shape: `fp_` and 43 base62 characters. */
export const isApiTokenFormat = (text: string) => API_TOKEN_PATTERN.test(text);

/** What the list shows of a token: `fp_` and the first characters of its random part. */
export const apiTokenPrefix = (token: string) =>
  token.slice(0, API_TOKEN_PREFIX.length + API_TOKEN_SHOWN_CHARACTERS);

/** `POST /api/auth/tokens`: a name the user recognises the token by, and how many days it works. */
export const createApiTokenSchema = z.object({
  name: z.string({ error: () => m.apitoken_name_required() }).check(
    z.trim(),
    z.minLength(1, { error: () => m.apitoken_name_required() }),
    z.maxLength(API_TOKEN_NAME_MAX, {
      error: () => m.apitoken_name_too_long({ max: API_TOKEN_NAME_MAX }),
    }),
    noControlCharacters(() => m.apitoken_name_control_characters()),
  ),
  expiresInDays: z.literal(API_TOKEN_EXPIRY_DAYS, {
    error: () => m.apitoken_expiry_invalid({ choices: API_TOKEN_EXPIRY_DAYS.join(', ') }),
  }),
});
export type CreateApiTokenInput = z.output<typeof createApiTokenSchema>;

/** One of the user's tokens, as `GET /api/auth/tokens` lists it: never the token (only its hash is kept). */
export const apiTokenSummarySchema = z.object({
  id: z.number(),
  name: z.string(),
  /** `fp_` and the first 8 characters of the random part. */
  prefix: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** To the minute: a token's use is recorded at most once a minute. */
  lastUsedAt: z.nullable(z.string()),
  /** Past its expiry: it no longer works, and is listed until it is revoked or a month has passed. */
  expired: z.boolean(),
});
export type ApiTokenSummary = z.infer<typeof apiTokenSummarySchema>;

/** `POST /api/auth/tokens` answers the new token itself: the only time it is shown. */
export const createdApiTokenSchema = z.extend(apiTokenSummarySchema, { token: z.string() });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

/** `DELETE /api/auth/users/{id}/tokens`: how many of the user's tokens the admin revoked. */
export const revokedApiTokensSchema = z.object({ revoked: z.number() });
export type RevokedApiTokens = z.infer<typeof revokedApiTokensSchema>;
