/**
 * APP_SECRET, or one generated on first start and kept beside the database (mode 0600), and the keys
 * derived from it, one per purpose (src/server/encryption.ts).
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Config } from './config';
import { deriveKey } from './encryption';

/** APP_SECRET, else the secret file's, else a new one written there (another process's, if it got there first). */
export function readAppSecret(
  config: Pick<Config, 'appSecret' | 'appSecretFile' | 'dataDir'>,
): string {
  if (config.appSecret) return config.appSecret;
  const file = config.appSecretFile;
  let secret: string;
  try {
    secret = readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    const generated = randomBytes(32).toString('base64url');
    // Written whole under a name of its own, then linked into place: a link never replaces a secret
    // another process put there meanwhile, and nobody ever reads a file that is created but not yet written.
    const incoming = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(incoming, `${generated}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(incoming, file);
      secret = generated;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      secret = readFileSync(file, 'utf8').trim();
    } finally {
      rmSync(incoming, { force: true });
    }
  }
  if (!secret) throw new Error(`${file} is empty: delete it or set APP_SECRET`);
  return secret;
}

/** A key per use of the secret, so that no two uses ever share one. */
export interface AppKeys {
  /** Encrypts the provider's stored tokens. */
  providerTokens: Buffer;
  /** Encrypts the PKCE verifiers of OAuth2 authorizations under way. */
  oauthAuthorizations: Buffer;
  /** Signs the unsubscribe links of status e-mails. */
  statusEmailUnsubscribe: Buffer;
  /** Encrypts the users' TOTP secrets. */
  twoFactorSecrets: Buffer;
  /** Keys the hashes of the two-factor recovery codes. */
  recoveryCodes: Buffer;
  /** The built-in sandbox's token signatures. */
  sandboxAccessTokens: Buffer;
  sandboxRefreshTokens: Buffer;
  /** Encrypts the webhook endpoints' signing secrets (kept to sign with, shown only once). */
  webhookSecrets: Buffer;
}

export function deriveAppKeys(secret: string): AppKeys {
  return {
    providerTokens: deriveKey(secret, 'provider-tokens'),
    oauthAuthorizations: deriveKey(secret, 'oauth-authorizations'),
    statusEmailUnsubscribe: deriveKey(secret, 'status-email-unsubscribe'),
    twoFactorSecrets: deriveKey(secret, 'two-factor-secrets'),
    recoveryCodes: deriveKey(secret, 'recovery-codes'),
    sandboxAccessTokens: deriveKey(secret, 'sandbox-access-tokens'),
    sandboxRefreshTokens: deriveKey(secret, 'sandbox-refresh-tokens'),
    webhookSecrets: deriveKey(secret, 'webhook-secrets'),
  };
}
