/** Lets a process-local cache of database rows forget them whenever this process writes those rows. */
import type { ModelStatic, Transaction } from 'sequelize';

type WriteHook = 'afterSave' | 'afterDestroy' | 'afterBulkCreate' | 'afterBulkUpdate' | 'afterBulkDestroy';

/** Calls `forget` after each such write, and again once its transaction commits: a read in between may have cached the old row. */
export function forgetOnWrite(model: ModelStatic<any>, hooks: readonly WriteHook[], forget: () => void): void {
  for (const hook of hooks) {
    model.addHook(hook, (...hookArguments: unknown[]) => {
      forget();
      const options = hookArguments.at(-1) as { transaction?: Transaction | null } | undefined;
      options?.transaction?.afterCommit(() => forget());
    });
  }
}
