/**
 * The outbox's job lane (src/server/services/outbox.ts), on both databases: a job written inside a
 * transaction exists only if it commits; a failing job is retried after a growing wait with the same
 * payload; a refused one is given up at once; every job is given up a day after it was written (the
 * handler is told once); two portals on one database never run one job twice; a job whose claim ran
 * out while it waited in its batch is left to the portal that claimed it next, which alone records its
 * outcome; a job tried for longer than a claim lasts keeps its claim, up to ten minutes; a kind a portal
 * has no handler for is left to one that has; jobs of one ordering key run one at a time, oldest first,
 * across portals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJobs, JobRefused, type JobAttempt } from '~/server/services/outbox/outbox';
import { eventually, queryDatabase } from '../../support/api-steps';
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
  const [row] = await queryDatabase<{
    attempts: number;
    doneAt: string | null;
    failedAt: string | null;
    lastError: string | null;
    claimedUntil: string | null;
  }>(
    first,
    `SELECT "attempts", "doneAt", "failedAt", "lastError", "claimedUntil" FROM "outbox_jobs" WHERE "id" = ${id}`,
  );
  return { ...row!, attempts: Number(row!.attempts) };
}

/** A promise the test resolves when it likes: a handler that waits on it is a slow call to another system. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Moves both portals' clocks, as time passes for both processes. */
function advanceBoth(ms: number): void {
  first.clock.advance(ms);
  second.clock.advance(ms);
}

async function lastJobId(): Promise<number> {
  const [row] = await queryDatabase<{ id: number }>(
    first,
    'SELECT MAX("id") AS "id" FROM "outbox_jobs"',
  );
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
    await portal.db.sequelize.transaction((transaction) =>
      enqueueJobs(portal, [{ kind: 'test.commit', payload: { n: 2 } }], transaction),
    );
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
    expect(await jobRow(id)).toMatchObject({
      attempts: 1,
      doneAt: null,
      failedAt: null,
      lastError: 'the other side is away',
    });
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

  it('leaves a job of a kind it has no handler for untried, unclaimed and uncounted, for a process that has one (a rolling upgrade)', async () => {
    await enqueueJobs(first.portal, [{ kind: 'test.from-a-newer-version', payload: { n: 1 } }]);
    const id = await lastJobId();
    await first.portal.outbox.idle();
    await first.portal.outbox.runDueJobs();
    expect(await jobRow(id)).toMatchObject({
      attempts: 0,
      doneAt: null,
      failedAt: null,
      lastError: null,
      claimedUntil: null,
    });
    // A day and more later it still waits: nothing was counted against it.
    advanceBoth(25 * 3_600_000);
    await first.portal.outbox.runDueJobs();
    expect(await jobRow(id)).toMatchObject({ attempts: 0, failedAt: null });
    const runs: unknown[] = [];
    second.portal.outbox.handle('test.from-a-newer-version', {
      run: async (payload) => void runs.push(payload),
    });
    await second.portal.outbox.runDueJobs();
    expect(runs).toEqual([{ n: 1 }]);
    expect((await jobRow(id)).doneAt).not.toBeNull();
  });

  it('leaves a job whose claim ran out while it waited in its batch to the portal that claimed it next, and never overwrites that portal’s outcome', async () => {
    const slow = gate();
    const firstRuns: number[] = [];
    const secondRuns: number[] = [];
    first.portal.outbox.handle('test.claim-lost', {
      async run(payload) {
        firstRuns.push((payload as { n: number }).n);
        await slow.opened;
      },
    });
    second.portal.outbox.handle('test.claim-lost', {
      async run(payload) {
        secondRuns.push((payload as { n: number }).n);
        throw new Error('the second portal could not do it');
      },
    });
    // One batch on the first portal: four jobs run at once and hang; the fifth waits for them.
    await enqueueJobs(
      first.portal,
      Array.from({ length: 5 }, (_, n) => ({ kind: 'test.claim-lost', payload: { n } })),
    );
    const last = await lastJobId();
    await eventually(
      () => firstRuns.length,
      (started) => started === 4,
    );
    // Past the claims, before the first portal's renewals are due (every 30 s): the second portal takes
    // all five and records its own outcome.
    advanceBoth(2 * 60_000 + 1_000);
    expect(await second.portal.outbox.runDueJobs()).toBe(5);
    slow.open();
    await first.portal.outbox.idle();
    // Four at a time: in whatever order their claims were renewed.
    expect(firstRuns.sort()).toEqual([0, 1, 2, 3]);
    expect(secondRuns.sort()).toEqual([0, 1, 2, 3, 4]);
    for (let id = last - 4; id <= last; id += 1) {
      expect(await jobRow(id)).toMatchObject({
        attempts: 1,
        doneAt: null,
        failedAt: null,
        lastError: 'the second portal could not do it',
        claimedUntil: null,
      });
    }
  });

  /**
   * A third portal on the database, at the others' time, that renews the claims it holds every 20 ms
   * instead of every 30 s, trying one job of `kind` until `release`; the second portal can do the kind too.
   */
  async function longAttempt(
    kind: string,
    check: (attempt: {
      id: number;
      keeperRuns: number[];
      secondRuns: number[];
      /** Moves every portal's clock, the third's too. */
      advance: (ms: number) => void;
      keeperOutput: () => string;
      release: () => Promise<number>;
    }) => Promise<void>,
  ) {
    const keeper = await startInProcessPortal(
      {},
      { background: false, dir: first.dir, outboxClaimRenewalMs: 20 },
    );
    keeper.clock.advance(first.clock.now() - keeper.clock.now());
    const slow = gate();
    let tried: Promise<number> | undefined;
    try {
      const keeperRuns: number[] = [];
      const secondRuns: number[] = [];
      keeper.portal.outbox.handle(kind, {
        async run(payload) {
          keeperRuns.push((payload as { n: number }).n);
          await slow.opened;
        },
      });
      second.portal.outbox.handle(kind, {
        run: async (payload) => void secondRuns.push((payload as { n: number }).n),
      });
      await enqueueJobs(first.portal, [{ kind, payload: { n: 1 } }]);
      const id = await lastJobId();
      tried = keeper.portal.outbox.runDueJobs();
      await eventually(
        () => keeperRuns.length,
        (started) => started === 1,
      );
      const advance = (ms: number) => {
        advanceBoth(ms);
        keeper.clock.advance(ms);
      };
      await check({
        id,
        keeperRuns,
        secondRuns,
        advance,
        keeperOutput: () => keeper.output(),
        release: () => (slow.open(), tried!),
      });
    } finally {
      // A failed check leaves no attempt hanging, nor its renewals running, for the worker's next files.
      slow.open();
      await tried?.catch(() => {});
      await keeper.stop({ keepDir: true });
    }
  }

  const claimOf = async (id: number) => Date.parse((await jobRow(id)).claimedUntil ?? '') || 0;

  it('keeps the claim of a job tried for longer than a claim lasts: no other portal takes it meanwhile, and its outcome is recorded once', async () => {
    await longAttempt(
      'test.long-attempt',
      async ({ id, keeperRuns, secondRuns, advance, release }) => {
        // Three claims' time passes for every process while the attempt goes on; the keeper renews meanwhile.
        advance(3 * (2 * 60_000));
        await eventually(
          () => claimOf(id),
          (until) => until > second.clock.now(),
        );
        await second.portal.outbox.runDueJobs();
        expect(secondRuns).toEqual([]);
        expect(await release()).toBe(1);
        expect(keeperRuns).toEqual([1]);
        expect(secondRuns).toEqual([]);
        const row = await jobRow(id);
        expect(row).toMatchObject({
          attempts: 0,
          failedAt: null,
          lastError: null,
          claimedUntil: null,
        });
        expect(row.doneAt).not.toBeNull();
      },
    );
  });

  it('lets the claim of an attempt that hangs past 10 minutes run out: another portal does the job, and the hung attempt records nothing', async () => {
    await longAttempt(
      'test.hung-attempt',
      async ({ id, keeperRuns, secondRuns, advance, keeperOutput, release }) => {
        // Past ten minutes the keeper stops renewing; the claim it last wrote has run out by then.
        advance(11 * 60_000);
        await eventually(
          () => keeperOutput(),
          (output) => output.includes('its claim is left to run out'),
        );
        await second.portal.outbox.runDueJobs();
        expect(secondRuns).toEqual([1]);
        expect(await release()).toBe(1);
        expect(keeperRuns).toEqual([1]);
        const row = await jobRow(id);
        expect(row).toMatchObject({
          attempts: 0,
          failedAt: null,
          lastError: null,
          claimedUntil: null,
        });
        expect(row.doneAt).not.toBeNull();
      },
    );
  });

  it('runs the jobs of one ordering key one at a time, oldest first, whichever portal claims them; other jobs go on meanwhile', async () => {
    const slow = gate();
    const events: string[] = [];
    for (const portal of [first, second]) {
      portal.portal.outbox.handle('test.ordered', {
        async run(payload) {
          const { step } = payload as { step: string };
          events.push(`${step} started`);
          if (step === 'save') await slow.opened;
          events.push(`${step} done`);
        },
      });
    }
    await enqueueJobs(first.portal, [
      { kind: 'test.ordered', payload: { step: 'save' }, orderingKey: 'thing:1' },
    ]);
    await eventually(
      () => events,
      (seen) => seen.includes('save started'),
    );
    // Written after the save began: the withdrawal waits for it; another thing's job does not.
    await enqueueJobs(second.portal, [
      { kind: 'test.ordered', payload: { step: 'withdraw' }, orderingKey: 'thing:1' },
      { kind: 'test.ordered', payload: { step: 'other' }, orderingKey: 'thing:2' },
    ]);
    await second.portal.outbox.idle();
    await second.portal.outbox.runDueJobs();
    expect(events).toEqual(['save started', 'other started', 'other done']);
    slow.open();
    await first.portal.outbox.idle();
    await second.portal.outbox.runDueJobs();
    expect(events).toEqual([
      'save started',
      'other started',
      'other done',
      'save done',
      'withdraw started',
      'withdraw done',
    ]);
  });
});
