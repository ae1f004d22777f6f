/**
 * Answers computed from the mirror, kept until the mirror changes. Sync clears it when it wrote
 * anything; entries also age out, so a missed clear can never serve stale data for long.
 */
const MAX_ENTRIES = 1_000;
const MAX_AGE_MS = 10 * 60_000;

interface Entry {
  value: unknown;
  storedAt: number;
}

const entries = new Map<string, Entry>();
/** Bumped by every clear: an answer computed from data a sync has since replaced is not kept. */
let generation = 0;

/** The cached value for `key` (and true), or a freshly computed one (and false). */
export async function cachedAnswer<T>(key: string, compute: () => Promise<T>): Promise<{ value: T; cached: boolean }> {
  const entry = entries.get(key);
  if (entry && Date.now() - entry.storedAt < MAX_AGE_MS) {
    // Re-insert: Map keeps insertion order, so the oldest-used entry is always first.
    entries.delete(key);
    entries.set(key, entry);
    return { value: entry.value as T, cached: true };
  }
  const startedIn = generation;
  const value = await compute();
  if (startedIn !== generation) return { value, cached: false };
  entries.set(key, { value, storedAt: Date.now() });
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  return { value, cached: false };
}

export function clearResponseCache(): void {
  generation += 1;
  entries.clear();
}
