/**
 * Runs work at most `concurrency` at a time, and takes turns between the keys that have work waiting:
 * whatever one key has queued, the next task of another key is at most one turn away.
 */
export class FairQueue {
  private running = 0;
  /** Keys in the order of their next turn (a Map keeps insertion order), each with its tasks in arrival order. */
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(private readonly concurrency: number) {}

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const turn = new Promise<void>((start) => {
      const queue = this.waiting.get(key);
      if (queue) queue.push(start);
      else this.waiting.set(key, [start]);
    });
    this.startNext();
    return turn.then(task).finally(() => {
      this.running -= 1;
      this.startNext();
    });
  }

  private startNext(): void {
    while (this.running < this.concurrency) {
      const next = this.waiting.entries().next();
      if (next.done) return;
      const [key, queue] = next.value;
      const start = queue.shift()!;
      // The key goes to the back of the line, behind every other key waiting.
      this.waiting.delete(key);
      if (queue.length > 0) this.waiting.set(key, queue);
      this.running += 1;
      start();
    }
  }
}
