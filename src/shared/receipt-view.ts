/**
 * What a receipt's details show, in the reader's language: its facts, its packages with their totals,
 * and its status history as a timeline. The details modal (React) and the receipt page (Astro, for
 * links from e-mails and browsers without JavaScript) both render these, so they show the same.
 */
import { m } from '~/paraglide/messages.js';
import {
  formatCount,
  formatDate,
  formatDateTime,
  formatVolume,
  formatWeight,
  statusLabel,
  statusTone,
  type StatusTone,
} from './format';
import type { Commodity, Receipt, StatusHistoryEntry } from './receipts';

export interface ReceiptFact {
  label: string;
  text: string;
  /**
   * The ISO 8601 moment `text` shows, when it is a date (a <time> element, re-rendered in the
   * browser's zone by the modal).
   */
  dateTime?: string;
}

export function receiptFacts(receipt: Receipt): ReceiptFact[] {
  return [
    { label: m.receipts_number(), text: receipt.number },
    {
      label: m.receipts_received_date(),
      text: formatDate(receipt.receivedDate),
      dateTime: receipt.receivedDate,
    },
    { label: m.receipts_shipper(), text: receipt.shipperName },
    { label: m.receipts_consignee(), text: receipt.consigneeName },
    { label: m.receipts_destination(), text: receipt.destination },
    { label: m.receipts_status(), text: statusLabel(receipt.status) },
    { label: m.receipts_total_pieces(), text: formatCount(receipt.pieces) },
  ];
}

export interface PackageView {
  description: string;
  trackingNumber: string;
  pieces: string;
  weight: string;
  volume: string;
}

export function packageViews(commodities: Commodity[]): PackageView[] {
  return commodities.map((commodity) => ({
    description: commodity.description,
    trackingNumber: commodity.trackingNumber || m.format_not_available(),
    pieces: m.receipts_package_pieces({ pieces: formatCount(commodity.pieces) }),
    weight: m.receipts_package_weight({ weight: formatWeight(commodity.totalWeightValue) }),
    volume: m.receipts_package_volume({ volume: formatVolume(commodity.totalVolumeValue) }),
  }));
}

export function packageTotals(commodities: Commodity[]): ReceiptFact[] {
  const sum = (pick: (commodity: Commodity) => number) =>
    commodities.reduce((total, commodity) => total + pick(commodity), 0);
  return [
    { label: m.receipts_total_pieces(), text: formatCount(sum((commodity) => commodity.pieces)) },
    {
      label: m.receipts_total_weight(),
      text: formatWeight(sum((commodity) => commodity.totalWeightValue)),
    },
    {
      label: m.receipts_total_volume(),
      text: formatVolume(sum((commodity) => commodity.totalVolumeValue)),
    },
  ];
}

export interface TimelineEntry {
  /** The status in the reader's language (a provider's own status text as it came). */
  label: string;
  tone: StatusTone;
  /** When the receipt took it, ISO 8601. */
  at: string;
  /** `at` as the reader reads a date and time. */
  when: string;
  /** The newest entry: the status the receipt has now. */
  current: boolean;
}

/** The history (oldest first, as the API answers it) as a timeline: newest at the top. */
export function statusTimeline(history: StatusHistoryEntry[]): TimelineEntry[] {
  return history
    .map((entry, index) => ({
      label: statusLabel(entry.status),
      tone: statusTone(entry.status),
      at: entry.at,
      when: formatDateTime(entry.at),
      current: index === history.length - 1,
    }))
    .reverse();
}

/** The dot of a timeline entry by its status's colour (statusTone: In-Transit blue, Delivered green, …). */
export const TIMELINE_DOT: Record<StatusTone, string> = {
  info: 'bg-info',
  success: 'bg-success',
  warning: 'bg-warning',
  error: 'bg-error',
  neutral: 'bg-base-content/40',
};
