/** SQLite's writers take turns in the process (src/server/db/write-turns.ts): one at a time, in order, never waiting on themselves. */
import { describe, expect, it } from 'vitest';
import { isReadStatement, WriteTurns } from '~/server/db/write-turns';

/** A promise and the function that settles it: a step the test decides when to end. */
function step() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

describe('WriteTurns', () => {
  it('runs one turn at a time, in the order they were asked for, and a failed turn lets the next run', async () => {
    const turns = new WriteTurns();
    const order: string[] = [];
    const first = step();
    const a = turns.take(async () => {
      order.push('a starts');
      await first.done;
      order.push('a ends');
    });
    const b = turns.take(async () => {
      order.push('b runs');
      throw new Error('b failed');
    });
    const c = turns.take(async () => {
      order.push('c runs');
      return 'c';
    });
    await Promise.resolve();
    expect(order).toEqual(['a starts']);
    first.finish();
    await a;
    await expect(b).rejects.toThrow('b failed');
    expect(await c).toBe('c');
    expect(order).toEqual(['a starts', 'a ends', 'b runs', 'c runs']);
  });

  it('does not make the work inside a turn wait for another turn (it would wait for itself)', async () => {
    const turns = new WriteTurns();
    const inner = await turns.take(() => turns.take(async () => 'inner ran'));
    expect(inner).toBe('inner ran');
  });

  it('makes work started inside a turn that outlives it take a turn of its own', async () => {
    const turns = new WriteTurns();
    const order: string[] = [];
    const later = step();
    let leftBehind: Promise<void> | undefined;
    await turns.take(async () => {
      leftBehind = (async () => {
        await later.done;
        await turns.take(async () => {
          order.push('left-behind write');
        });
      })();
    });
    const blocker = step();
    const holding = turns.take(async () => {
      order.push('next turn starts');
      await blocker.done;
      order.push('next turn ends');
    });
    later.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['next turn starts']);
    blocker.finish();
    await holding;
    await leftBehind;
    expect(order).toEqual(['next turn starts', 'next turn ends', 'left-behind write']);
  });
});

describe('isReadStatement', () => {
  it.each([
    ['SELECT 1', true],
    ['  select * from users', true],
    ['/* count */ SELECT COUNT(*) FROM receipts', true],
    ['-- why\nSELECT 1', true],
    ['PRAGMA foreign_keys = ON', true],
    ['INSERT INTO users VALUES (1)', false],
    ['/* count one request */ INSERT INTO login_attempts', false],
    ['UPDATE users SET name = 1', false],
    ['DELETE FROM sessions', false],
    ['WITH due AS (SELECT id FROM outbox) UPDATE outbox SET x = 1', false],
    ['SELECTED', false],
  ])('%s: %s', (sql, read) => {
    expect(isReadStatement(sql)).toBe(read);
  });
});
