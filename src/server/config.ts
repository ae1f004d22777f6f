/**
 * Configuration from the environment; README.md lists every variable. `loadConfig` is pure: the
 * server (server.mjs) and the command-line scripts read process.env through it, tests pass their own.
 */
import path from 'node:path';

export type ProviderMode = 'sandbox' | 'http' | 'magaya' | 'file';
/** How a file import reads a date that could be either (03-04-2026): month first or day first. */
export type ImportDateOrder = 'month-first' | 'day-first';
export type SandboxProtocol = 'contract' | 'magaya';

/** Two-factor sign-in: not offered, offered to everyone, or offered and demanded of admins. */
export const TWO_FACTOR_MODES = ['off', 'optional', 'required-for-admins'] as const;
export type TwoFactorMode = (typeof TWO_FACTOR_MODES)[number];

/**
 * How the portal authenticates at the token and revocation endpoints (client_secret_basic or
 * client_secret_post, as the server's metadata lists them).
 */
export const TOKEN_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;
export type TokenAuthMethod = (typeof TOKEN_AUTH_METHODS)[number];

/** pino's levels, quietest last; `silent` logs nothing. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface Config {
  port: number;
  host: string;
  publicUrl: URL;
  /** PUBLIC_URL is https: cookies are Secure and HSTS is sent. */
  isHttps: boolean;
  databaseUrl: string;
  /** SQLite file path, or null when DATABASE_URL points at PostgreSQL. */
  sqliteFile: string | null;
  /** Folder where run-time secrets live: beside the database file. */
  dataDir: string;
  uploadsDir: string;
  appSecret: string | null;
  /** Where the generated secret is kept when APP_SECRET is unset: app-secret in dataDir. */
  appSecretFile: string;
  adminUsername: string;
  adminPassword: string | null;
  provider: ProviderMode;
  /** Where the server reaches the provider: PROVIDER_URL, or this process's own /sandbox. */
  providerUrl: string;
  /** How long one request to the provider may take before it counts as unanswered (PROVIDER_TIMEOUT_SECONDS). */
  providerTimeoutMs: number;
  /**
   * The authorization server's issuer, whose metadata (OAuth2 authorization server metadata, else
   * OpenID Connect Discovery) names its endpoints; null: the endpoints below, as configured. The
   * sandbox's is its loopback URL.
   */
  providerIssuer: string | null;
  /** Where the admin's browser is sent to authorize; null: from the issuer's metadata. */
  providerAuthorizeUrl: string | null;
  /** The token endpoint; null: from the issuer's metadata. */
  providerTokenUrl: string | null;
  /** The OAuth2 token revocation endpoint; null: from the issuer's metadata, if it names one. */
  providerRevocationUrl: string | null;
  /** The scopes asked for, space-separated. */
  providerScope: string;
  /** PROVIDER_TOKEN_AUTH; null: the best method the server supports (client_secret_basic first). */
  providerTokenAuth: TokenAuthMethod | null;
  providerClientId: string;
  providerClientSecret: string | null;
  /** The OAuth2 redirect URI registered with the provider: the portal's callback page. */
  oauthRedirectUri: string;
  sandboxAccessTokenSeconds: number;
  sandboxRefreshTokenSeconds: number;
  /** The sandbox's test controls (outage, advance, revoke): tests and the benchmark only. */
  sandboxControl: boolean;
  /** How often the sandbox's data moves; SYNC_INTERVAL_SECONDS unless set. */
  sandboxChangeSeconds: number;
  /**
   * SANDBOX_PROTOCOL: the sandbox also answers as Magaya's CSSoapService (`/sandbox/Invoke`) with
   * `magaya`, and the portal reads it that way.
   */
  sandboxProtocol: SandboxProtocol;
  /**
   * How the portal reads its receipts: the contract of docs/provider-api.md (PROVIDER=http, and the
   * sandbox by default), or Magaya's CSSoapService (PROVIDER=magaya, and the sandbox with SANDBOX_PROTOCOL=magaya).
   */
  providerProtocol: SandboxProtocol;
  /**
   * Magaya's Invoke URL (PROVIDER_URL with PROVIDER=magaya; the sandbox's own /sandbox/Invoke in
   * its Magaya mode); null otherwise.
   */
  magayaUrl: string | null;
  /** MAGAYA_USERNAME / MAGAYA_PASSWORD; null: an admin enters the API user on Token Management. */
  magayaUsername: string | null;
  magayaPassword: string | null;
  /** MAGAYA_TIME_ZONE: the IANA time zone Magaya's server reads dates in (UTC unless set). */
  magayaTimeZone: string;
  mapTileUrl: string;
  mapTileAttribution: string;
  sandboxReceipts: number;
  sandboxSeed: number;
  demoUsers: boolean;
  syncIntervalSeconds: number;
  /** How often a sync is a full pass, which also removes receipts the provider deleted. */
  syncFullIntervalSeconds: number;
  /** Password of the sandbox demo customer; generated and printed once when unset. */
  demoPassword: string | null;
  showLocations: boolean;
  loginMaxAttempts: number;
  loginWindowSeconds: number;
  /** Failures one client address may make across all usernames per window. */
  loginMaxAttemptsPerAddress: number;
  trustProxy: boolean;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  productName: string;
  designedBy: string;
  companyEmail: string;
  /** SMTP_URL (smtp:// or smtps://); null: status e-mails are off. */
  smtpUrl: string | null;
  /** The From of status e-mails. */
  mailFrom: string;
  /** The outbox's first wait after a failed delivery; it doubles per attempt, up to an hour. */
  mailRetrySeconds: number;
  /** bcrypt's cost for new password hashes: 12; only the tests lower it, to stay fast. */
  passwordHashCost: number;
  twoFactor: TwoFactorMode;
  /** How long the audit trail keeps an entry. */
  auditRetentionDays: number;
  /** A pre-alert still expected this many days after it was made shows in the admin's stale list. */
  prealertStaleDays: number;
  logLevel: LogLevel;
  /** LOG_FORMAT; unset: pretty when standard output is a terminal, JSON lines otherwise. */
  logFormat: LogFormat;
  /** METRICS_TOKEN: the bearer token /metrics asks for; null: /metrics is not served. */
  metricsToken: string | null;
  /** Requests one personal API token may make per minute, across all processes. */
  apiTokenRatePerMinute: number;
  /** WEBHOOK_ALLOW_HTTP: webhook endpoints may be plain http:// (tests and local setups). */
  webhookAllowHttp: boolean;
  /** WEBHOOK_ALLOW_PRIVATE: webhook deliveries may go to loopback, private, link-local and metadata addresses. */
  webhookAllowPrivate: boolean;
  /**
   * WEBHOOK_CA_FILE: a PEM file of certificate authorities trusted for webhook deliveries besides
   * the usual ones; null: none.
   */
  webhookCaFile: string | null;
  /** IMPORT_DIR: the folder watched for exports to import (PROVIDER=file); done/ and failed/ beside them. */
  importDir: string;
  /** IMPORT_DATE_ORDER: how an import reads a file whose dates could be either order. */
  importDateOrder: ImportDateOrder;
}

type Env = Record<string, string | undefined>;

/**
 * A session's activity is recorded at most once a minute (src/server/services/sessions.ts): an idle
 * limit must be several of those minutes, or an active user would be signed out.
 */
const SESSION_IDLE_MINUTES_MIN = 5;

/** bcrypt's own bounds are 4 to 31; past 15 a sign-in takes seconds. */
const PASSWORD_HASH_COST_RANGE = [4, 15] as const;

function integer(env: Env, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be a whole number of at least ${min}, got "${raw}"`);
  return value;
}

function bounded(
  env: Env,
  name: string,
  fallback: number,
  [min, max]: readonly [number, number],
): number {
  const value = integer(env, name, fallback, min);
  if (value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${env[name]}"`);
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
}

function text(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  return raw ? raw : fallback;
}

function required(env: Env, name: string, when: string): string {
  const raw = env[name]?.trim();
  if (!raw) throw new Error(`${name} is required with ${when}`);
  return raw;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

function optionalUrl(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  if (!URL.canParse(raw)) throw new Error(`${name} must be a URL, got "${raw}"`);
  return raw;
}

function smtpUrl(env: Env): string | null {
  const raw = optionalUrl(env, 'SMTP_URL');
  if (raw !== null && !/^smtps?:$/.test(new URL(raw).protocol))
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, got "${raw}"`);
  return raw;
}

function twoFactorMode(env: Env): TwoFactorMode {
  const raw = text(env, 'TWO_FACTOR', 'optional');
  const mode = TWO_FACTOR_MODES.find((known) => known === raw);
  if (!mode)
    throw new Error(`TWO_FACTOR must be one of ${TWO_FACTOR_MODES.join(', ')}, got "${raw}"`);
  return mode;
}

function tokenAuth(env: Env, secret: string | null): TokenAuthMethod | null {
  const raw = env.PROVIDER_TOKEN_AUTH?.trim();
  if (!raw) return null;
  const method = TOKEN_AUTH_METHODS.find((known) => known === raw);
  if (!method)
    throw new Error(
      `PROVIDER_TOKEN_AUTH must be one of ${TOKEN_AUTH_METHODS.join(', ')}, got "${raw}"`,
    );
  if (method !== 'none' && secret === null)
    throw new Error(`PROVIDER_TOKEN_AUTH=${method} needs PROVIDER_CLIENT_SECRET`);
  return method;
}

function oneOf<T extends string>(env: Env, name: string, known: readonly T[], fallback: T): T {
  const raw = text(env, name, fallback).toLowerCase();
  const value = known.find((candidate) => candidate === raw);
  if (!value) throw new Error(`${name} must be one of ${known.join(', ')}, got "${env[name]}"`);
  return value;
}

function timeZone(env: Env, name: string): string {
  const raw = text(env, name, 'UTC');
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: raw }).resolvedOptions().timeZone;
  } catch {
    throw new Error(`${name} must be an IANA time zone such as America/New_York, got "${raw}"`);
  }
}

/** A token short enough to guess is no protection for /metrics. */
const METRICS_TOKEN_MIN_LENGTH = 16;

function metricsToken(env: Env): string | null {
  const raw = env.METRICS_TOKEN?.trim();
  if (!raw) return null;
  if (raw.length < METRICS_TOKEN_MIN_LENGTH)
    throw new Error(`METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters long`);
  return raw;
}

/** The address this process reaches itself on, whatever interface it listens on. */
function loopbackHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export function loadConfig(env: Env, cwd = process.cwd(), stdoutIsTerminal = false): Config {
  const port = integer(env, 'PORT', 4321, 0);
  const publicUrl = new URL(text(env, 'PUBLIC_URL', `http://localhost:${port}`));
  const databaseUrl = text(env, 'DATABASE_URL', 'sqlite:db/portal.sqlite');
  let sqliteFile: string | null = null;
  if (databaseUrl.startsWith('sqlite:')) {
    sqliteFile = path.resolve(cwd, databaseUrl.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, ''));
  } else if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${databaseUrl}"`);
  }
  const provider = text(env, 'PROVIDER', 'sandbox');
  if (provider !== 'sandbox' && provider !== 'http' && provider !== 'magaya' && provider !== 'file')
    throw new Error(`PROVIDER must be sandbox, http, magaya or file, got "${provider}"`);
  const host = text(env, 'HOST', 'localhost');
  // PROVIDER=file asks no provider: its URL is this process's own /sandbox, which is not served then.
  const providerUrl = trimSlash(
    provider === 'sandbox' || provider === 'file'
      ? `http://${loopbackHost(host)}:${port}/sandbox`
      : required(env, 'PROVIDER_URL', `PROVIDER=${provider}`),
  );
  const sandboxProtocol = oneOf<SandboxProtocol>(
    env,
    'SANDBOX_PROTOCOL',
    ['contract', 'magaya'],
    'contract',
  );
  const providerProtocol: SandboxProtocol =
    provider === 'magaya' || (provider === 'sandbox' && sandboxProtocol === 'magaya')
      ? 'magaya'
      : 'contract';
  if (
    provider === 'magaya' &&
    !/^https?:$/.test(URL.canParse(providerUrl) ? new URL(providerUrl).protocol : '')
  )
    throw new Error(
      `PROVIDER_URL must be Magaya's http(s) Invoke URL with PROVIDER=magaya, got "${providerUrl}"`,
    );
  const magayaUrl =
    provider === 'magaya'
      ? providerUrl
      : providerProtocol === 'magaya'
        ? `${providerUrl}/Invoke?Handler=CSSoapService`
        : null;
  const magayaUsername =
    env.MAGAYA_USERNAME?.trim() ||
    (provider === 'sandbox' && providerProtocol === 'magaya' ? 'portal' : null);
  const magayaPassword =
    env.MAGAYA_PASSWORD ||
    (provider === 'sandbox' && providerProtocol === 'magaya' ? 'sandbox' : null);
  if ((magayaUsername === null) !== (magayaPassword === null))
    throw new Error('MAGAYA_USERNAME and MAGAYA_PASSWORD are set together, or neither');
  // The sandbox publishes its metadata like any server; without an issuer the endpoints default under PROVIDER_URL.
  const providerIssuer = provider === 'sandbox' ? providerUrl : optionalUrl(env, 'PROVIDER_ISSUER');
  const endpointDefault = (suffix: string) =>
    providerIssuer === null ? `${providerUrl}${suffix}` : null;
  const providerClientSecret = env.PROVIDER_CLIENT_SECRET?.trim() || null;

  const dataDir = sqliteFile ? path.dirname(sqliteFile) : path.resolve(cwd, 'db');

  return {
    port,
    host,
    publicUrl,
    isHttps: publicUrl.protocol === 'https:',
    databaseUrl,
    sqliteFile,
    dataDir,
    appSecretFile: path.join(dataDir, 'app-secret'),
    uploadsDir: path.resolve(cwd, text(env, 'UPLOADS_DIR', 'uploads')),
    appSecret: env.APP_SECRET?.trim() || null,
    adminUsername: text(env, 'ADMIN_USERNAME', 'admin').toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || null,
    provider,
    providerUrl,
    providerTimeoutMs: bounded(env, 'PROVIDER_TIMEOUT_SECONDS', 30, [5, 600]) * 1000,
    providerIssuer,
    providerAuthorizeUrl:
      optionalUrl(env, 'PROVIDER_AUTHORIZE_URL') ?? endpointDefault('/oauth/authorize'),
    providerTokenUrl: optionalUrl(env, 'PROVIDER_TOKEN_URL') ?? endpointDefault('/oauth/token'),
    providerRevocationUrl: optionalUrl(env, 'PROVIDER_REVOCATION_URL'),
    providerScope: text(env, 'PROVIDER_SCOPE', 'receipts').split(/\s+/).join(' '),
    providerTokenAuth: tokenAuth(env, providerClientSecret),
    providerClientId: text(env, 'PROVIDER_CLIENT_ID', 'freight-portal'),
    providerClientSecret,
    oauthRedirectUri: `${publicUrl.origin}/admin/tokens/callback`,
    sandboxAccessTokenSeconds: integer(env, 'SANDBOX_ACCESS_TOKEN_SECONDS', 3600),
    sandboxRefreshTokenSeconds: integer(env, 'SANDBOX_REFRESH_TOKEN_SECONDS', 30 * 86_400),
    sandboxControl: flag(env, 'SANDBOX_CONTROL', false),
    sandboxChangeSeconds: integer(
      env,
      'SANDBOX_CHANGE_SECONDS',
      integer(env, 'SYNC_INTERVAL_SECONDS', 120),
    ),
    sandboxProtocol,
    providerProtocol,
    magayaUrl,
    magayaUsername,
    magayaPassword,
    magayaTimeZone: timeZone(env, 'MAGAYA_TIME_ZONE'),
    mapTileUrl: text(env, 'MAP_TILE_URL', 'https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
    mapTileAttribution: text(env, 'MAP_TILE_ATTRIBUTION', '© OpenStreetMap contributors'),
    sandboxReceipts: integer(env, 'SANDBOX_RECEIPTS', 500, 0),
    sandboxSeed: integer(env, 'SANDBOX_SEED', 1, 0),
    demoUsers: flag(env, 'DEMO_USERS', provider === 'sandbox'),
    syncIntervalSeconds: integer(env, 'SYNC_INTERVAL_SECONDS', 120),
    // Magaya's full read is every receipt there is, so it heals drift weekly; the contract's pass
    // is cheap enough hourly.
    syncFullIntervalSeconds: integer(
      env,
      'SYNC_FULL_INTERVAL_SECONDS',
      providerProtocol === 'magaya' ? 7 * 86_400 : 3600,
    ),
    demoPassword: env.DEMO_PASSWORD || null,
    showLocations: flag(env, 'SHOW_LOCATIONS', true),
    loginMaxAttempts: integer(env, 'LOGIN_MAX_ATTEMPTS', 5),
    loginWindowSeconds: integer(env, 'LOGIN_WINDOW_SECONDS', 900),
    loginMaxAttemptsPerAddress: integer(env, 'LOGIN_MAX_ATTEMPTS_PER_ADDRESS', 200, 100),
    trustProxy: flag(env, 'TRUST_PROXY', false),
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 720, SESSION_IDLE_MINUTES_MIN),
    sessionMaxHours: integer(env, 'SESSION_MAX_HOURS', 168),
    productName: text(env, 'PRODUCT_NAME', 'Freight Portal'),
    designedBy: text(env, 'DESIGNED_BY', 'Freight Portal'),
    companyEmail: text(env, 'COMPANY_EMAIL', 'info@example.com'),
    smtpUrl: smtpUrl(env),
    mailRetrySeconds: integer(env, 'MAIL_RETRY_SECONDS', 30),
    mailFrom: text(
      env,
      'MAIL_FROM',
      `"${text(env, 'PRODUCT_NAME', 'Freight Portal')}" <no-reply@${publicUrl.hostname}>`,
    ),
    passwordHashCost: bounded(env, 'PASSWORD_HASH_COST', 12, PASSWORD_HASH_COST_RANGE),
    twoFactor: twoFactorMode(env),
    auditRetentionDays: integer(env, 'AUDIT_RETENTION_DAYS', 365),
    prealertStaleDays: integer(env, 'PREALERT_STALE_DAYS', 14),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: oneOf(env, 'LOG_FORMAT', LOG_FORMATS, stdoutIsTerminal ? 'pretty' : 'json'),
    metricsToken: metricsToken(env),
    apiTokenRatePerMinute: integer(env, 'API_TOKEN_RATE_PER_MINUTE', 120),
    webhookAllowHttp: flag(env, 'WEBHOOK_ALLOW_HTTP', false),
    webhookAllowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    webhookCaFile: env.WEBHOOK_CA_FILE?.trim()
      ? path.resolve(cwd, env.WEBHOOK_CA_FILE.trim())
      : null,
    importDir: path.resolve(cwd, text(env, 'IMPORT_DIR', 'imports')),
    importDateOrder: oneOf<ImportDateOrder>(
      env,
      'IMPORT_DATE_ORDER',
      ['month-first', 'day-first'],
      'month-first',
    ),
  };
}
