/** Where the browser tests' portals listen; E2E_PORT moves them (two checkouts can test side by side). */
export const E2E_ADMIN_PASSWORD = 'admin-e2e-password';
export const E2E_PORT = Number(process.env.E2E_PORT || 4610);
export const E2E_URL = `http://127.0.0.1:${E2E_PORT}`;
/** A second portal with SHOW_LOCATIONS=false. */
export const LOCATIONS_OFF_URL = `http://127.0.0.1:${E2E_PORT + 1}`;
/** A third portal whose logistics provider never answered: the receipts mirror was never filled. */
export const PROVIDER_DOWN_URL = `http://127.0.0.1:${E2E_PORT + 2}`;
/**
 * A fourth portal for the admin-area tests (assignments, branding, provider tokens): they change what
 * every page shows or take the provider connection away, which must not reach the receipts tests.
 */
export const ADMIN_AREA_URL = `http://127.0.0.1:${E2E_PORT + 3}`;
/** A fifth portal for the provider-token tests: clearing the tokens must not cut the others off the provider. */
export const TOKENS_URL = `http://127.0.0.1:${E2E_PORT + 4}`;
/** An independent OAuth2 server (oidc-provider, tests/support/oidc-server.ts) with its resource server under /api. */
export const OIDC_SERVER_URL = `http://127.0.0.1:${E2E_PORT + 5}`;
export const OIDC_CLIENT_SECRET = 'oidc-e2e-client-secret';
/** A sixth portal connected to that server by discovery (PROVIDER_ISSUER), not to its sandbox. */
export const OIDC_PORTAL_URL = `http://127.0.0.1:${E2E_PORT + 6}`;
/**
 * An eighth portal for the status history tests: it syncs every second and its sandbox moves only when
 * a test advances it, so that a receipt's history grows while the other portals' data stays still.
 */
export const HISTORY_URL = `http://127.0.0.1:${E2E_PORT + 7}`;
/**
 * A ninth portal for "Updated … ago" going stale and "Sync now": it syncs every 2 seconds, and its
 * tests take its provider down.
 */
export const FRESHNESS_URL = `http://127.0.0.1:${E2E_PORT + 8}`;
/** A real SMTP server (tests/support/smtp-server-main.ts), and where the tests read what it received. */
export const SMTP_PORT = E2E_PORT + 9;
export const MAILBOX_URL = `http://127.0.0.1:${E2E_PORT + 10}`;
/** A tenth portal that sends e-mail through that server: password resets and invitations. */
export const ACCOUNTS_URL = `http://127.0.0.1:${E2E_PORT + 11}`;
/** A portal whose webhooks may go to http:// and private addresses: the webhooks tests' receiver runs on 127.0.0.1. */
export const WEBHOOKS_URL = `http://127.0.0.1:${E2E_PORT + 14}`;
/**
 * A portal for the pre-alert tests: it syncs every second and its sandbox moves only when a test
 * advances it, so that a pre-alerted package arrives when the test says, and no other test's receipts
 * move meanwhile.
 */
export const PREALERTS_URL = `http://127.0.0.1:${E2E_PORT + 12}`;
/** A portal whose sandbox answers as Magaya (SANDBOX_PROTOCOL=magaya): the Magaya the next one connects to. */
export const MAGAYA_SANDBOX_URL = `http://127.0.0.1:${E2E_PORT + 13}`;
/** A portal with PROVIDER=magaya reading that sandbox, whose API user an admin enters on Token Management. */
export const MAGAYA_URL = `http://127.0.0.1:${E2E_PORT + 15}`;
/**
 * A portal whose PUBLIC_URL is localhost, not an IP address: an IP cannot be a relying party ID, so only
 * here are passkeys offered. It listens on 127.0.0.1 like the others; browsers reach it as localhost.
 */
export const PASSKEYS_PORT = E2E_PORT + 17;
export const PASSKEYS_URL = `http://localhost:${PASSKEYS_PORT}`;
/** Where the passkey tests start a portal of their own on PostgreSQL (tests/e2e/passkeys.spec.ts). */
export const PASSKEYS_POSTGRES_PORT = E2E_PORT + 18;
/** A portal that runs on imports (PROVIDER=file): the import screen's tests upload to it. */
export const IMPORTS_URL = `http://127.0.0.1:${E2E_PORT + 19}`;
