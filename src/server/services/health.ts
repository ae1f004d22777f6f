/**
 * What the health endpoints report. /api/health: whether the database answers a query. Readiness:
 * whether this process may take traffic (started, database answering, every migration applied), and
 * for information how the sync and the outbox fare; neither of those makes a process unready, since
 * another process could not do better while the provider or the SMTP server is away.
 */
import type { ReadinessChecks, StartupState } from '~/shared/health';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { migrationStatus } from '../db/migrate';
import { withinTime } from '../time-limit';
import { readJobBacklog, readOutboxBacklog } from './outbox';
import { readSyncState } from './receipts';

export async function checkHealth({
  db,
}: {
  db: Database;
}): Promise<{ database: boolean; uptimeSeconds: number }> {
  const database = await db.sequelize.query('SELECT 1').then(
    () => true,
    () => false,
  );
  return { database, uptimeSeconds: Math.round(process.uptime()) };
}

/** A database that has not answered by then counts as down: a load balancer's check must not hang. */
const CHECK_TIMEOUT_MS = 2_000;
/** A sync this many intervals old is stale: a few missed runs are no news, more are. */
const STALE_AFTER_INTERVALS = 3;
/** An e-mail or a job waiting this long is a backlog even before any delivery failed. */
const BACKLOG_AFTER_SECONDS = 10 * 60;

export type { StartupState } from '~/shared/health';

export interface ReadinessDeps {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'syncIntervalSeconds'>;
  startupState(): StartupState;
}

export interface Readiness {
  ready: boolean;
  checks: ReadinessChecks;
}

const withinTimeout = <T>(work: Promise<T>): Promise<T> =>
  withinTime(work, CHECK_TIMEOUT_MS, new Error('timed out'));

const isoOrNull = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

async function syncCheck(deps: ReadinessDeps): Promise<Readiness['checks']['sync']> {
  const state = await readSyncState(deps);
  const lastSuccessAt = isoOrNull(state.lastSuccessAt);
  const lastErrorAt = isoOrNull(state.lastErrorAt);
  const failing =
    lastErrorAt !== null &&
    (lastSuccessAt === null || Date.parse(lastErrorAt) >= Date.parse(lastSuccessAt));
  const stale =
    lastSuccessAt === null ||
    deps.clock.now() - Date.parse(lastSuccessAt) >
      STALE_AFTER_INTERVALS * deps.config.syncIntervalSeconds * 1000;
  return { status: failing ? 'failing' : stale ? 'stale' : 'ok', lastSuccessAt, lastErrorAt };
}

/**
 * The outbox holds e-mails and jobs (forwards to the provider, webhook deliveries): `pending` counts
 * both, as /metrics' portal_outbox_pending_messages and portal_outbox_pending_jobs together.
 */
async function outboxCheck(deps: ReadinessDeps): Promise<Readiness['checks']['outbox']> {
  const [mails, jobs] = await Promise.all([readOutboxBacklog(deps), readJobBacklog(deps)]);
  const oldestAgeSeconds = Math.max(mails.oldestAgeSeconds, jobs.oldestAgeSeconds);
  const backlog = mails.retrying + jobs.retrying > 0 || oldestAgeSeconds > BACKLOG_AFTER_SECONDS;
  return {
    status: backlog ? 'backlog' : 'ok',
    pending: mails.pending + jobs.pending,
    pendingJobs: jobs.pending,
    oldestAgeSeconds,
  };
}

/** The checks of GET /api/health/ready; the database is not asked before start-up has connected it. */
export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  const state = deps.startupState();
  const startup = { status: state === 'started' ? 'ok' : 'fail', state } as const;
  if (state !== 'started') {
    const skipped = { status: 'skipped' } as const;
    return {
      ready: false,
      checks: { startup, database: skipped, migrations: skipped, sync: skipped, outbox: skipped },
    };
  }
  const database = await withinTimeout(deps.db.sequelize.query('SELECT 1')).then(
    () => true,
    () => false,
  );
  if (!database) {
    const skipped = { status: 'skipped' } as const;
    return {
      ready: false,
      checks: {
        startup,
        database: { status: 'fail' },
        migrations: skipped,
        sync: skipped,
        outbox: skipped,
      },
    };
  }
  const [pending, sync, outbox] = await Promise.all([
    withinTimeout(migrationStatus(deps.db.sequelize)).then(
      ({ pending: names }) => names.length,
      () => null,
    ),
    // Information only: a failed read of either says nothing about whether this process can serve.
    withinTimeout(syncCheck(deps)).catch(() => ({ status: 'skipped' }) as const),
    withinTimeout(outboxCheck(deps)).catch(() => ({ status: 'skipped' }) as const),
  ]);
  const migrations =
    pending === null
      ? ({ status: 'fail' } as const)
      : ({ status: pending === 0 ? 'ok' : 'fail', pending } as const);
  return {
    ready: migrations.status === 'ok',
    checks: { startup, database: { status: 'ok' }, migrations, sync, outbox },
  };
}
