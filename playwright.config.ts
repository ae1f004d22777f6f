import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, testChromiumPath } from './tests/support/chromium';
import { stallLimit, testPace } from './tests/support/test-pace';
import {
  E2E_ADMIN_PASSWORD,
  E2E_PORT,
  E2E_URL,
  MAILBOX_URL,
  OIDC_CLIENT_SECRET,
  OIDC_PORTAL_URL,
  OIDC_SERVER_URL,
  PASSKEYS_PORT,
  PASSKEYS_URL,
  SMTP_PORT,
} from './tests/support/e2e-env';

// One data folder per run, shared by the main process and its workers through the environment.
process.env.E2E_RUN_DIR ??= `.tmp/e2e-${Date.now()}`;
const runDir = process.env.E2E_RUN_DIR;
// Workers and time limits follow the machine's pace (tests/support/test-pace.ts), measured once by `npm
// test` or here; the workers read the same plan from the environment.
const pace = testPace();
process.env.TEST_PACE = JSON.stringify(pace);

function portal(port: number, name: string, env: Record<string, string> = {}) {
  return {
    command: 'node --experimental-async-context-frame server.mjs',
    url: `http://127.0.0.1:${port}/api/health`,
    // Ready once it says so: Playwright starts the servers one after another, and polling each URL (at
    // 0.1, 0.35, 0.85 s, then every second) added 0.2 s to each one's 1 s start.
    wait: { stdout: /Portal listening on / },
    reuseExistingServer: false,
    timeout: stallLimit(180_000, pace),
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: `sqlite:${runDir}/${name}/portal.sqlite`,
      UPLOADS_DIR: `${runDir}/${name}/uploads`,
      ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      DEMO_USERS: 'false',
      // bcrypt's lowest cost: the browser tests create and sign in many users.
      PASSWORD_HASH_COST: '4',
      // Each portal's sandbox answers from its own process: on a busy machine it is slow, not down.
      PROVIDER_TIMEOUT_SECONDS: String(Math.min(600, Math.ceil(stallLimit(30_000, pace) / 1000))),
      ...env,
    },
  };
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: pace.workers.browser,
  retries: process.env.CI ? 1 : 0,
  // The limits say "stalled": journeys through several pages took up to 31 s on a loaded 2-core machine,
  // and a step up to 7 s (measured in full runs).
  timeout: stallLimit(120_000, pace),
  expect: { timeout: stallLimit(20_000, pace) },
  reporter: [['list'], ['json', { outputFile: '.tmp/results/e2e.json' }]],
  use: {
    baseURL: E2E_URL,
    browserName: 'chromium',
    launchOptions: { executablePath: testChromiumPath(), args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
    // Recording a trace of every test took a third of the browser tier's time: a retry records one
    // (retries are on where CI is set), `--trace on` records them all, and every failure keeps its screenshot.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  projects: [
    // Signs the admin in once per portal; every test runs after it (tests/e2e/auth.setup.ts), and
    // tests/e2e/portals.teardown.ts once they all have.
    { name: 'setup', testMatch: /auth\.setup\.ts$/, teardown: 'teardown' },
    { name: 'chromium', dependencies: ['setup'] },
    { name: 'teardown', testMatch: /portals\.teardown\.ts$/ },
  ],
  webServer: [
    // The receipts tests read the sandbox's samples, take it down once, and compare the screens with the
    // API: one sync at start keeps the data still for the whole run.
    portal(E2E_PORT, 'main', { SANDBOX_CONTROL: 'true', SYNC_INTERVAL_SECONDS: '3600' }),
    portal(E2E_PORT + 1, 'locations-off', { SHOW_LOCATIONS: 'false' }),
    // Nothing listens on port 9 (discard): the first sync fails, so receipts and statistics are EXTERNAL_API_ERROR.
    portal(E2E_PORT + 2, 'provider-down', { PROVIDER: 'http', PROVIDER_URL: 'http://127.0.0.1:9' }),
    portal(E2E_PORT + 3, 'admin-area', { SANDBOX_CONTROL: 'true', SYNC_INTERVAL_SECONDS: '3600' }),
    portal(E2E_PORT + 4, 'tokens', { SYNC_INTERVAL_SECONDS: '3600' }),
    {
      command: 'node tests/support/oidc-server-main.ts',
      url: `${OIDC_SERVER_URL}/.well-known/openid-configuration`,
      wait: { stdout: /oidc-provider test server at / },
      reuseExistingServer: false,
      timeout: stallLimit(60_000, pace),
      env: {
        OIDC_PORT: String(E2E_PORT + 5),
        OIDC_REDIRECT_URI: `${OIDC_PORTAL_URL}/admin/tokens/callback`,
        OIDC_CLIENT_SECRET,
      },
    },
    portal(E2E_PORT + 6, 'oidc', {
      PROVIDER: 'http',
      PROVIDER_ISSUER: OIDC_SERVER_URL,
      PROVIDER_URL: `${OIDC_SERVER_URL}/api`,
      PROVIDER_CLIENT_SECRET: OIDC_CLIENT_SECRET,
      PROVIDER_SCOPE: 'receipts offline_access',
      SYNC_INTERVAL_SECONDS: '3600',
    }),
    // The history and pre-alerts tests move their sandbox and then sync now: no sync runs on its own meanwhile.
    portal(E2E_PORT + 7, 'history', {
      SANDBOX_CONTROL: 'true',
      SYNC_INTERVAL_SECONDS: '3600',
      SANDBOX_CHANGE_SECONDS: '86400',
      SANDBOX_RECEIPTS: '200',
    }),
    // Syncs every 2 seconds, so the freshness tests see "Updated … ago" turn into a warning within seconds of an outage.
    portal(E2E_PORT + 8, 'freshness', {
      SANDBOX_CONTROL: 'true',
      SYNC_INTERVAL_SECONDS: '2',
      SANDBOX_CHANGE_SECONDS: '86400',
      SANDBOX_RECEIPTS: '60',
    }),
    {
      command: 'node tests/support/smtp-server-main.ts',
      url: `${MAILBOX_URL}/messages`,
      wait: { stdout: /test SMTP server at / },
      reuseExistingServer: false,
      timeout: stallLimit(60_000, pace),
      env: { SMTP_PORT: String(SMTP_PORT), MAILBOX_PORT: String(E2E_PORT + 10) },
    },
    portal(E2E_PORT + 11, 'accounts', {
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      SYNC_INTERVAL_SECONDS: '3600',
      SANDBOX_RECEIPTS: '20',
    }),
    // The webhooks tests' receiver is a plain HTTP server on 127.0.0.1, which only these two flags let deliveries reach.
    portal(E2E_PORT + 14, 'webhooks', {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      SYNC_INTERVAL_SECONDS: '3600',
      SANDBOX_RECEIPTS: '20',
    }),
    // Pre-alerts: the sandbox's warehouse receives a pre-alerted package in the window a test advances, and the sync now after it links it.
    portal(E2E_PORT + 12, 'prealerts', {
      SANDBOX_CONTROL: 'true',
      SYNC_INTERVAL_SECONDS: '3600',
      SANDBOX_CHANGE_SECONDS: '86400',
      SANDBOX_RECEIPTS: '60',
    }),
    // Magaya: a sandbox answering as Magaya, and a PROVIDER=magaya portal reading it once its admin enters the API user.
    portal(E2E_PORT + 13, 'magaya-sandbox', {
      SANDBOX_PROTOCOL: 'magaya',
      SANDBOX_RECEIPTS: '40',
      SYNC_INTERVAL_SECONDS: '3600',
    }),
    portal(E2E_PORT + 15, 'magaya', {
      PROVIDER: 'magaya',
      PROVIDER_URL: `http://127.0.0.1:${E2E_PORT + 13}/sandbox/Invoke?Handler=CSSoapService`,
      SYNC_INTERVAL_SECONDS: '3600',
    }),
    // Passkeys: PUBLIC_URL on localhost (an IP address cannot be a relying party ID), browsed as localhost.
    portal(PASSKEYS_PORT, 'passkeys', {
      PUBLIC_URL: PASSKEYS_URL,
      SYNC_INTERVAL_SECONDS: '3600',
      SANDBOX_RECEIPTS: '20',
    }),
    // Receipts from imports only (PROVIDER=file): the import screen's tests upload to it.
    portal(E2E_PORT + 19, 'imports', { PROVIDER: 'file', IMPORT_DIR: `${runDir}/imports/folder` }),
  ],
});
