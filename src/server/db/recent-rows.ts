/**
 * Process-local copies of database rows, read at most once a second and forgotten whenever this
 * process writes those rows. Another process's writes (several portals on one database) are seen
 * within RECENT_ROWS_MAX_AGE_MS.
 */
import { LRUCache } from 'lru-cache';
import type { Model, ModelStatic, Transaction } from 'sequelize';

export const RECENT_ROWS_MAX_AGE_MS = 1_000;

type WriteHook =
  'afterSave' | 'afterDestroy' | 'afterBulkCreate' | 'afterBulkUpdate' | 'afterBulkDestroy';

export class RecentRows<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  private readonly rows = new LRUCache<K, V>({ max: 10_000, ttl: RECENT_ROWS_MAX_AGE_MS });
  /** Counts forgets: a read that a forget overtook is answered but not kept. */
  private forgets = 0;

  /** The recent copy when there is one and `usable` accepts it, else what `load` reads (null is not kept). */
  async read<L extends V | null>(
    key: K,
    load: () => Promise<L>,
    usable: (value: V) => boolean = () => true,
  ): Promise<V | L> {
    const recent = this.rows.get(key);
    if (recent !== undefined && usable(recent)) return recent;
    const forgetsBefore = this.forgets;
    const value = await load();
    if (value !== null && forgetsBefore === this.forgets) this.rows.set(key, value);
    return value;
  }

  /**
   * Forgets every copy after each such write, and again once its transaction commits: a read in
   * between may have kept the old row.
   */
  forgetOnWrite(model: ModelStatic<Model>, hooks: readonly WriteHook[]): void {
    for (const hook of hooks) {
      model.addHook(hook, (...hookArguments: unknown[]) => {
        this.forgetAll();
        const options = hookArguments.at(-1) as { transaction?: Transaction | null } | undefined;
        options?.transaction?.afterCommit(() => this.forgetAll());
      });
    }
  }

  private forgetAll(): void {
    this.forgets += 1;
    this.rows.clear();
  }
}
