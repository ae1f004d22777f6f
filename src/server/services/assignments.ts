/**
 * Which viewer sees which consignee's receipts. Only viewers are assigned (admins and admin-viewers see
 * everything); every change checks its user and consignees first and writes in one transaction, and
 * repeating a change writes nothing more.
 */
import { Op, QueryTypes, type Transaction } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import { formatCount } from '~/shared/format';
import type { AssignedUser, BulkAddResult, BulkReassignResult, ConsigneeAssignmentDto, ConsigneeDto } from '~/shared/consignees';
import { sequelize } from '../db';
import { Consignee, ConsigneeAssignment, User } from '../db/models';
import { AppError } from '../http/errors';

const UNKNOWN_IDS_SHOWN = 10;

async function requireUserRow(userId: number, transaction?: Transaction): Promise<User> {
  const user = await User.findByPk(userId, { attributes: ['id', 'role'], transaction });
  if (!user) throw new AppError('NOT_FOUND', m.users_not_found());
  return user;
}

async function requireViewer(userId: number, transaction: Transaction): Promise<void> {
  const user = await requireUserRow(userId, transaction);
  if (user.role !== 'viewer') throw new AppError('VALIDATION_ERROR', m.assignments_only_viewers());
}

async function requireConsignee(consigneeId: number, transaction?: Transaction): Promise<ConsigneeDto> {
  const consignee = await Consignee.findByPk(consigneeId, { attributes: ['id', 'name'], raw: true, transaction });
  if (!consignee) throw new AppError('NOT_FOUND', m.validation_consignee_not_found());
  return consignee;
}

/** The ids, each once; all of them must exist, or nothing is done. */
async function requireConsignees(consigneeIds: number[], transaction: Transaction): Promise<number[]> {
  const wanted = [...new Set(consigneeIds)];
  const found = new Set(
    (await Consignee.findAll({ attributes: ['id'], where: { id: { [Op.in]: wanted } }, raw: true, transaction })).map((row) => row.id),
  );
  const unknown = wanted.filter((id) => !found.has(id));
  if (unknown.length) {
    const ids = unknown.slice(0, UNKNOWN_IDS_SHOWN).join(', ');
    const more = unknown.length - UNKNOWN_IDS_SHOWN;
    const message = more > 0 ? m.assignments_unknown_consignees_more({ ids, more: formatCount(more) }) : m.assignments_unknown_consignees({ ids });
    throw new AppError('VALIDATION_ERROR', message, { details: [{ field: 'consigneeIds', message }] });
  }
  return wanted;
}

type AssignedUserRow = AssignedUser & { consigneeId: number };

async function assignedUsersOf(consigneeIds: number[] | null, transaction?: Transaction): Promise<Map<number, AssignedUser[]>> {
  const rows = await sequelize.query<AssignedUserRow>(
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

async function assignmentOf(consignee: ConsigneeDto, transaction?: Transaction): Promise<ConsigneeAssignmentDto> {
  const users = await assignedUsersOf([consignee.id], transaction);
  return { consignee, assignedUsers: users.get(consignee.id) ?? [] };
}

export async function listConsignees(): Promise<ConsigneeDto[]> {
  return Consignee.findAll({ attributes: ['id', 'name'], order: [['name', 'ASC'], ['id', 'ASC']], raw: true });
}

/** Every consignee, assigned or not, with its users. */
export async function listAssignments(): Promise<ConsigneeAssignmentDto[]> {
  const [consignees, users] = await Promise.all([listConsignees(), assignedUsersOf(null)]);
  return consignees.map((consignee) => ({ consignee, assignedUsers: users.get(consignee.id) ?? [] }));
}

export async function listUserConsignees(userId: number): Promise<ConsigneeDto[]> {
  await requireUserRow(userId);
  return sequelize.query<ConsigneeDto>(
    `SELECT c."id", c."name" FROM "consignee_assignments" a JOIN "consignees" c ON c."id" = a."consigneeId"
      WHERE a."userId" = :userId ORDER BY c."name", c."id"`,
    { type: QueryTypes.SELECT, replacements: { userId } },
  );
}

/** Assigns the consignees the user does not have yet; resolves with how many that was. */
async function addMissing(userId: number, consigneeIds: number[], transaction: Transaction): Promise<number> {
  const existing = new Set(
    (await ConsigneeAssignment.findAll({ attributes: ['consigneeId'], where: { userId, consigneeId: { [Op.in]: consigneeIds } }, raw: true, transaction })).map(
      (row) => row.consigneeId,
    ),
  );
  const missing = consigneeIds.filter((consigneeId) => !existing.has(consigneeId));
  if (missing.length) await ConsigneeAssignment.bulkCreate(missing.map((consigneeId) => ({ userId, consigneeId })), { transaction });
  return missing.length;
}

/** Adds the user to each consignee; those it already had are skipped. */
export async function assignConsignees(userId: number, consigneeIds: number[]): Promise<BulkAddResult> {
  return sequelize.transaction(async (transaction) => {
    await requireViewer(userId, transaction);
    const wanted = await requireConsignees(consigneeIds, transaction);
    const added = await addMissing(userId, wanted, transaction);
    return { added, skipped: wanted.length - added };
  });
}

export async function addUserToConsignee(consigneeId: number, userId: number): Promise<ConsigneeAssignmentDto> {
  return sequelize.transaction(async (transaction) => {
    const consignee = await requireConsignee(consigneeId, transaction);
    await requireViewer(userId, transaction);
    await ConsigneeAssignment.findOrCreate({ where: { userId, consigneeId }, transaction });
    return assignmentOf(consignee, transaction);
  });
}

/** Removing is allowed whatever the user's role, and removing what is not there changes nothing. */
export async function removeUserFromConsignee(consigneeId: number, userId: number): Promise<ConsigneeAssignmentDto> {
  return sequelize.transaction(async (transaction) => {
    const consignee = await requireConsignee(consigneeId, transaction);
    await requireUserRow(userId, transaction);
    await ConsigneeAssignment.destroy({ where: { userId, consigneeId }, transaction });
    return assignmentOf(consignee, transaction);
  });
}

async function replaceUsers(consigneeIds: number[], userId: number, transaction: Transaction): Promise<void> {
  await ConsigneeAssignment.destroy({ where: { consigneeId: { [Op.in]: consigneeIds }, userId: { [Op.ne]: userId } }, transaction });
  await addMissing(userId, consigneeIds, transaction);
}

/** The user becomes the consignee's only user. */
export async function replaceConsigneeUsers(consigneeId: number, userId: number): Promise<ConsigneeAssignmentDto> {
  return sequelize.transaction(async (transaction) => {
    const consignee = await requireConsignee(consigneeId, transaction);
    await requireViewer(userId, transaction);
    await replaceUsers([consigneeId], userId, transaction);
    return assignmentOf(consignee, transaction);
  });
}

/** The user becomes the only user of every listed consignee. */
export async function replaceUsersOfConsignees(consigneeIds: number[], userId: number): Promise<BulkReassignResult> {
  return sequelize.transaction(async (transaction) => {
    await requireViewer(userId, transaction);
    const wanted = await requireConsignees(consigneeIds, transaction);
    await replaceUsers(wanted, userId, transaction);
    return { reassigned: wanted.length };
  });
}
