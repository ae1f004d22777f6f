/**
 * Process-local copies of database rows, read at most once per `maxAgeMs` and forgotten whenever this
 * process writes those rows. Another process's writes are seen within `maxAgeMs`.
 */
import { LRUCache } from 'lru-cache';
import type { ModelStatic, Transaction } from 'sequelize';

type WriteHook = 'afterSave' | 'afterDestroy' | 'afterBulkCreate' | 'afterBulkUpdate' | 'afterBulkDestroy';

/** Calls `forget` after each such write, and again once its transaction commits: a read in between may have kept the old row. */
export function forgetOnWrite(model: ModelStatic<any>, hooks: readonly WriteHook[], forget: () => void): void {
  for (const hook of hooks) {
    model.addHook(hook, (...hookArguments: unknown[]) => {
      forget();
      const options = hookArguments.at(-1) as { transaction?: Transaction | null } | undefined;
      options?.transaction?.afterCommit(() => forget());
    });
  }
}

export class RecentRows<K extends {}, V extends {}> {
  private readonly rows: LRUCache<K, V>;
  /** Counts forgets: a read that a forget overtook is answered but not kept. */
  private forgets = 0;

  constructor(maxAgeMs: number) {
    this.rows = new LRUCache<K, V>({ max: 10_000, ttl: maxAgeMs });
  }

  /** The recent copy when there is one and `usable` accepts it, else what `load` reads (null is not kept). */
  async read<L extends V | null>(key: K, load: () => Promise<L>, usable: (value: V) => boolean = () => true): Promise<V | L> {
    const recent = this.rows.get(key);
    if (recent !== undefined && usable(recent)) return recent;
    const forgetsBefore = this.forgets;
    const value = await load();
    if (value !== null && forgetsBefore === this.forgets) this.rows.set(key, value);
    return value;
  }

  forgetAll(): void {
    this.forgets += 1;
    this.rows.clear();
  }
}
