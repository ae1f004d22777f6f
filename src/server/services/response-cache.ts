/**
 * Answers computed from the mirror, kept until the mirror changes. Sync clears them when it wrote
 * anything; entries also age out, so a missed clear can never serve stale data for long.
 */
const MAX_AGE_MS = 10 * 60_000;

interface Entry {
  value: unknown;
  weight: number;
  storedAt: number;
}

/** Bumped by every clear: an answer computed from data a sync has since replaced is not kept. */
let generation = 0;

/** Least-recently-used entries go first once the entries together weigh more than `maxWeight`. */
class AnswerCache<T> {
  private readonly entries = new Map<string, Entry>();
  private weight = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: T) => number,
  ) {}

  /** The cached value for `key` (and true), or a freshly computed one (and false). */
  async get<V extends T>(key: string, compute: () => Promise<V>): Promise<{ value: V; cached: boolean }> {
    const entry = this.entries.get(key);
    if (entry && Date.now() - entry.storedAt < MAX_AGE_MS) {
      // Re-insert: a Map keeps insertion order, so the least recently used entry is always first.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return { value: entry.value as V, cached: true };
    }
    const startedIn = generation;
    const value = await compute();
    if (startedIn !== generation) return { value, cached: false };
    this.remove(key);
    const weight = this.weigh(value);
    this.entries.set(key, { value, weight, storedAt: Date.now() });
    this.weight += weight;
    while (this.weight > this.maxWeight && this.entries.size > 1) this.remove(this.entries.keys().next().value!);
    return { value, cached: false };
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.weight -= entry.weight;
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }
}

/** Whole answers (a list page, a count, the stats): at most 1,000 of them. */
const answers = new AnswerCache<unknown>(1_000, () => 1);
/** The ids a filter matches, in one sort order, so that a page is a slice: at most 2 million ids (8 MB). */
const sortedIds = new AnswerCache<Int32Array>(2_000_000, (ids) => Math.max(1, ids.length));

export const cachedAnswer = <T>(key: string, compute: () => Promise<T>) => answers.get(key, compute);
export const cachedIdList = (key: string, compute: () => Promise<Int32Array>) => sortedIds.get(key, compute);

export function clearResponseCache(): void {
  generation += 1;
  answers.clear();
  sortedIds.clear();
}
