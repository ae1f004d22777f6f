/**
 * Answers computed from the mirror, kept until the mirror changes: every process clears them when it
 * follows a new mirror version (services/mirror-version.ts). Entries also age out, so a missed clear
 * can never serve stale data for long.
 */
import { LRUCache } from 'lru-cache';

const CACHE_MAX_AGE_MS = 10 * 60_000;

/** Bumped by every clear: an answer computed from data a sync has since replaced is not kept. */
let generation = 0;

/** Whole answers (a list page, a count, the stats): at most 1,000 of them. */
const answers = new LRUCache<string, { value: unknown }>({ max: 1_000, ttl: CACHE_MAX_AGE_MS });
/** The ids a search matches, ascending: at most 2 million ids (16 MB). */
const idLists = new LRUCache<string, Float64Array>({ maxSize: 2_000_000, sizeCalculation: (ids) => Math.max(1, ids.length), ttl: CACHE_MAX_AGE_MS });

/** The cached value for `key`, or one computed now and kept unless a clear came meanwhile. */
async function computeOnce<V extends {}>(cache: LRUCache<string, V>, key: string, compute: () => Promise<V>): Promise<{ value: V; cached: boolean }> {
  const entry = cache.get(key);
  if (entry !== undefined) return { value: entry, cached: true };
  const startedIn = generation;
  const value = await compute();
  if (startedIn === generation) cache.set(key, value);
  return { value, cached: false };
}

export async function cachedAnswer<T>(key: string, compute: () => Promise<T>): Promise<{ value: T; cached: boolean }> {
  const { value: entry, cached } = await computeOnce(answers, key, async () => ({ value: await compute() }));
  return { value: entry.value as T, cached };
}

export async function cachedIdList(key: string, compute: () => Promise<Float64Array>): Promise<Float64Array> {
  return (await computeOnce(idLists, key, compute)).value;
}

export function clearResponseCache(): void {
  generation += 1;
  answers.clear();
  idLists.clear();
}
