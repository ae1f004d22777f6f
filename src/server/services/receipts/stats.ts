/** Dashboard statistics over the mirror, in the viewer's scope (GET /api/receipts/stats). */
import { QueryTypes } from 'sequelize';
import type { DashboardStats, RankedName } from '~/shared/receipts';
import type { PublicUser } from '~/shared/validation';
import { startOfIsoWeek, startOfMonth } from '../../calendar';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { requireMirror, scopeKey, visibleConsigneeIds, type ScopeDeps } from './receipts';
import type { ResponseCache } from './response-cache';
import type { LastSyncTime } from './sync-state';

export interface StatsDeps extends ScopeDeps {
  lastSync: LastSyncTime;
  responseCache: ResponseCache;
  clock: Clock;
}

const TOP_ENTRIES = 5;

interface Totals {
  totalReceipts: number;
  totalWeight: number | null;
  totalVolume: number | null;
  totalPieces: number | null;
  receiptsThisMonth: number | null;
  receiptsThisWeek: number | null;
}

const EMPTY_TOTALS: Totals = {
  totalReceipts: 0,
  totalWeight: null,
  totalVolume: null,
  totalPieces: null,
  receiptsThisMonth: null,
  receiptsThisWeek: null,
};

async function computeStats(
  db: Database,
  consigneeIds: number[] | null,
  now: Date,
): Promise<DashboardStats> {
  // The ids are integers from our own table (and Number() again), so inlining them is safe.
  const scope =
    consigneeIds === null
      ? ''
      : `WHERE "consigneeId" IN (${consigneeIds.map(Number).join(',') || 'NULL'})`;
  const [totals = EMPTY_TOTALS] = await db.heavyRead((connection) =>
    db.sequelize.query<Totals>(
      `SELECT COUNT(*) AS "totalReceipts", SUM("totalWeightValue") AS "totalWeight",
             SUM("totalVolumeValue") AS "totalVolume",
              SUM("pieces") AS "totalPieces",
              SUM(CASE WHEN "receivedDate" >= :month THEN 1 ELSE 0 END) AS "receiptsThisMonth",
              SUM(CASE WHEN "receivedDate" >= :week THEN 1 ELSE 0 END) AS "receiptsThisWeek"
         FROM "receipts" ${scope}`,
      {
        type: QueryTypes.SELECT,
        replacements: { month: startOfMonth(now), week: startOfIsoWeek(now) },
        ...connection,
      },
    ),
  );
  const top = (column: 'shipperName' | 'consigneeName') =>
    db.heavyRead((connection) =>
      db.sequelize.query<RankedName>(
        `SELECT "${column}" AS "name", COUNT(*) AS "count" FROM "receipts" ${scope}
          GROUP BY "${column}" ORDER BY "count" DESC, "name" ASC LIMIT ${TOP_ENTRIES}`,
        { type: QueryTypes.SELECT, ...connection },
      ),
    );
  const [topShippers, topConsignees] = await Promise.all([
    top('shipperName'),
    top('consigneeName'),
  ]);
  const count = Number(totals.totalReceipts);
  const totalWeight = Number(totals.totalWeight ?? 0);
  const totalVolume = Number(totals.totalVolume ?? 0);
  return {
    totalReceipts: count,
    totalWeight,
    totalVolume,
    totalPieces: Number(totals.totalPieces ?? 0),
    receiptsThisMonth: Number(totals.receiptsThisMonth ?? 0),
    receiptsThisWeek: Number(totals.receiptsThisWeek ?? 0),
    averageWeight: count ? totalWeight / count : 0,
    averageVolume: count ? totalVolume / count : 0,
    topShippers: topShippers.map(({ name, count }) => ({ name, count: Number(count) })),
    topConsignees: topConsignees.map(({ name, count }) => ({ name, count: Number(count) })),
  };
}

export async function getDashboardStats(
  deps: StatsDeps,
  user: PublicUser,
): Promise<DashboardStats> {
  const now = new Date(deps.clock.now());
  await requireMirror(deps);
  const consigneeIds = await visibleConsigneeIds(deps, user);
  // The day is part of the key: "this week" and "this month" move at midnight even without a sync.
  const day = `${now.getFullYear()}-${now.getMonth()}-${now.getDate()}`;
  const { answer } = await deps.responseCache.answer(
    'stats',
    `${scopeKey(consigneeIds)}|${day}`,
    () => computeStats(deps.db, consigneeIds, now),
  );
  return answer.value;
}
