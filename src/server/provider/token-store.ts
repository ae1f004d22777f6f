/**
 * Where the provider client keeps its OAuth2 tokens: an interface, implemented over the database by
 * src/server/services/provider-tokens.ts, so that the client knows nothing of how they are stored.
 */
import type { TokenSource } from '~/shared/tokens';
import type { TokenSet } from './contract';

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

export interface TokenStore {
  /** The stored tokens, or null when none are stored or neither decrypts. */
  read(): Promise<StoredTokens | null>;
  /** Access and refresh token in one write: a rotated refresh token never outlives its access token's save. */
  save(tokens: TokenSet, source: TokenSource): Promise<void>;
  /**
   * The provider refused the refresh token of the tokens stored at `version`: remember it until new
   * tokens come. Tokens stored meanwhile (a reconnect, another process's refresh) are left alone.
   */
  markReconnectRequired(version: Date, reason: string | null): Promise<void>;
  /** Takes the refresh lease for `ms` unless a process holds one; resolves with the lease's end, or null. */
  takeRefreshLease(ms: number): Promise<Date | null>;
  /** Gives the lease up, unless it has since gone to another process. */
  releaseRefreshLease(until: Date): Promise<void>;
}
