/**
 * SQLite's writers, taking turns in this process before they reach SQLite.
 *
 * SQLite has one writer at a time, and a connection that waits for the write lock waits inside the
 * driver: it holds one of libuv's few pool threads and its connection's mutex for as long as its busy
 * timeout. A dozen transactions at once then starve the one holding the lock of threads, and a write
 * waiting on the shared connection blocks the reads queued behind it there, which that holder may need:
 * every writer stalls for seconds at a time. Waiting here instead costs no thread and no connection.
 *
 * A turn is held by a transaction from its BEGIN to its end (after-commit hooks included), or by one
 * statement written outside a transaction. What runs inside a turn does not wait for another.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export class WriteTurns {
  private last: Promise<void> = Promise.resolve();
  /** The turn the running code is inside of; `held` turns false when it ends, for the work it started. */
  private readonly inside = new AsyncLocalStorage<{ held: boolean }>();

  async take<T>(work: () => Promise<T>): Promise<T> {
    if (this.inside.getStore()?.held) return work();
    const before = this.last;
    let end!: () => void;
    this.last = new Promise((resolve) => (end = resolve));
    await before;
    const turn = { held: true };
    try {
      return await this.inside.run(turn, work);
    } finally {
      turn.held = false;
      end();
    }
  }
}

/** Whether a statement only reads: it starts (after any comments) with SELECT or PRAGMA. WITH may write. */
export function isReadStatement(sql: string): boolean {
  return /^(?:\s|\/\*[\s\S]*?\*\/|--[^\n]*\n)*(?:SELECT|PRAGMA)\b/i.test(sql);
}
