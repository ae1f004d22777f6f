/**
 * Answers computed from the mirror, kept until the mirror changes: every process clears them when it
 * follows a new mirror version (mirror-version.ts). Entries also age out, so a missed clear can never
 * serve stale data for long.
 */
import { LRUCache } from 'lru-cache';

const CACHE_MAX_AGE_MS = 10 * 60_000;

export class ResponseCache {
  /** Bumped by every clear: an answer computed from data a sync has since replaced is not kept. */
  private generation = 0;
  /** Whole answers (a list page, a count, the stats): at most 1,000 of them. */
  private readonly answers = new LRUCache<string, { value: unknown }>({ max: 1_000, ttl: CACHE_MAX_AGE_MS });
  /** The ids a search matches, ascending: at most 2 million ids (16 MB). */
  private readonly idLists = new LRUCache<string, Float64Array>({
    maxSize: 2_000_000,
    sizeCalculation: (ids) => Math.max(1, ids.length),
    ttl: CACHE_MAX_AGE_MS,
  });
  /** Each query's part of a cache key: a query string asked for again comes as the same (frozen) object (src/server/http/body.ts). */
  private readonly queryKeys = new WeakMap<object, string>();

  async answer<T>(key: string, compute: () => Promise<T>): Promise<{ value: T; cached: boolean }> {
    const { value: entry, cached } = await this.computeOnce(this.answers, key, async () => ({ value: await compute() }));
    return { value: entry.value as T, cached };
  }

  async idList(key: string, compute: () => Promise<Float64Array>): Promise<Float64Array> {
    return (await this.computeOnce(this.idLists, key, compute)).value;
  }

  /** A parsed query as a key, serialized once per query object. */
  keyOf(query: object): string {
    let key = this.queryKeys.get(query);
    if (key === undefined) {
      key = JSON.stringify(query);
      this.queryKeys.set(query, key);
    }
    return key;
  }

  clear(): void {
    this.generation += 1;
    this.answers.clear();
    this.idLists.clear();
  }

  /** The cached value for `key`, or one computed now and kept unless a clear came meanwhile. */
  private async computeOnce<V extends NonNullable<unknown>>(
    cache: LRUCache<string, V>,
    key: string,
    compute: () => Promise<V>,
  ): Promise<{ value: V; cached: boolean }> {
    const entry = cache.get(key);
    if (entry !== undefined) return { value: entry, cached: true };
    const startedIn = this.generation;
    const value = await compute();
    if (startedIn === this.generation) cache.set(key, value);
    return { value, cached: false };
  }
}
