/**
 * The client's data cache and retry rules: answers stay fresh for a while (no
 * refetch then), are kept a while longer once nothing shows them, and are never refetched on focus,
 * reconnect or mount; loads are retried up to 3 times, except on a 4xx answer.
 *
 * Not @nanostores/query (0.3): it counts the keep time from the fetch rather than from the last time an
 * answer was shown, shows the error after the first failed attempt, and would still need the retry rule
 * and the kept previous answer from here, for about 2.2 KB more (compressed) on /receipts.
 */
import { atom, type ReadableAtom } from 'nanostores';
import { ApiError } from '~/shared/api-client';

const MINUTE = 60_000;

export interface CachePolicy {
  /** How long an answer is used without asking again. */
  freshMs: number;
  /** How long an answer no one shows is kept (stale answers are shown while they reload). */
  keepMs: number;
}

export const LIST_CACHE: CachePolicy = { freshMs: 2 * MINUTE, keepMs: 5 * MINUTE };
export const DATA_CACHE: CachePolicy = { freshMs: 5 * MINUTE, keepMs: 10 * MINUTE };

export const MAX_RETRIES = 3;

/**
 * After `failures` failed attempts: try again unless the answer was a 4xx, the service worker said the
 * server cannot be reached (it just tried), or the retries are spent.
 */
export function shouldRetry(failures: number, error: unknown): boolean {
  const final =
    error instanceof ApiError && ((error.status >= 400 && error.status < 500) || error.isOffline);
  return !final && failures <= MAX_RETRIES;
}

/** 1 s, 2 s, 4 s … at most 30 s. */
export function retryDelay(failures: number): number {
  return Math.min(1000 * 2 ** (failures - 1), 30_000);
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function withRetries<T>(
  load: () => Promise<T>,
  sleep: (ms: number) => Promise<void> = wait,
): Promise<T> {
  for (let failures = 1; ; failures += 1) {
    try {
      return await load();
    } catch (error) {
      if (!shouldRetry(failures, error)) throw error;
      await sleep(retryDelay(failures));
    }
  }
}

export interface CacheEntry<T> {
  data: T;
  fetchedAt: number;
  /** When the entry was last shown or asked for; it is dropped `keepMs` after that. */
  usedAt: number;
}

export const isFresh = (entry: CacheEntry<unknown>, now: number, policy: CachePolicy) =>
  now - entry.fetchedAt < policy.freshMs;
export const isKept = (entry: CacheEntry<unknown>, now: number, policy: CachePolicy) =>
  now - entry.usedAt < policy.keepMs;

/** What a screen shows for its current key. */
export interface QueryState<T, Key extends string = string> {
  key: Key;
  /** The key's answer, or while it loads the answer shown before (the screen does not go blank). */
  data: T | undefined;
  error: unknown;
  fetching: boolean;
}

/** `Key`: what names an answer (a query string, an id), narrower than `string` where the loader needs it. */
export interface Query<T, Key extends string = string> {
  $state: ReadableAtom<QueryState<T, Key>>;
  /** Shows `key`: its cached answer at once; loads it when missing, reloads it when stale. */
  show(key: Key): void;
  /** Loads the shown key again, fresh or not (a Retry button). */
  refetch(): void;
  /** The answer for `key`, from the cache while fresh, else loaded; does not change what is shown. */
  get(key: Key): Promise<T>;
}

export interface QueryOptions<T, Key extends string = string> {
  /** What the page was rendered with, so the first view needs no call. */
  initial: { key: Key; data?: T | undefined; error?: unknown };
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export function createQuery<T, Key extends string = string>(
  policy: CachePolicy,
  load: (key: Key) => Promise<T>,
  options: QueryOptions<T, NoInfer<Key>>,
): Query<T, Key> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? wait;
  const entries = new Map<Key, CacheEntry<T>>();
  const pending = new Map<Key, Promise<T>>();
  const { key: initialKey, data: initialData, error: initialError } = options.initial;
  if (initialData !== undefined)
    entries.set(initialKey, { data: initialData, fetchedAt: now(), usedAt: now() });
  const $state = atom<QueryState<T, Key>>({
    key: initialKey,
    data: initialData,
    error: initialError,
    fetching: false,
  });

  function cached(key: Key): CacheEntry<T> | undefined {
    const time = now();
    for (const [entryKey, entry] of entries) {
      if (entryKey !== $state.get().key && !isKept(entry, time, policy)) entries.delete(entryKey);
    }
    const entry = entries.get(key);
    if (entry) entry.usedAt = time;
    return entry;
  }

  function fetchKey(key: Key): Promise<T> {
    let loading = pending.get(key);
    if (!loading) {
      loading = withRetries(() => load(key), sleep).then((data) => {
        entries.set(key, { data, fetchedAt: now(), usedAt: now() });
        return data;
      });
      pending.set(key, loading);
      const settled = () => pending.delete(key);
      loading.then(settled, settled);
    }
    return loading;
  }

  function reload(key: Key): void {
    $state.set({ ...$state.get(), key, error: undefined, fetching: true });
    fetchKey(key).then(
      (data) => {
        if ($state.get().key === key) $state.set({ key, data, error: undefined, fetching: false });
      },
      (error: unknown) => {
        if ($state.get().key === key) $state.set({ ...$state.get(), error, fetching: false });
      },
    );
  }

  return {
    $state,
    show(key) {
      const previous = $state.get();
      if (previous.key !== key) {
        const leaving = entries.get(previous.key);
        if (leaving) leaving.usedAt = now();
      }
      const entry = cached(key);
      if (entry) $state.set({ key, data: entry.data, error: undefined, fetching: false });
      if (!entry || !isFresh(entry, now(), policy)) reload(key);
    },
    refetch() {
      reload($state.get().key);
    },
    get(key) {
      const entry = cached(key);
      return entry && isFresh(entry, now(), policy) ? Promise.resolve(entry.data) : fetchKey(key);
    },
  };
}
