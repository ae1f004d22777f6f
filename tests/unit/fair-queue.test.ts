import { describe, expect, it } from 'vitest';
import { FairQueue } from '~/server/fair-queue';

/** A task that runs until the test lets it finish, recording when it started. */
function gate(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    task: async () => {
      started.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FairQueue', () => {
  it('when more tasks come than it runs at once, then no more than `concurrency` run at a time', async () => {
    const queue = new FairQueue(2);
    const started: string[] = [];
    const gates = ['a1', 'a2', 'a3', 'a4'].map((name) => gate(started, name));
    const results = gates.map(({ task }) => queue.run('a', task));
    await settle();
    expect(started).toEqual(['a1', 'a2']);
    gates[0]!.finish();
    await settle();
    expect(started).toEqual(['a1', 'a2', 'a3']);
    for (const { finish } of gates) finish();
    expect(await Promise.all(results)).toEqual(['a1', 'a2', 'a3', 'a4']);
  });

  it("when one key has queued many tasks, then another key's task is at most one turn away", async () => {
    const queue = new FairQueue(1);
    const started: string[] = [];
    const flood = ['a1', 'a2', 'a3', 'a4', 'a5'].map((name) => gate(started, name));
    const floodResults = flood.map(({ task }) => queue.run('flooding address', task));
    const other = gate(started, 'b1');
    const otherResult = queue.run('another address', other.task);
    await settle();
    expect(started).toEqual(['a1']);
    flood[0]!.finish();
    await settle();
    // The flooding address had its next task in line first; it gets that one turn, and then the other address goes,
    // ahead of the three tasks the flooding one still has waiting.
    expect(started).toEqual(['a1', 'a2']);
    flood[1]!.finish();
    await settle();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    other.finish();
    for (const { finish } of flood) finish();
    await Promise.all([...floodResults, otherResult]);
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3', 'a4', 'a5']);
  });

  it('when three keys wait, then each takes one turn in the order they first came, round after round', async () => {
    const queue = new FairQueue(1);
    const started: string[] = [];
    const first = gate(started, 'first');
    const runs = [queue.run('x', first.task)];
    for (const name of ['x1', 'y1', 'x2', 'z1', 'y2', 'x3']) {
      runs.push(
        queue.run(name[0]!, async () => {
          started.push(name);
          return name;
        }),
      );
    }
    await settle();
    expect(started).toEqual(['first']);
    first.finish();
    await Promise.all(runs);
    expect(started).toEqual(['first', 'x1', 'y1', 'z1', 'x2', 'y2', 'x3']);
  });

  it('when a task fails, then its caller gets the failure and the queue goes on', async () => {
    const queue = new FairQueue(1);
    const failed = queue.run('a', async () => {
      throw new Error('bcrypt failed');
    });
    const next = queue.run('a', async () => 'next');
    await expect(failed).rejects.toThrow('bcrypt failed');
    expect(await next).toBe('next');
  });
});
