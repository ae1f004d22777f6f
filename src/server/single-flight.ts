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

/** SingleFlight per key: one run of the work for a key at a time, shared by whoever asks for that key meanwhile. */
export class KeyedSingleFlight<K, T> {
  private readonly running = new Map<K, Promise<T>>();

  run(key: K, work: () => Promise<T>): Promise<T> {
    let run = this.running.get(key);
    if (!run) {
      run = work().finally(() => this.running.delete(key));
      this.running.set(key, run);
    }
    return run;
  }
}
