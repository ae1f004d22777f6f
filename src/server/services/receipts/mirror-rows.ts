/** A provider receipt as the mirror stores it: defensive about whatever the provider sends. */
import type { InferAttributes } from 'sequelize';
import type { PackageRecord, ReceiptRecord } from '../../db/models';
import { normalizeTrackingNumber } from '~/shared/prealerts';
import { sortKey } from '~/shared/sort-key';
import type { ProviderReceipt } from '../../provider/contract';

/** The text columns the list sorts by, each with a stored sort key column beside it (`<column>Sort`). */
export const SORTED_TEXT_COLUMNS = [
  'number',
  'shipperName',
  'consigneeName',
  'status',
  'destination',
  'modeOfTransportation',
  'originName',
] as const;
export type SortedTextColumn = (typeof SORTED_TEXT_COLUMNS)[number];
export const sortColumn = (column: SortedTextColumn) => `${column}Sort` as const;
export type SortKeyColumns = { [C in SortedTextColumn as `${C}Sort`]: string };

export function sortKeysOf(texts: Record<SortedTextColumn, string>): SortKeyColumns {
  return Object.fromEntries(
    SORTED_TEXT_COLUMNS.map((column) => [sortColumn(column), sortKey(texts[column])]),
  ) as SortKeyColumns;
}

/** Upper case, no spaces or dashes: how tracking numbers are compared, pre-alerts' among them. */
export const trackingKey = normalizeTrackingNumber;

export type ReceiptRow = InferAttributes<ReceiptRecord>;
export type PackageRow = Omit<InferAttributes<PackageRecord>, 'id'>;

const text = (value: unknown, max: number) =>
  typeof value === 'string' ? value.trim().slice(0, max) : '';
const amount = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;
const count = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0;
const date = (value: unknown) => {
  const parsed = typeof value === 'string' ? new Date(value) : null;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : null;
};

/** A provider receipt as mirror rows; null when it lacks what identifies it. */
export function toMirrorRows(
  receipt: ProviderReceipt,
): { receipt: ReceiptRow; packages: PackageRow[] } | null {
  if (!Number.isSafeInteger(receipt?.id) || receipt.id < 1) return null;
  const number = text(receipt.number, 40);
  const shipperName = text(receipt.shipperName, 200);
  const consigneeName = text(receipt.consigneeName, 200);
  const commodities = Array.isArray(receipt.commodities) ? receipt.commodities : [];
  const packages = commodities.map((commodity, position) => {
    const trackingNumber = text(commodity?.trackingNumber, 64) || null;
    return {
      receiptId: receipt.id,
      position,
      description: text(commodity?.description, 300),
      trackingNumber,
      trackingKey: trackingNumber ? trackingKey(trackingNumber) : null,
      pieces: count(commodity?.pieces),
      totalWeightValue: amount(commodity?.totalWeightValue),
      totalVolumeValue: amount(commodity?.totalVolumeValue),
    };
  });
  const texts = {
    number,
    shipperName,
    consigneeName,
    destination: text(receipt.destination, 200),
    status: text(receipt.status, 100),
    modeOfTransportation: text(receipt.modeOfTransportation, 100),
    originName: text(receipt.origin?.name, 200),
  };
  return {
    receipt: {
      ...texts,
      ...sortKeysOf(texts),
      id: receipt.id,
      receivedDate: date(receipt.receivedDate),
      consigneeId: Number.isSafeInteger(receipt.consigneeId) ? receipt.consigneeId : null,
      pieces: count(receipt.pieces),
      totalWeightValue: amount(receipt.totalWeightValue),
      totalVolumeValue: amount(receipt.totalVolumeValue),
      searchText: [number, shipperName, consigneeName].join('\n').toLowerCase(),
      providerUpdatedAt: date(receipt.updatedAt) ?? new Date(0),
    },
    packages,
  };
}
