/**
 * Provider tokens, for the Token Management screen and the server: the manual update payload with
 * its rules and messages (the form and POST /api/tokens/update parse with the same schema), the
 * answers of the token calls, the OAuth2 popup's message, and the pure parts of the screen.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import {
  REFRESH_EXPIRY_MAX_SECONDS,
  REFRESH_EXPIRY_MIN_SECONDS,
  TOKEN_AUTO_REFRESH_MINUTES,
  TOKEN_WARNING_MINUTES,
} from './constants';
import { formatCount } from './format';

/**
 * The texts of the provider connection's states, on the token screen, the callback page, the dashboard
 * and in answers. Each is built when read, in the language of the request or island reading it.
 */
export const CONNECTION_TEXTS = {
  get reconnectRequired() {
    return m.tokens_reconnect_required();
  },
  get reconnectExplained() {
    return m.tokens_reconnect_explained();
  },
  providerSaid: (reason: string) => m.tokens_provider_said({ reason }),
  get reconnect() {
    return m.tokens_reconnect();
  },
  get refreshRefused() {
    return m.tokens_refresh_refused();
  },
  get noRefreshToken() {
    return m.tokens_no_refresh_token();
  },
  get unknownRefreshExpiry() {
    return m.tokens_unknown_refresh_expiry();
  },
  get enterExpiryManually() {
    return m.tokens_enter_expiry_manually();
  },
  get autoRefresh() {
    return m.tokens_auto_refresh({ minutes: formatCount(TOKEN_AUTO_REFRESH_MINUTES) });
  },
  get dashboardNotice() {
    return m.tokens_dashboard_notice();
  },
  get openTokenManagement() {
    return m.tokens_open_token_management();
  },
  get cleared() {
    return m.tokens_cleared();
  },
  clearedWithoutRevocation: (reason: string) =>
    m.tokens_cleared_without_revocation({ reason: reason.replace(/\.+$/, '') }),
  get providerUnavailable() {
    return m.tokens_provider_unavailable();
  },
};

/** Far above any real token; a longer value is a paste gone wrong. */
export const TOKEN_MAX_LENGTH = 16_384;

const tokensRequired = () => m.tokens_both_required();

const tokenField = z.string({ error: tokensRequired }).check(
  z.trim(),
  z.minLength(1, { error: tokensRequired }),
  z.maxLength(TOKEN_MAX_LENGTH, {
    error: () => m.tokens_too_long({ max: String(TOKEN_MAX_LENGTH) }),
  }),
);

/** Seconds as a number or as the text of a number input; absent, null and '' mean "unknown". */
const expiryField = z.pipe(
  z.unknown(),
  z.transform((value, context) => {
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
      return null;
    const seconds = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
    if (typeof seconds !== 'number' || !Number.isSafeInteger(seconds) || seconds <= 0) {
      context.issues.push({ code: 'custom', message: m.tokens_expiry_positive(), input: value });
      return z.NEVER;
    }
    if (seconds < REFRESH_EXPIRY_MIN_SECONDS || seconds > REFRESH_EXPIRY_MAX_SECONDS) {
      // Plain digits in every language, as the seconds are typed into the field.
      const range = {
        min: String(REFRESH_EXPIRY_MIN_SECONDS),
        max: String(REFRESH_EXPIRY_MAX_SECONDS),
      };
      context.issues.push({ code: 'custom', message: m.tokens_expiry_range(range), input: value });
      return z.NEVER;
    }
    return seconds;
  }),
);

/**
 * The optional expiry may come as refreshTokenExpirySeconds or as refreshTokenExpiry: both are
 * accepted (the same value if both are given).
 */
export const tokenUpdateSchema = z.pipe(
  z.object({
    accessToken: tokenField,
    refreshToken: tokenField,
    refreshTokenExpirySeconds: z.optional(expiryField),
    refreshTokenExpiry: z.optional(expiryField),
  }),
  z.transform(
    (
      { accessToken, refreshToken, refreshTokenExpirySeconds = null, refreshTokenExpiry = null },
      context,
    ) => {
      if (
        refreshTokenExpirySeconds !== null &&
        refreshTokenExpiry !== null &&
        refreshTokenExpirySeconds !== refreshTokenExpiry
      ) {
        context.issues.push({
          code: 'custom',
          message: m.tokens_expiry_twice(),
          input: refreshTokenExpiry,
          path: ['refreshTokenExpiry'],
        });
        return z.NEVER;
      }
      return {
        accessToken,
        refreshToken,
        refreshTokenExpirySeconds: refreshTokenExpirySeconds ?? refreshTokenExpiry,
      };
    },
  ),
);
export type TokenUpdateInput = z.output<typeof tokenUpdateSchema>;

export const TOKEN_SOURCES = ['oauth2', 'manual', 'sandbox'] as const;
export type TokenSource = (typeof TOKEN_SOURCES)[number];

/** GET /api/tokens/status: what is known about the stored tokens, never their values. */
export interface TokenStatus {
  hasAccessToken: boolean;
  hasRefreshToken: boolean;
  isAccessTokenExpired: boolean;
  isRefreshTokenExpired: boolean;
  /** ISO date-time; null when not set or unknown. */
  accessTokenExpiry: string | null;
  refreshTokenExpiry: string | null;
  /** Whole minutes left (0 once expired); null when not set or unknown. */
  accessTokenExpiresInMinutes: number | null;
  refreshTokenExpiresInMinutes: number | null;
  canRefresh: boolean;
  isRefreshing: boolean;
  source: TokenSource | null;
  lastUpdated: string | null;
  /** The provider refused the refresh token: no refresh is tried until new tokens are stored. */
  reconnectRequired: boolean;
  /** The provider's reason for refusing it, when it gave one. */
  reconnectReason: string | null;
}

/** DELETE /api/tokens/clear: the tokens are gone; whether the provider revoked them first. */
export interface TokenClearResult {
  /** False when the provider has no revocation endpoint, or the revocation failed. */
  revoked: boolean;
  revocationError: string | null;
}

/** GET /api/tokens/info: how the portal reaches its provider (no credential). */
export interface TokenInfo {
  provider: 'sandbox' | 'http' | 'magaya' | 'file';
  providerUrl: string;
  redirectUri: string;
  autoRefreshMinutesBeforeExpiry: number;
  source: TokenSource | null;
  lastUpdated: string | null;
}

/** GET /api/tokens/oauth/config: the OAuth2 client as registered with the provider, without its secret. */
export interface OAuthConfig {
  /** The issuer whose metadata was discovered; null without PROVIDER_ISSUER. */
  issuer: string | null;
  clientId: string;
  clientType: 'public' | 'confidential';
  /** How the client authenticates at the token endpoint. */
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post' | 'none';
  authorizationUrl: string;
  tokenUrl: string;
  /** The OAuth2 token revocation endpoint Clear Tokens revokes at; null when the provider has none. */
  revocationUrl: string | null;
  redirectUri: string;
  scope: string;
  codeChallengeMethod: 'S256';
}

/** The answer of POST /api/tokens/oauth/authorize: where the popup goes to sign in. */
export interface OAuthStart {
  authorizationUrl: string;
}

/** What the callback page posts to the screen that opened it. */
export type OAuthPopupMessage =
  | {
      type: 'oauth2_success';
      data: {
        source: TokenSource | null;
        accessTokenExpiry: string | null;
        refreshTokenExpiry: string | null;
      };
    }
  | { type: 'oauth2_error'; error: string; error_description: string | null };

const nullableText = z.nullable(z.string());
const popupMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('oauth2_success'),
    data: z.object({
      source: z.nullable(z.enum(TOKEN_SOURCES)),
      accessTokenExpiry: nullableText,
      refreshTokenExpiry: nullableText,
    }),
  }),
  z.object({ type: z.literal('oauth2_error'), error: z.string(), error_description: nullableText }),
]);

/** The popup's message, or null for anything else that arrives on the window (other scripts, extensions). */
export function readOAuthPopupMessage(data: unknown): OAuthPopupMessage | null {
  const parsed = popupMessageSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/** The OAuth2 failure text: the reason is the provider's description, else 'OAuth2 authorization failed'. */
export function oauthFailureText(description: string | null | undefined): string {
  return m.tokens_oauth_failed_because({ reason: description?.trim() || m.tokens_oauth_failed() });
}

// The token cards of the Token Management screen.

/** What a token card's badge says, before it is put in words. */
export type TokenState = 'loading' | 'not-set' | 'expired' | 'refused' | 'valid';

export interface TokenFacts {
  present: boolean;
  expired: boolean;
  /** The provider refused it (refresh token only). */
  refused: boolean;
  /** Minutes left; null when the expiry is unknown. */
  minutesLeft: number | null;
}

/** The Access Token or Refresh Token part of a status; null while the status is loading. */
export function tokenFacts(
  status: TokenStatus | null,
  which: 'access' | 'refresh',
): TokenFacts | null {
  if (!status) return null;
  return which === 'access'
    ? {
        present: status.hasAccessToken,
        expired: status.isAccessTokenExpired,
        refused: false,
        minutesLeft: status.accessTokenExpiresInMinutes,
      }
    : {
        present: status.hasRefreshToken,
        expired: status.isRefreshTokenExpired,
        refused: status.reconnectRequired,
        minutesLeft: status.refreshTokenExpiresInMinutes,
      };
}

export function tokenState(facts: TokenFacts | null): TokenState {
  if (!facts) return 'loading';
  if (!facts.present) return 'not-set';
  if (facts.expired) return 'expired';
  return facts.refused ? 'refused' : 'valid';
}

/** 'Loading...', 'Not Set', 'Expired', 'Reconnect required' or 'Valid' (en). */
export function tokenStateLabel(facts: TokenFacts | null): string {
  switch (tokenState(facts)) {
    case 'loading':
      return m.tokens_state_loading();
    case 'not-set':
      return m.tokens_state_not_set();
    case 'expired':
      return m.tokens_state_expired();
    case 'refused':
      return CONNECTION_TEXTS.reconnectRequired;
    case 'valid':
      return m.tokens_state_valid();
  }
}

/**
 * 'Expired', 'Xh Ym' or 'Ym' (en); 'Unknown' when the expiry is not known, '—' without a token or
 * with a refused one.
 */
export function timeRemainingText(facts: TokenFacts | null): string {
  if (!facts || !facts.present) return '—';
  if (facts.expired) return m.tokens_state_expired();
  if (facts.refused) return '—';
  if (facts.minutesLeft === null) return m.tokens_unknown();
  const minutes = Math.max(0, Math.floor(facts.minutesLeft));
  const hours = Math.floor(minutes / 60);
  return hours > 0
    ? m.tokens_hours_minutes({ hours: formatCount(hours), minutes: formatCount(minutes % 60) })
    : m.tokens_minutes({ minutes: formatCount(minutes) });
}

/** How the card names where the tokens came from: 'oauth2', 'manual', 'sandbox' (en). */
export function tokenSourceLabel(source: TokenSource): string {
  switch (source) {
    case 'oauth2':
      return m.tokens_source_oauth2();
    case 'manual':
      return m.tokens_source_manual();
    case 'sandbox':
      return m.tokens_source_sandbox();
  }
}

export type TokenTone = 'error' | 'warning' | 'success' | 'neutral';

/**
 * Red when expired or refused, yellow at TOKEN_WARNING_MINUTES or less, green otherwise; grey while
 * loading or not set.
 */
export function tokenTone(facts: TokenFacts | null): TokenTone {
  if (!facts || !facts.present) return 'neutral';
  if (facts.expired || facts.refused) return 'error';
  if (facts.minutesLeft !== null && facts.minutesLeft <= TOKEN_WARNING_MINUTES) return 'warning';
  return 'success';
}

/** A refresh token whose expiry nobody told us (a provider without the extension, or manual entry without it). */
export function hasUnknownRefreshExpiry(status: TokenStatus | null): boolean {
  return (
    status !== null &&
    status.hasRefreshToken &&
    !status.reconnectRequired &&
    status.refreshTokenExpiry === null
  );
}

/** Connected without a refresh token: the connection ends with the access token. */
export function lacksRefreshToken(status: TokenStatus | null): boolean {
  return status !== null && status.hasAccessToken && !status.hasRefreshToken;
}

export interface ScreenBox {
  screenX: number;
  screenY: number;
  outerWidth: number;
  outerHeight: number;
}

/** window.open features for the login popup: width × height, centred over the portal's window. */
export function popupFeatures(box: ScreenBox, size: { width: number; height: number }): string {
  const left = Math.max(0, Math.round(box.screenX + (box.outerWidth - size.width) / 2));
  const top = Math.max(0, Math.round(box.screenY + (box.outerHeight - size.height) / 2));
  return `popup=yes,width=${size.width},height=${size.height},left=${left},top=${top}`;
}
