/**
 * The provider's OAuth2 tokens: one row, both values encrypted (src/server/encryption.ts). Token
 * values never leave the server: no log line and no API answer carries them.
 */
import { Op } from 'sequelize';
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
  /** The provider refused the refresh token (with its reason): the admin must reconnect. */
  reconnectRequired: { since: Date; reason: string | null } | null;
  /** A process holds the refresh lease: a refresh grant is under way. */
  refreshing: boolean;
  /** When these tokens were stored: their version, and the start of the access token's lifetime. */
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
    reconnectRequired: row.reconnectRequiredAt ? { since: row.reconnectRequiredAt, reason: row.reconnectReason } : null,
    refreshing: row.refreshLeaseUntil !== null && row.refreshLeaseUntil.getTime() > Date.now(),
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
    reconnectRequiredAt: null,
    reconnectReason: null,
    refreshLeaseUntil: null,
    updatedAt: new Date(),
  });
}

/**
 * The provider refused the refresh token of the tokens stored at `version`: remember it until new
 * tokens come. Tokens stored meanwhile (a reconnect, another process's refresh) are left alone.
 */
export async function markReconnectRequired(version: Date, reason: string | null): Promise<void> {
  await ProviderTokenRecord.update(
    { reconnectRequiredAt: new Date(), reconnectReason: reason, refreshLeaseUntil: null },
    { where: { id: ROW_ID, updatedAt: version }, silent: true },
  );
}

/** Takes the refresh lease for `ms` unless a process holds one; resolves with the lease's end, or null. */
export async function takeRefreshLease(ms: number): Promise<Date | null> {
  const now = new Date();
  const until = new Date(now.getTime() + ms);
  const [changed] = await ProviderTokenRecord.update(
    { refreshLeaseUntil: until },
    { where: { id: ROW_ID, [Op.or]: [{ refreshLeaseUntil: null }, { refreshLeaseUntil: { [Op.lte]: now } }] }, silent: true },
  );
  return changed === 1 ? until : null;
}

/** Gives the lease up, unless it has since gone to another process. */
export async function releaseRefreshLease(until: Date): Promise<void> {
  await ProviderTokenRecord.update({ refreshLeaseUntil: null }, { where: { id: ROW_ID, refreshLeaseUntil: until }, silent: true });
}

export async function clearProviderTokens(): Promise<void> {
  await ProviderTokenRecord.destroy({ where: { id: ROW_ID } });
}
