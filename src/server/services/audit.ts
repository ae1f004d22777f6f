/**
 * The audit trail: every admin action and every admin sign-in, with who, what, on what, from where,
 * and a short detail that never holds a secret. Entries outlive the accounts they name.
 */
import type { Transaction } from 'sequelize';
import type { AuditAction } from '~/shared/audit';
import type { Clock } from '../clock';
import type { Database } from '../db/database';

const DETAIL_MAX = 500;
const TARGET_MAX = 200;

/** Who acted: the signed-in user (null when nobody is, as for a failed sign-in) and their address. */
export interface AuditActor {
  id: number | null;
  username: string;
  clientAddress: string | null;
}

export interface AuditRecord {
  action: AuditAction;
  /** What was acted on, in words an admin recognises: `user alice`, `consignee 42`. */
  target?: string | null;
  detail?: string | null;
}

export interface AuditDeps {
  db: Database;
  clock: Clock;
}

/** Writes one entry; inside the action's transaction when it has one, so both land or neither. */
export async function recordAudit(deps: AuditDeps, actor: AuditActor, record: AuditRecord, transaction?: Transaction): Promise<void> {
  await deps.db.models.AuditEntry.create(
    {
      at: new Date(deps.clock.now()),
      actorId: actor.id,
      actorName: actor.username.slice(0, 128),
      action: record.action,
      target: record.target?.slice(0, TARGET_MAX) ?? null,
      clientAddress: actor.clientAddress,
      detail: record.detail?.slice(0, DETAIL_MAX) ?? null,
    },
    { transaction },
  );
}
