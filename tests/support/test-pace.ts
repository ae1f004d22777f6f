/**
 * The test suite's pace on this machine, now: how much slower than a quiet reference machine a thread
 * runs here (the slowness), and what that makes of the tiers' parallelism and time limits.
 *
 * `npm test` measures once, before its build (scripts/test-all.mjs), and hands the plan to every tier
 * in TEST_PACE, so that all of them size themselves alike; a tier run on its own (`npm run test:fast`,
 * `npx playwright test`) measures when its configuration loads.
 *
 * A time limit in a test means "stalled", never "slow": it is several times the slowest green run of
 * what it waits for, seen with one busy loop per core beside the suite, and it grows with the
 * slowness. Speed itself is `npm run bench`'s to measure.
 */
import { createHash } from 'node:crypto';
import { availableParallelism, cpus, loadavg } from 'node:os';

/**
 * The calibration's median, in ms, on the reference: a quiet 2-core machine of the kind this project is
 * built on (5.2–5.9 ms in eight runs there with nothing else running). A machine twice as slow, or one
 * whose cores are taken by other programs, measures about twice as long.
 */
const REFERENCE_MS = 5.5;
/** Other programs using this share of the machine's cores when the run starts make it a busy machine. */
const BUSY_SHARE = 0.5;
/** Past this the machine is so slow that a run would rather fail than wait: limits stop growing. */
const MOST_SLOWNESS = 8;

export interface TestPace {
  /** Cores this process may use (os.availableParallelism()). */
  cores: number;
  /** 1 on the quiet reference, 2 where a thread gets half of what it got there; never below 1. */
  slowness: number;
  /** The share of the cores' time other programs took while the run started (0 to 1). */
  othersShare: number;
  /** Workers per tier. */
  workers: { inProcess: number; spawned: number; browser: number };
}

/** One sample of the calibration: the kind of work the tests make a portal do (JSON, hashing, strings). */
function calibrationSample(): number {
  const started = performance.now();
  let text = '';
  for (let row = 0; row < 2_000; row++) {
    text += JSON.stringify({
      id: row,
      number: `WR-${row}`,
      shipper: 'Miami Freight Co',
      weight: row * 1.5,
      items: [row, row + 1],
    });
  }
  for (let round = 0; round < 20; round++)
    createHash('sha256').update(text).update(String(round)).digest('hex');
  JSON.parse(`[${text.replaceAll('}{', '},{')}]`);
  return performance.now() - started;
}

/** The slowness now: the median of nine samples against the reference's. */
export function measureSlowness(): number {
  calibrationSample(); // the first sample compiles the code
  const samples = Array.from({ length: 9 }, calibrationSample).sort((a, b) => a - b);
  const slowness = samples[4]! / REFERENCE_MS;
  return Math.round(Math.min(MOST_SLOWNESS, Math.max(1, slowness)) * 10) / 10;
}

/**
 * The share of the cores' time that went to other programs over `ms`, while this process sleeps: what
 * tells a busy machine from a slow one, which the calibration alone measures alike.
 */
export function measureOthersShare(ms = 400): number {
  const busyAndTotal = (): [number, number] =>
    cpus().reduce<[number, number]>(
      ([busy, total], { times }) => {
        const all = times.user + times.nice + times.sys + times.idle + times.irq;
        return [busy + all - times.idle, total + all];
      },
      [0, 0],
    );
  const [busyBefore, totalBefore] = busyAndTotal();
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  const [busyAfter, totalAfter] = busyAndTotal();
  const share =
    totalAfter > totalBefore ? (busyAfter - busyBefore) / (totalAfter - totalBefore) : 0;
  return Math.round(Math.min(1, Math.max(0, share)) * 100) / 100;
}

/**
 * The plan for this machine's cores, slowness and the share other programs take of it. `npm test` runs
 * the tiers one after another: side by side on a quiet 2-core machine they fought for the cores and
 * took longer in all (scripts/test-all.mjs). Once other programs take half the cores, each tier gets
 * half the workers, so that its own do not fight each other for what is left. In-process tests mostly
 * wait on their portals' I/O, so they take two workers a core. Spawned servers take one and a half a
 * core on a quiet machine (rounded down): the process tier took 91.6 s with three workers on two quiet
 * cores, against 94.5 s with two (medians of three); one a core on a busy one. A browser
 * test waits on its portals and on Chromium's headless shell between steps: three browser workers on two
 * quiet cores ran the tier in 325 s, against 391 s with two and 312 s with four; beside a busy loop on
 * each core, two took 491 s (one took 967 s with the full browser).
 */
export function planFor(cores: number, slowness: number, othersShare = 0): TestPace {
  const busy = othersShare >= BUSY_SHARE;
  const perCore = (each: number, most: number, round = Math.round) =>
    Math.max(1, Math.min(most, round((cores * each) / (busy ? 2 : 1))));
  return {
    cores,
    slowness,
    othersShare,
    workers: {
      inProcess: perCore(2, 8),
      spawned: busy ? perCore(1, 4) : perCore(1.5, 4, Math.floor),
      browser: perCore(1.5, 4),
    },
  };
}

/** This run's plan: the one `npm test` measured (TEST_PACE), or measured now. */
export function testPace(env: NodeJS.ProcessEnv = process.env): TestPace {
  if (env.TEST_PACE) return JSON.parse(env.TEST_PACE) as TestPace;
  return planFor(availableParallelism(), measureSlowness(), measureOthersShare());
}

/**
 * The suite's own load per core on the reference: the limits were set under it, while its tiers still
 * ran side by side. A load beyond it is other programs' (or a slower machine's), which may start after
 * the run's measure: a limit taken while they run grows with them.
 */
const OWN_LOAD_PER_CORE = 3;

/**
 * A time limit that means "stalled": `ms` (set against the reference under one busy loop per core)
 * times this run's slowness, or times what the machine's load says now, whichever is more.
 */
export function stallLimit(
  ms: number,
  pace: TestPace = testPace(),
  load: number = loadavg()[0]!,
): number {
  const loadNow = load / pace.cores / OWN_LOAD_PER_CORE;
  return Math.round(ms * Math.min(MOST_SLOWNESS, Math.max(pace.slowness, loadNow)));
}
