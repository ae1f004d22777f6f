/** The provider tokens' answers (src/shared/tokens.ts names their types), for the API description and its tests. */
import * as z from 'zod/mini';
import { schemaOf } from '../envelope';
import {
  TOKEN_SOURCES,
  type OAuthConfig,
  type OAuthStart,
  type TokenClearResult,
  type TokenInfo,
  type TokenStatus,
} from '../tokens';

const nullableText = z.nullable(z.string());
const nullableCount = z.nullable(z.number());

export const tokenStatusSchema = schemaOf<TokenStatus>()(
  z.object({
    hasAccessToken: z.boolean(),
    hasRefreshToken: z.boolean(),
    isAccessTokenExpired: z.boolean(),
    isRefreshTokenExpired: z.boolean(),
    accessTokenExpiry: nullableText,
    refreshTokenExpiry: nullableText,
    accessTokenExpiresInMinutes: nullableCount,
    refreshTokenExpiresInMinutes: nullableCount,
    canRefresh: z.boolean(),
    isRefreshing: z.boolean(),
    source: z.nullable(z.enum(TOKEN_SOURCES)),
    lastUpdated: nullableText,
    reconnectRequired: z.boolean(),
    reconnectReason: nullableText,
  }),
);

export const tokenClearResultSchema = schemaOf<TokenClearResult>()(
  z.object({ revoked: z.boolean(), revocationError: nullableText }),
);

export const tokenInfoSchema = schemaOf<TokenInfo>()(
  z.object({
    provider: z.enum(['sandbox', 'http', 'magaya', 'file']),
    providerUrl: z.string(),
    redirectUri: z.string(),
    autoRefreshMinutesBeforeExpiry: z.number(),
    source: z.nullable(z.enum(TOKEN_SOURCES)),
    lastUpdated: nullableText,
  }),
);

export const oauthConfigSchema = schemaOf<OAuthConfig>()(
  z.object({
    issuer: nullableText,
    clientId: z.string(),
    clientType: z.enum(['public', 'confidential']),
    tokenEndpointAuthMethod: z.enum(['client_secret_basic', 'client_secret_post', 'none']),
    authorizationUrl: z.string(),
    tokenUrl: z.string(),
    revocationUrl: nullableText,
    redirectUri: z.string(),
    scope: z.string(),
    codeChallengeMethod: z.literal('S256'),
  }),
);

export const oauthStartSchema = schemaOf<OAuthStart>()(z.object({ authorizationUrl: z.string() }));
