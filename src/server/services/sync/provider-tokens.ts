/**
 * The provider's OAuth2 tokens: one row, both values encrypted (src/server/encryption.ts). Token
 * values never leave the server: no log line and no API answer carries them.
 */
import { Op, type Transaction } from 'sequelize';
import { TOKEN_SOURCES, type TokenSource } from '~/shared/tokens';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { decryptValue, encryptValue } from '../../encryption';
import type { TokenSet } from '../../provider/contract';
import type { StoredTokens, TokenStore } from '../../provider/token-store';

const isTokenSource = (value: string | null): value is TokenSource =>
  TOKEN_SOURCES.some((source) => source === value);

const ROW_ID = 1;

export class ProviderTokenStore implements TokenStore {
  constructor(private readonly deps: { db: Database; clock: Clock; key: Buffer }) {}

  async read(): Promise<StoredTokens | null> {
    const row = await this.deps.db.models.ProviderTokenRecord.findByPk(ROW_ID);
    if (!row) return null;
    const accessToken = this.unseal(row.accessToken, 'accessToken');
    const refreshToken = this.unseal(row.refreshToken, 'refreshToken');
    if (accessToken === null && refreshToken === null) return null;
    return {
      accessToken,
      refreshToken,
      accessTokenExpiresAt: accessToken === null ? null : row.accessTokenExpiresAt,
      refreshTokenExpiresAt: refreshToken === null ? null : row.refreshTokenExpiresAt,
      source: isTokenSource(row.source) ? row.source : null,
      reconnectRequired: row.reconnectRequiredAt
        ? { since: row.reconnectRequiredAt, reason: row.reconnectReason }
        : null,
      refreshing:
        row.refreshLeaseUntil !== null && row.refreshLeaseUntil.getTime() > this.deps.clock.now(),
      updatedAt: row.updatedAt,
    };
  }

  /** `transaction`: an admin's save, written with its audit entry. */
  async save(tokens: TokenSet, source: TokenSource, transaction?: Transaction): Promise<void> {
    await this.deps.db.models.ProviderTokenRecord.upsert(
      {
        id: ROW_ID,
        accessToken: this.seal(tokens.accessToken, 'accessToken'),
        refreshToken: this.seal(tokens.refreshToken, 'refreshToken'),
        accessTokenExpiresAt: tokens.accessTokenExpiresAt,
        refreshTokenExpiresAt: tokens.refreshToken === null ? null : tokens.refreshTokenExpiresAt,
        source,
        reconnectRequiredAt: null,
        reconnectReason: null,
        refreshLeaseUntil: null,
        updatedAt: new Date(this.deps.clock.now()),
      },
      { transaction },
    );
  }

  async markReconnectRequired(version: Date, reason: string | null): Promise<void> {
    await this.deps.db.models.ProviderTokenRecord.update(
      {
        reconnectRequiredAt: new Date(this.deps.clock.now()),
        reconnectReason: reason,
        refreshLeaseUntil: null,
      },
      { where: { id: ROW_ID, updatedAt: version }, silent: true },
    );
  }

  async takeRefreshLease(ms: number): Promise<Date | null> {
    const now = new Date(this.deps.clock.now());
    const until = new Date(now.getTime() + ms);
    const [changed] = await this.deps.db.models.ProviderTokenRecord.update(
      { refreshLeaseUntil: until },
      {
        where: {
          id: ROW_ID,
          [Op.or]: [{ refreshLeaseUntil: null }, { refreshLeaseUntil: { [Op.lte]: now } }],
        },
        silent: true,
      },
    );
    return changed === 1 ? until : null;
  }

  async releaseRefreshLease(until: Date): Promise<void> {
    await this.deps.db.models.ProviderTokenRecord.update(
      { refreshLeaseUntil: null },
      { where: { id: ROW_ID, refreshLeaseUntil: until }, silent: true },
    );
  }

  async clear(transaction?: Transaction): Promise<void> {
    await this.deps.db.models.ProviderTokenRecord.destroy({ where: { id: ROW_ID }, transaction });
  }

  private seal(value: string | null, field: string): string | null {
    return value === null ? null : encryptValue(this.deps.key, value, field);
  }

  private unseal(value: string | null, field: string): string | null {
    return value === null ? null : decryptValue(this.deps.key, value, field);
  }
}
