/**
 * The receipt read path's one cache: what was computed from one state of the mirror (a list page and
 * the forms it was sent in, the stats, the ids a text matches, a filter's matches in a sort order),
 * each under a key built from values: the kind of entry, the mirror state, then the viewer's scope and
 * the canonical query. Never an object's identity, so a copy of a query finds the same entry.
 *
 * The mirror state is the version this process follows (mirror-version.ts) and a count of clears: an
 * entry computed from an earlier state, even one that finished after the state moved on, is never found
 * again. Following a new state also drops every entry, to free their memory; entries also age out, so
 * a missed follow can never serve stale data for long.
 */
import { LRUCache } from 'lru-cache';

const CACHE_MAX_AGE_MS = 10 * 60_000;
/**
 * At most 1,000 answers, or 3 million ids (24 MB), or some of each: an id or a slot counts 1, an
 * answer ANSWER_SIZE.
 */
const MAX_SIZE = 3_000_000;
const ANSWER_SIZE = 3_000;

/**
 * A cached page's meta differs in its processing time (0, 0.1, …): a few forms each at most, the ones
 * sent last, so that a rare time (a pause of the process) does not keep a common one out. Its sync
 * time moves on with every sync, also one that changed nothing and so kept the page: the forms of the
 * new sync time, sent last, push out the earlier ones.
 */
const MAX_FORMS_PER_ANSWER = 4;

/** A whole answer (a list page, the stats), with the forms the HTTP edge sent it in. */
export class CachedAnswer<T> {
  private sentForms: LRUCache<string, object> | undefined;

  constructor(readonly value: T) {}

  /**
   * What the HTTP edge made of this answer to send it with one meta (respond.ts: its JSON text and
   * compressions), made once and kept with the answer, so it goes when the answer goes.
   */
  sent<F extends object>(form: string, make: () => F): F {
    this.sentForms ??= new LRUCache({ max: MAX_FORMS_PER_ANSWER });
    let made = this.sentForms.get(form) as F | undefined;
    if (made === undefined) {
      made = make();
      this.sentForms.set(form, made);
    }
    return made;
  }
}

interface Entry {
  value: object;
  size: number;
}

export class ResponseCache {
  private readonly entries = new LRUCache<string, Entry>({
    maxSize: MAX_SIZE,
    sizeCalculation: (entry) => entry.size,
    ttl: CACHE_MAX_AGE_MS,
  });
  /** The followed mirror version (null until the first follow) and the clears since start: see `state`. */
  private version: number | null = null;
  private clears = 0;
  /** The mirror state every key starts with. */
  private state = 'none.0';

  /** A whole answer of `kind` under `key` (the scope and the canonical query), computed now if there is none. */
  async answer<T>(
    kind: string,
    key: string,
    compute: () => Promise<T>,
  ): Promise<{ answer: CachedAnswer<T>; cached: boolean }> {
    const { value, cached } = await this.computeOnce(
      kind,
      key,
      async () => new CachedAnswer(await compute()),
      () => ANSWER_SIZE,
    );
    return { answer: value, cached };
  }

  /**
   * A part of answers (ids a text matches, a filter's matches in an order) of `kind` under `key`;
   * it counts `sizeOf` ids.
   */
  async part<T extends object>(
    kind: string,
    key: string,
    compute: () => Promise<T>,
    sizeOf: (value: T) => number,
  ): Promise<T> {
    return (await this.computeOnce(kind, key, compute, sizeOf)).value;
  }

  /** Answers from the mirror state of `version` from now on (mirror-version.ts). */
  follow(version: number): void {
    this.version = version;
    this.clear();
  }

  /** Drops every entry: the state this process answers from is not known to be the one they were computed from. */
  clear(): void {
    this.clears += 1;
    this.state = `${this.version ?? 'none'}.${this.clears}`;
    this.entries.clear();
  }

  /**
   * The value under `kind`, the current state and `key`, or one computed now and kept under the
   * state it was asked in.
   */
  private async computeOnce<V extends object>(
    kind: string,
    key: string,
    compute: () => Promise<V>,
    sizeOf: (value: V) => number,
  ): Promise<{ value: V; cached: boolean }> {
    const fullKey = `${kind}|${this.state}|${key}`;
    const entry = this.entries.get(fullKey);
    if (entry !== undefined) return { value: entry.value as V, cached: true };
    const value = await compute();
    this.entries.set(fullKey, { value, size: Math.max(1, sizeOf(value)) });
    return { value, cached: false };
  }
}
