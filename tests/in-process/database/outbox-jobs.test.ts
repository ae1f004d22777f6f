/**
 * The outbox's job lane (src/server/services/outbox.ts), on both databases: a job written inside a
 * transaction exists only if it commits; a failing job is retried after a growing wait with the same
 * payload; a refused one is given up at once; every job is given up a day after it was written (the
 * handler is told once); two portals on one database never run one job twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJobs, JobRefused, type JobAttempt } from '~/server/services/outbox';
import { queryDatabase } from '../../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';

let first: InProcessPortal;
let second: InProcessPortal;

beforeAll(async () => {
  first = await startInProcessPortal({}, { background: false });
  second = await startInProcessPortal({}, { background: false, dir: first.dir });
});

afterAll(async () => {
  await second?.stop({ keepDir: true });
  await first?.stop();
});

async function jobRow(id: number) {
  const [row] = await queryDatabase<{ attempts: number; doneAt: string | null; failedAt: string | null; lastError: string | null }>(
    first,
    `SELECT "attempts", "doneAt", "failedAt", "lastError" FROM "outbox_jobs" WHERE "id" = ${id}`,
  );
  return row!;
}

async function lastJobId(): Promise<number> {
  const [row] = await queryDatabase<{ id: number }>(first, 'SELECT MAX("id") AS "id" FROM "outbox_jobs"');
  return Number(row!.id);
}

/** A handler that records what it was given and fails while `failures` lasts. */
function recordingHandler(kind: string, behaviour: { failures?: number; refuse?: boolean } = {}) {
  const runs: { payload: unknown; job: JobAttempt }[] = [];
  const givenUp: string[] = [];
  let failures = behaviour.failures ?? 0;
  for (const portal of [first, second]) {
    portal.portal.outbox.handle(kind, {
      async run(payload, job) {
        runs.push({ payload, job });
        if (behaviour.refuse) throw new JobRefused('never possible');
        if (failures > 0) {
          failures -= 1;
          throw new Error('the other side is away');
        }
      },
      async gaveUp(_payload, _job, error) {
        givenUp.push(error);
      },
    });
  }
  return { runs, givenUp };
}

describe('outbox jobs', () => {
  it('writes a job only when its transaction commits, and runs it once', async () => {
    const { runs } = recordingHandler('test.commit');
    const { portal } = first;
    await portal.db.sequelize
      .transaction(async (transaction) => {
        await enqueueJobs(portal, [{ kind: 'test.commit', payload: { n: 1 } }], transaction);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await portal.db.sequelize.transaction((transaction) => enqueueJobs(portal, [{ kind: 'test.commit', payload: { n: 2 } }], transaction));
    await portal.outbox.idle();
    expect(runs.map((run) => run.payload)).toEqual([{ n: 2 }]);
    expect((await jobRow(await lastJobId())).doneAt).not.toBeNull();
    expect(await portal.outbox.runDueJobs()).toBe(0);
  });

  it('retries a failing job after a growing wait, with the same payload, until it is done', async () => {
    const { runs } = recordingHandler('test.flaky', { failures: 2 });
    const { portal } = first;
    await enqueueJobs(portal, [{ kind: 'test.flaky', payload: { receipt: 7 } }]);
    const id = await lastJobId();
    await portal.outbox.idle();
    expect(await jobRow(id)).toMatchObject({ attempts: 1, doneAt: null, failedAt: null, lastError: 'the other side is away' });
    // Not due again before its wait (MAIL_RETRY_SECONDS, 30 s, the first time).
    expect(await portal.outbox.runDueJobs()).toBe(0);
    first.clock.advance(31_000);
    second.clock.advance(31_000);
    await portal.outbox.runDueJobs();
    expect((await jobRow(id)).attempts).toBe(2);
    // The second wait is twice the first.
    first.clock.advance(31_000);
    second.clock.advance(31_000);
    expect(await portal.outbox.runDueJobs()).toBe(0);
    first.clock.advance(30_000);
    second.clock.advance(30_000);
    await portal.outbox.runDueJobs();
    expect((await jobRow(id)).doneAt).not.toBeNull();
    expect(runs.map((run) => [run.payload, run.job.id, run.job.attempts])).toEqual([
      [{ receipt: 7 }, id, 0],
      [{ receipt: 7 }, id, 1],
      [{ receipt: 7 }, id, 2],
    ]);
  });

  it('gives a refused job up at once and tells its handler', async () => {
    const { runs, givenUp } = recordingHandler('test.refused', { refuse: true });
    await enqueueJobs(first.portal, [{ kind: 'test.refused', payload: {} }]);
    const id = await lastJobId();
    await first.portal.outbox.idle();
    expect(runs).toHaveLength(1);
    expect((await jobRow(id)).failedAt).not.toBeNull();
    expect(givenUp).toEqual(['never possible']);
  });

  it('gives a job up a day after it was written, and tells its handler once', async () => {
    const { runs, givenUp } = recordingHandler('test.away', { failures: Number.POSITIVE_INFINITY });
    await enqueueJobs(first.portal, [{ kind: 'test.away', payload: {} }]);
    const id = await lastJobId();
    await first.portal.outbox.idle();
    for (let hour = 0; hour < 30 && !(await jobRow(id)).failedAt; hour += 1) {
      await first.portal.outbox.runDueJobs();
      first.clock.advance(3_600_000);
      second.clock.advance(3_600_000);
    }
    const row = await jobRow(id);
    expect(row.failedAt).not.toBeNull();
    // Waits of 30 s, 1, 2, 4 … minutes up to an hour: about 25 attempts fit in the day, not one a second.
    expect(runs.length).toBeGreaterThan(5);
    expect(runs.length).toBeLessThan(40);
    expect(givenUp).toEqual(['the other side is away']);
    await first.portal.outbox.runDueJobs();
    expect(givenUp).toHaveLength(1);
  });

  it('never runs one job twice when two portals work the same database', async () => {
    const { runs } = recordingHandler('test.shared');
    await enqueueJobs(
      first.portal,
      Array.from({ length: 30 }, (_, n) => ({ kind: 'test.shared', payload: { n } })),
    );
    await Promise.all([
      (async () => {
        while ((await first.portal.outbox.runDueJobs()) > 0);
      })(),
      (async () => {
        while ((await second.portal.outbox.runDueJobs()) > 0);
      })(),
      first.portal.outbox.idle(),
    ]);
    const seen = runs.map((run) => (run.payload as { n: number }).n).sort((a, b) => a - b);
    expect(seen).toEqual(Array.from({ length: 30 }, (_, n) => n));
  });

  it('leaves a job of a kind it does not know for a process that does', async () => {
    await enqueueJobs(first.portal, [{ kind: 'test.from-a-newer-version', payload: {} }]);
    const id = await lastJobId();
    await first.portal.outbox.idle();
    expect(await jobRow(id)).toMatchObject({ attempts: 1, doneAt: null, failedAt: null });
  });
});
