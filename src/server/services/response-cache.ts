/**
 * Answers computed from the mirror, kept until the mirror changes. Sync clears them when it wrote
 * anything; entries also age out, so a missed clear can never serve stale data for long.
 */
import { LRUCache } from 'lru-cache';

export const CACHE_MAX_AGE_MS = 10 * 60_000;

/** Bumped by every clear: an answer computed from data a sync has since replaced is not kept. */
let generation = 0;

/** Which state of the mirror the caches hold; anything derived from the mirror follows it. */
export const cacheGeneration = () => generation;

/** Whole answers (a list page, a count, the stats): at most 1,000 of them. */
const answers = new LRUCache<string, { value: unknown }>({ max: 1_000, ttl: CACHE_MAX_AGE_MS });
/** The ids a search matches, ascending: at most 2 million ids (16 MB). */
const idLists = new LRUCache<string, Float64Array>({ maxSize: 2_000_000, sizeCalculation: (ids) => Math.max(1, ids.length), ttl: CACHE_MAX_AGE_MS });

export async function cachedAnswer<T>(key: string, compute: () => Promise<T>): Promise<{ value: T; cached: boolean }> {
  const entry = answers.get(key);
  if (entry) return { value: entry.value as T, cached: true };
  const startedIn = generation;
  const value = await compute();
  if (startedIn === generation) answers.set(key, { value });
  return { value, cached: false };
}

export async function cachedIdList(key: string, compute: () => Promise<Float64Array>): Promise<Float64Array> {
  const entry = idLists.get(key);
  if (entry) return entry;
  const startedIn = generation;
  const ids = await compute();
  if (startedIn === generation) idLists.set(key, ids);
  return ids;
}

export function clearResponseCache(): void {
  generation += 1;
  answers.clear();
  idLists.clear();
}
