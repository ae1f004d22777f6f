/**
 * A user's passkeys: the list, renaming and removing one, and an admin removing them all (a lost
 * phone). A removed passkey is gone from the database, so its next assertion finds nothing: it ends at once.
 */
import type { Transaction } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import type { PasskeyView, RenamePasskeyPayload } from '~/shared/passkeys';
import type { Database } from '../../../db/database';
import { AppError } from '../../../errors';
import { removeSignInMethod, type AccountNoticeDeps } from '../account-access';
import { recordAudit, selfActor, userTarget, type AuditActor, type AuditDeps } from '../../audit';
import { toPasskeyView } from './views';

export async function listPasskeys(
  { db }: { db: Database },
  userId: number,
): Promise<PasskeyView[]> {
  const rows = await db.models.Passkey.findAll({
    where: { userId },
    order: [
      ['createdAt', 'ASC'],
      ['id', 'ASC'],
    ],
  });
  return rows.map(toPasskeyView);
}

/** How many passkeys each user holds, for User Management. */
export async function countPasskeys({ db }: { db: Database }): Promise<Map<number, number>> {
  const rows = (await db.models.Passkey.count({ group: ['userId'] })) as unknown as Array<{
    userId: number;
    count: number | string;
  }>;
  return new Map(rows.map((row) => [Number(row.userId), Number(row.count)]));
}

async function ownPasskey(db: Database, userId: number, id: number, transaction: Transaction) {
  const passkey = await db.models.Passkey.findOne({ where: { id, userId }, transaction });
  // Another user's passkey is as unknown as one that never was.
  if (!passkey) throw new AppError('NOT_FOUND', m.passkey_not_found());
  return passkey;
}

type Owner = { id: number; username: string };

export async function renamePasskey(
  deps: AuditDeps,
  owner: Owner,
  clientAddress: string,
  id: number,
  { name }: RenamePasskeyPayload,
): Promise<PasskeyView> {
  return deps.db.sequelize.transaction(async (transaction) => {
    const passkey = await ownPasskey(deps.db, owner.id, id, transaction);
    const from = passkey.name;
    await passkey.update({ name }, { transaction });
    await recordAudit(
      deps,
      selfActor(owner, clientAddress),
      { action: 'passkey.renamed', target: userTarget(owner.username), detail: { from, to: name } },
      transaction,
    );
    return toPasskeyView(passkey);
  });
}

export async function removePasskey(
  deps: AuditDeps,
  owner: Owner,
  clientAddress: string,
  id: number,
): Promise<void> {
  await deps.db.sequelize.transaction(async (transaction) => {
    const passkey = await ownPasskey(deps.db, owner.id, id, transaction);
    await passkey.destroy({ transaction });
    await recordAudit(
      deps,
      selfActor(owner, clientAddress),
      {
        action: 'passkey.removed',
        target: userTarget(owner.username),
        detail: { name: passkey.name },
      },
      transaction,
    );
  });
}

/** An admin removes every passkey of a user (a lost phone), who is told by e-mail. Answers the username. */
export async function removeAllPasskeys(
  deps: AccountNoticeDeps,
  actor: AuditActor,
  userId: number,
): Promise<string> {
  return removeSignInMethod(deps, actor, userId, {
    clear: async (account, transaction) => {
      const count = await deps.db.models.Passkey.destroy({
        where: { userId: account.id },
        transaction,
      });
      const target = userTarget(account.username);
      return {
        hadAny: count > 0,
        entry: { action: 'passkeys.removed', target, detail: { count } },
      };
    },
    notice: (names) => ({
      subject: m.email_passkeys_removed_subject(names),
      intro: m.email_passkeys_removed_intro(names),
    }),
  });
}
