/**
 * The provider's OAuth2 tokens: one row, both values encrypted (src/server/encryption.ts). Token
 * values never leave the server: no log line and no API answer carries them.
 */
import { TOKEN_SOURCES, type TokenSource } from '~/shared/tokens';
import { ProviderTokenRecord } from '../db/models';
import { decryptValue, deriveKey, encryptValue } from '../encryption';
import type { TokenSet } from '../provider/contract';
import { loadAppSecret } from '../secrets';

const isTokenSource = (value: string | null): value is TokenSource => TOKEN_SOURCES.some((source) => source === value);

/** What is stored; a value that no longer decrypts (APP_SECRET changed, row tampered with) is null. */
export interface StoredTokens {
  accessToken: string | null;
  refreshToken: string | null;
  accessTokenExpiresAt: Date | null;
  refreshTokenExpiresAt: Date | null;
  source: TokenSource | null;
  updatedAt: Date;
}

const ROW_ID = 1;

let key: Buffer | undefined;
const tokenKey = () => (key ??= deriveKey(loadAppSecret(), 'provider-tokens'));

const seal = (value: string | null, field: string) => (value === null ? null : encryptValue(tokenKey(), value, field));
const unseal = (value: string | null, field: string) => (value === null ? null : decryptValue(tokenKey(), value, field));

/** The stored tokens, or null when none are stored or neither decrypts. */
export async function readProviderTokens(): Promise<StoredTokens | null> {
  const row = await ProviderTokenRecord.findByPk(ROW_ID);
  if (!row) return null;
  const accessToken = unseal(row.accessToken, 'accessToken');
  const refreshToken = unseal(row.refreshToken, 'refreshToken');
  if (accessToken === null && refreshToken === null) return null;
  return {
    accessToken,
    refreshToken,
    accessTokenExpiresAt: accessToken === null ? null : row.accessTokenExpiresAt,
    refreshTokenExpiresAt: refreshToken === null ? null : row.refreshTokenExpiresAt,
    source: isTokenSource(row.source) ? row.source : null,
    updatedAt: row.updatedAt,
  };
}

/** Access and refresh token in one write: a rotated refresh token never outlives its access token's save. */
export async function saveProviderTokens(tokens: TokenSet, source: TokenSource): Promise<void> {
  await ProviderTokenRecord.upsert({
    id: ROW_ID,
    accessToken: seal(tokens.accessToken, 'accessToken'),
    refreshToken: seal(tokens.refreshToken, 'refreshToken'),
    accessTokenExpiresAt: tokens.accessTokenExpiresAt,
    refreshTokenExpiresAt: tokens.refreshToken === null ? null : tokens.refreshTokenExpiresAt,
    source,
    updatedAt: new Date(),
  });
}

export async function clearProviderTokens(): Promise<void> {
  await ProviderTokenRecord.destroy({ where: { id: ROW_ID } });
}
