/** One run of a piece of work at a time: whoever asks while it runs shares its outcome. */
export class SingleFlight<T> {
  private running: Promise<T> | null = null;

  run(work: () => Promise<T>): Promise<T> {
    this.running ??= work().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** True while a run is under way. */
  get busy(): boolean {
    return this.running !== null;
  }

  /** The run under way, if any, settled either way. */
  settled(): Promise<void> {
    return this.running
      ? this.running.then(
          () => undefined,
          () => undefined,
        )
      : Promise.resolve();
  }
}
