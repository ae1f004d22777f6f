/** Everything the portal needs before its first answer, done once per process. */
import { config } from './config';
import { connectDatabase, oneStartAtATime } from './db';
import { migrateDatabase } from './db/migrate';
import { loadAppSecret } from './secrets';
import { purgeOldLoginAttempts } from './services/login-limiter';
import { startMirror } from './services/mirror-schedule';
import { startOutbox } from './services/outbox';
import { prepareDecoyHash } from './services/passwords';
import { purgeExpiredSessions } from './services/sessions';
import { ensureFirstAdmin } from './services/users';
import { offerShutdown } from './shutdown';

const HOUSEKEEPING_INTERVAL_MS = 15 * 60_000;

async function housekeeping(): Promise<void> {
  await purgeExpiredSessions();
  await purgeOldLoginAttempts();
}

async function start(): Promise<void> {
  if (config.provider === 'sandbox') {
    console.warn('PROVIDER=sandbox: /sandbox serves generated demo data through a built-in imitation of the logistics provider; do not expose this portal as it is (set PROVIDER=http for real data).');
  }
  await connectDatabase();
  offerShutdown();
  loadAppSecret();
  await oneStartAtATime(async () => {
    await migrateDatabase();
    await ensureFirstAdmin();
  });
  await prepareDecoyHash();
  await housekeeping();
  setInterval(() => housekeeping().catch((error) => console.error('Housekeeping failed:', error)), HOUSEKEEPING_INTERVAL_MS).unref();
  startOutbox();
  // Not awaited: in sandbox mode the sync calls this very process, whose requests wait for start().
  startMirror();
}

let started: Promise<void> | undefined;

export function whenReady(): Promise<void> {
  started ??= start().catch((error) => {
    started = undefined;
    throw error;
  });
  return started;
}
