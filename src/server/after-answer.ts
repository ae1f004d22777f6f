/**
 * Work a request leaves to run after its answer, so that the answer's timing says nothing about it
 * (a password reset asked for an account that may or may not exist). The portal waits for it on stop.
 */
export class AfterAnswer {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly onError: (error: unknown) => void) {}

  run(work: () => Promise<void>): void {
    const task: Promise<void> = Promise.resolve()
      .then(work)
      .catch(this.onError)
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  /** Settles when everything started so far has ended. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }
}
