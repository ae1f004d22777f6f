import { describe, expect, it } from 'vitest';
import { cpus } from 'node:os';
import { measureOthersShare, planFor, stallLimit, testPace } from '../support/test-pace';

describe("the test suite's pace", () => {
  it('when a 2-core machine is quiet, then the in-process tier has two workers a core, the browser and the spawned servers one and a half, and the limits are as set', () => {
    const pace = planFor(2, 1);
    expect(pace).toMatchObject({
      workers: { inProcess: 4, spawned: 3, browser: 3 },
    });
    expect(stallLimit(60_000, pace, 2)).toBe(60_000);
  });

  it('when a 2-core machine is quiet but half as fast, then the plan stays that of a quiet machine, and every limit doubles', () => {
    const pace = planFor(2, 2, 0.05);
    expect(pace).toMatchObject({
      workers: { inProcess: 4, spawned: 3, browser: 3 },
    });
    expect(stallLimit(60_000, pace, 2)).toBe(120_000);
  });

  it('when other programs take the cores of a 2-core machine, then each tier has half the workers, and every limit grows with the slowness', () => {
    const pace = planFor(2, 2, 1);
    expect(pace).toMatchObject({
      workers: { inProcess: 2, spawned: 1, browser: 2 },
    });
    expect(stallLimit(60_000, pace, 2)).toBe(120_000);
  });

  it('when the machine has one core, then the spawned servers have one worker, the browser two, and one when busy', () => {
    expect(planFor(1, 1)).toMatchObject({
      workers: { inProcess: 2, spawned: 1, browser: 2 },
    });
    expect(planFor(1, 1, 1).workers).toEqual({ inProcess: 1, spawned: 1, browser: 1 });
  });

  it('when other programs load the machine after the run measured it, then a limit taken meanwhile grows with the load', () => {
    const quiet = planFor(2, 1);
    expect(stallLimit(60_000, quiet, 6)).toBe(60_000);
    expect(stallLimit(60_000, quiet, 24)).toBe(240_000);
    expect(stallLimit(60_000, quiet, 200)).toBe(480_000);
  });

  it('when busy loops run beside the measure, then it sees the share of the cores they take', async () => {
    const { spawn } = await import('node:child_process');
    const quiet = measureOthersShare(300);
    const loops = Array.from({ length: cpus().length }, () =>
      spawn(process.execPath, ['-e', 'for (;;);']),
    );
    try {
      // The loops take the cores once their processes are up: measured until they are seen, or stalled.
      const deadline = Date.now() + stallLimit(10_000);
      let busy = measureOthersShare(300);
      while (busy <= Math.min(0.8, quiet + 0.4) && Date.now() < deadline)
        busy = measureOthersShare(300);
      expect(busy).toBeGreaterThan(Math.min(0.8, quiet + 0.4));
    } finally {
      for (const loop of loops) loop.kill();
    }
  });

  it('when a machine has many cores, then the workers grow with them, up to each tier’s most', () => {
    expect(planFor(16, 1).workers).toEqual({ inProcess: 8, spawned: 4, browser: 4 });
  });

  it('when npm test has measured the pace, then every tier reads that plan instead of measuring again', () => {
    const measured = planFor(2, 3.4, 0.8);
    expect(testPace({ TEST_PACE: JSON.stringify(measured) })).toEqual(measured);
  });
});
