/**
 * Which viewer sees which consignee's receipts. Only viewers are assigned (admins and admin-viewers see
 * everything); every change checks its user and consignees first and writes in one transaction, and
 * repeating a change writes nothing more.
 */
import { Op, QueryTypes, type Transaction } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import { formatCount } from '~/shared/format';
import type {
  AssignedUser,
  BulkAddResult,
  BulkReassignResult,
  ConsigneeAssignmentDto,
  ConsigneeDto,
} from '~/shared/consignees';
import { AppError } from '../../errors';
import type { Database } from '../../db/database';
import type { User } from '../../db/models';
import { recordAudit, userTarget, type AuditActor, type AuditDeps } from '../audit';

const UNKNOWN_IDS_SHOWN = 10;

async function requireUserRow(
  db: Database,
  userId: number,
  transaction?: Transaction,
): Promise<User> {
  const user = await db.models.User.findByPk(userId, {
    attributes: ['id', 'username', 'role'],
    transaction,
  });
  if (!user) throw new AppError('NOT_FOUND', m.users_not_found());
  return user;
}

async function requireViewer(
  db: Database,
  userId: number,
  transaction: Transaction,
): Promise<User> {
  const user = await requireUserRow(db, userId, transaction);
  if (user.role !== 'viewer') throw new AppError('VALIDATION_ERROR', m.assignments_only_viewers());
  return user;
}

// Entries name the user whose access changed; the detail names the consignees.
const consigneeDetail = (consignee: ConsigneeDto) => ({
  consignee: consignee.id,
  consigneeName: consignee.name,
});
/** The first ids (recordAudit keeps a few) and how many there were. */
const consigneesDetail = (ids: number[]) => ({ consignees: ids, consigneeCount: ids.length });

async function requireConsignee(
  db: Database,
  consigneeId: number,
  transaction?: Transaction,
): Promise<ConsigneeDto> {
  const consignee = await db.models.Consignee.findByPk(consigneeId, {
    attributes: ['id', 'name'],
    raw: true,
    transaction,
  });
  if (!consignee) throw new AppError('NOT_FOUND', m.validation_consignee_not_found());
  return consignee;
}

/** The ids, each once; all of them must exist, or nothing is done. */
async function requireConsignees(
  db: Database,
  consigneeIds: number[],
  transaction: Transaction,
): Promise<number[]> {
  const wanted = [...new Set(consigneeIds)];
  const found = new Set(
    (
      await db.models.Consignee.findAll({
        attributes: ['id'],
        where: { id: { [Op.in]: wanted } },
        raw: true,
        transaction,
      })
    ).map((row) => row.id),
  );
  const unknown = wanted.filter((id) => !found.has(id));
  if (unknown.length) {
    const ids = unknown.slice(0, UNKNOWN_IDS_SHOWN).join(', ');
    const more = unknown.length - UNKNOWN_IDS_SHOWN;
    const message =
      more > 0
        ? m.assignments_unknown_consignees_more({ ids, more: formatCount(more) })
        : m.assignments_unknown_consignees({ ids });
    throw new AppError('VALIDATION_ERROR', message, {
      details: [{ field: 'consigneeIds', message }],
    });
  }
  return wanted;
}

type AssignedUserRow = AssignedUser & { consigneeId: number };

async function assignedUsersOf(
  db: Database,
  consigneeIds: number[] | null,
  transaction?: Transaction,
): Promise<Map<number, AssignedUser[]>> {
  const rows = await db.sequelize.query<AssignedUserRow>(
    `SELECT a."consigneeId", u."id", u."username", u."fullName"
       FROM "consignee_assignments" a JOIN "users" u ON u."id" = a."userId"
      ${consigneeIds === null ? '' : 'WHERE a."consigneeId" IN (:consigneeIds)'}
      ORDER BY u."username"`,
    { type: QueryTypes.SELECT, replacements: { consigneeIds }, transaction },
  );
  const byConsignee = new Map<number, AssignedUser[]>();
  for (const { consigneeId, ...user } of rows) {
    const users = byConsignee.get(consigneeId) ?? [];
    users.push(user);
    byConsignee.set(consigneeId, users);
  }
  return byConsignee;
}

async function assignmentOf(
  db: Database,
  consignee: ConsigneeDto,
  transaction?: Transaction,
): Promise<ConsigneeAssignmentDto> {
  const users = await assignedUsersOf(db, [consignee.id], transaction);
  return { consignee, assignedUsers: users.get(consignee.id) ?? [] };
}

export async function listConsignees({ db }: { db: Database }): Promise<ConsigneeDto[]> {
  return db.models.Consignee.findAll({
    attributes: ['id', 'name'],
    order: [
      ['name', 'ASC'],
      ['id', 'ASC'],
    ],
    raw: true,
  });
}

/** Every consignee, assigned or not, with its users. */
export async function listAssignments({ db }: { db: Database }): Promise<ConsigneeAssignmentDto[]> {
  const [consignees, users] = await Promise.all([
    listConsignees({ db }),
    assignedUsersOf(db, null),
  ]);
  return consignees.map((consignee) => ({
    consignee,
    assignedUsers: users.get(consignee.id) ?? [],
  }));
}

export async function listUserConsignees(
  { db }: { db: Database },
  userId: number,
): Promise<ConsigneeDto[]> {
  await requireUserRow(db, userId);
  return db.sequelize.query<ConsigneeDto>(
    `SELECT c."id", c."name" FROM "consignee_assignments" a JOIN "consignees" c ON c."id" = a."consigneeId"
      WHERE a."userId" = :userId ORDER BY c."name", c."id"`,
    { type: QueryTypes.SELECT, replacements: { userId } },
  );
}

/** Assigns the consignees the user does not have yet; resolves with how many that was. */
async function addMissing(
  db: Database,
  userId: number,
  consigneeIds: number[],
  transaction: Transaction,
): Promise<number> {
  const existing = new Set(
    (
      await db.models.ConsigneeAssignment.findAll({
        attributes: ['consigneeId'],
        where: { userId, consigneeId: { [Op.in]: consigneeIds } },
        raw: true,
        transaction,
      })
    ).map((row) => row.consigneeId),
  );
  const missing = consigneeIds.filter((consigneeId) => !existing.has(consigneeId));
  if (missing.length)
    await db.models.ConsigneeAssignment.bulkCreate(
      missing.map((consigneeId) => ({ userId, consigneeId })),
      { transaction },
    );
  return missing.length;
}

/**
 * Adds the user to each consignee; those it already had are skipped. `actor` is the admin; null when
 * the portal itself assigns (the demo customer).
 */
export async function assignConsignees(
  deps: AuditDeps,
  actor: AuditActor | null,
  userId: number,
  consigneeIds: number[],
): Promise<BulkAddResult> {
  const { db } = deps;
  return db.sequelize.transaction(async (transaction) => {
    const user = await requireViewer(db, userId, transaction);
    const wanted = await requireConsignees(db, consigneeIds, transaction);
    const added = await addMissing(db, userId, wanted, transaction);
    const skipped = wanted.length - added;
    if (actor) {
      const detail = { ...consigneesDetail(wanted), added, skipped };
      await recordAudit(
        deps,
        actor,
        { action: 'consignee.assigned', target: userTarget(user.username), detail },
        transaction,
      );
    }
    return { added, skipped };
  });
}

export async function addUserToConsignee(
  deps: AuditDeps,
  actor: AuditActor,
  consigneeId: number,
  userId: number,
): Promise<ConsigneeAssignmentDto> {
  const { db } = deps;
  return db.sequelize.transaction(async (transaction) => {
    const consignee = await requireConsignee(db, consigneeId, transaction);
    const user = await requireViewer(db, userId, transaction);
    await db.models.ConsigneeAssignment.findOrCreate({
      where: { userId, consigneeId },
      transaction,
    });
    await recordAudit(
      deps,
      actor,
      {
        action: 'consignee.assigned',
        target: userTarget(user.username),
        detail: consigneeDetail(consignee),
      },
      transaction,
    );
    return assignmentOf(db, consignee, transaction);
  });
}

/** Removing is allowed whatever the user's role, and removing what is not there changes nothing. */
export async function removeUserFromConsignee(
  deps: AuditDeps,
  actor: AuditActor,
  consigneeId: number,
  userId: number,
): Promise<ConsigneeAssignmentDto> {
  const { db } = deps;
  return db.sequelize.transaction(async (transaction) => {
    const consignee = await requireConsignee(db, consigneeId, transaction);
    const user = await requireUserRow(db, userId, transaction);
    await db.models.ConsigneeAssignment.destroy({ where: { userId, consigneeId }, transaction });
    await recordAudit(
      deps,
      actor,
      {
        action: 'consignee.removed',
        target: userTarget(user.username),
        detail: consigneeDetail(consignee),
      },
      transaction,
    );
    return assignmentOf(db, consignee, transaction);
  });
}

async function replaceUsers(
  db: Database,
  consigneeIds: number[],
  userId: number,
  transaction: Transaction,
): Promise<void> {
  await db.models.ConsigneeAssignment.destroy({
    where: { consigneeId: { [Op.in]: consigneeIds }, userId: { [Op.ne]: userId } },
    transaction,
  });
  await addMissing(db, userId, consigneeIds, transaction);
}

/** The user becomes the consignee's only user. */
export async function replaceConsigneeUsers(
  deps: AuditDeps,
  actor: AuditActor,
  consigneeId: number,
  userId: number,
): Promise<ConsigneeAssignmentDto> {
  const { db } = deps;
  return db.sequelize.transaction(async (transaction) => {
    const consignee = await requireConsignee(db, consigneeId, transaction);
    const user = await requireViewer(db, userId, transaction);
    await replaceUsers(db, [consigneeId], userId, transaction);
    await recordAudit(
      deps,
      actor,
      {
        action: 'consignee.reassigned',
        target: userTarget(user.username),
        detail: consigneeDetail(consignee),
      },
      transaction,
    );
    return assignmentOf(db, consignee, transaction);
  });
}

/** The user becomes the only user of every listed consignee. */
export async function replaceUsersOfConsignees(
  deps: AuditDeps,
  actor: AuditActor,
  consigneeIds: number[],
  userId: number,
): Promise<BulkReassignResult> {
  const { db } = deps;
  return db.sequelize.transaction(async (transaction) => {
    const user = await requireViewer(db, userId, transaction);
    const wanted = await requireConsignees(db, consigneeIds, transaction);
    await replaceUsers(db, wanted, userId, transaction);
    await recordAudit(
      deps,
      actor,
      {
        action: 'consignee.reassigned',
        target: userTarget(user.username),
        detail: consigneesDetail(wanted),
      },
      transaction,
    );
    return { reassigned: wanted.length };
  });
}
