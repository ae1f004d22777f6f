/** The live package look-up: the provider's warehouse scans for a tracking number. */
import { QueryTypes } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import type { PackageScanResult } from '~/shared/receipts';
import type { PublicUser } from '~/shared/validation';
import { AppError } from '../../errors';
import { ProviderError, type PackageScan, type ProviderClient } from '../../provider/contract';
import { trackingKey } from './mirror-rows';
import { visibleConsigneeIds, type ScopeDeps } from './receipts';
import type { Config } from '../../config';

const PROVIDER_RETRY_SECONDS = 60;

export function providerUnavailable(error: ProviderError): AppError {
  return new AppError('EXTERNAL_API_ERROR', m.api_provider_unavailable(), {
    retryAfter: PROVIDER_RETRY_SECONDS,
    status: error.kind === 'unreachable' ? 502 : 503,
  });
}

/**
 * Scans for a tracking number. A viewer does not learn about a package that sits on another
 * consignee's receipt; scans of packages on no receipt yet are nobody's, so everyone sees them.
 */
export async function searchPackageScans(
  deps: ScopeDeps & { provider: ProviderClient; config: Pick<Config, 'provider'> },
  user: PublicUser,
  trackingNumber: string,
): Promise<PackageScanResult[]> {
  if (deps.config.provider === 'file') return searchMirroredPackages(deps, user, trackingNumber);
  let scans: PackageScanResult[];
  try {
    scans = await deps.provider.searchPackageScans(trackingNumber);
  } catch (error) {
    if (error instanceof ProviderError) throw providerUnavailable(error);
    throw error;
  }
  const consigneeIds = await visibleConsigneeIds(deps, user);
  if (consigneeIds === null || scans.length === 0) return scans;
  const keyOf = (scan: PackageScanResult) => trackingKey(String(scan.tracking_number ?? ''));
  const rows = await deps.db.sequelize.query<{ trackingKey: string; consigneeId: number | null }>(
    `SELECT p."trackingKey", r."consigneeId" FROM "packages" p
           JOIN "receipts" r ON r."id" = p."receiptId" WHERE p."trackingKey" IN (:keys)`,
    { type: QueryTypes.SELECT, replacements: { keys: [...new Set(scans.map(keyOf))] } },
  );
  const visible = new Set(consigneeIds);
  const known = new Set(rows.map((row) => row.trackingKey));
  const theirs = new Set(
    rows
      .filter((row) => row.consigneeId !== null && visible.has(row.consigneeId))
      .map((row) => row.trackingKey),
  );
  return scans.filter((scan) => !known.has(keyOf(scan)) || theirs.has(keyOf(scan)));
}

/**
 * A provider without warehouse scans (Magaya): the packages the mirror holds under the tracking
 * number, as scans at their receipts' received time. The search above keeps them to their viewers.
 */
export async function mirrorPackageScans(
  deps: { db: ScopeDeps['db'] },
  trackingNumber: string,
): Promise<PackageScan[]> {
  const key = trackingKey(trackingNumber);
  if (!key) return [];
  const rows = await deps.db.sequelize.query<{
    id: number;
    receiptId: number;
    trackingNumber: string;
    receivedDate: string | Date | null;
  }>(
    `SELECT p."id", p."receiptId", p."trackingNumber", r."receivedDate" FROM "packages" p
           JOIN "receipts" r ON r."id" = p."receiptId" WHERE p."trackingKey" = :key ORDER BY p."id"`,
    { type: QueryTypes.SELECT, replacements: { key } },
  );
  return rows.map((row) => ({
    id: row.id,
    arrival_id: row.receiptId,
    tracking_number: row.trackingNumber,
    scanned_at: row.receivedDate === null ? '' : new Date(row.receivedDate).toISOString(),
  }));
}

/**
 * PROVIDER=file has no warehouse scans to ask for: the packages of the imported receipts answer
 * instead, each as arrived on its receipt's received date, within what the user may see.
 */
async function searchMirroredPackages(
  deps: ScopeDeps,
  user: PublicUser,
  trackingNumber: string,
): Promise<PackageScanResult[]> {
  const consigneeIds = await visibleConsigneeIds(deps, user);
  if (consigneeIds !== null && consigneeIds.length === 0) return [];
  const rows = await deps.db.sequelize.query<{
    id: number;
    trackingNumber: string;
    receivedDate: Date | string | null;
    number: string;
    description: string;
  }>(
    `SELECT p."id", p."trackingNumber", r."receivedDate", r."number", p."description"
       FROM "packages" p JOIN "receipts" r ON r."id" = p."receiptId"
      WHERE p."trackingKey" = :key ${consigneeIds === null ? '' : 'AND r."consigneeId" IN (:consigneeIds)'}
      ORDER BY r."receivedDate" DESC`,
    { type: QueryTypes.SELECT, replacements: { key: trackingKey(trackingNumber), consigneeIds } },
  );
  return rows.map((row) => ({
    id: row.id,
    arrival_id: null,
    tracking_number: row.trackingNumber,
    scanned_at: row.receivedDate ? new Date(row.receivedDate).toISOString() : '',
    receipt_number: row.number,
    description: row.description,
  }));
}
