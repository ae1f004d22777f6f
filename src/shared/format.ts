/** Display formatting of spec section 3 ("Formatting") and a few labels, shared by pages and islands. */
import { COUNT_DECIMALS, NUMBER_DECIMALS, SIZE_BASE, SIZE_UNITS, type Role } from './constants';

/** One formatter for every date: toLocaleDateString would build a new one on each call. */
const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: '2-digit', day: '2-digit' });

/** MM/DD/YYYY (en-US); missing or invalid gives 'N/A'. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return 'N/A';
  return dateFormat.format(date);
}

const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });

/** Date and time in the US short format ('11/21/26, 8:06 AM'); missing or invalid gives 'N/A'. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return 'N/A';
  return dateTimeFormat.format(date);
}

const numberFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: NUMBER_DECIMALS, maximumFractionDigits: NUMBER_DECIMALS });
const countFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: COUNT_DECIMALS });

const isNumber = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

/** A measure with 3 decimals ('1,234.500'); missing gives '0'. */
export function formatNumber(value: number | null | undefined): string {
  return isNumber(value) ? numberFormat.format(value) : '0';
}

/** A count with no decimals ('1,234'); missing gives '0'. */
export function formatCount(value: number | null | undefined): string {
  return isNumber(value) ? countFormat.format(value) : '0';
}

export function formatWeight(value: number | null | undefined): string {
  return `${formatNumber(value)} lbs`;
}

export function formatVolume(value: number | null | undefined): string {
  return `${formatNumber(value)} ft³`;
}

/** A file size in Bytes, KB or MB (base 1024): whole bytes, else 2 decimals ('512 Bytes', '1.50 KB', '3.75 MB'). */
export function formatFileSize(bytes: number | null | undefined): string {
  if (!isNumber(bytes) || bytes < 0) return '0 Bytes';
  let value = bytes;
  let unit = 0;
  // Compared as shown, so that 1023.999 KB becomes '1.00 MB' rather than '1024.00 KB'.
  while (unit < SIZE_UNITS.length - 1 && Number(value.toFixed(2)) >= SIZE_BASE) {
    value /= SIZE_BASE;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(value)} ${SIZE_UNITS[0]}` : `${value.toFixed(2)} ${SIZE_UNITS[unit]}`;
}

export type StatusTone = 'info' | 'success' | 'warning' | 'error' | 'neutral';

const STATUS_TONES: Record<string, StatusTone> = {
  'in-transit': 'info',
  delivered: 'success',
  'on-hold': 'warning',
  cancelled: 'error',
  canceled: 'error',
};

/** Spec section 4: In-Transit blue, Delivered green, On-Hold yellow, Cancelled red, anything else grey. */
export function statusTone(status: string): StatusTone {
  return STATUS_TONES[status.trim().toLowerCase().replace(/[\s_-]+/g, '-')] ?? 'neutral';
}

/** The role capitalised, as the top bar and profile show it: 'admin-viewer' → 'Admin-viewer'. */
export function capitalizeRole(role: Role): string {
  return role.charAt(0).toUpperCase() + role.slice(1);
}

/** How the user form and tables name a role: admin-viewer is 'admin viewer'. */
export function roleLabel(role: Role): string {
  return role.replace('-', ' ');
}

/** Seconds → 'm:ss', as the login countdown shows them. */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.ceil(totalSeconds));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export function rateLimitMessage(retryAfterSeconds: number | undefined): string {
  return retryAfterSeconds && retryAfterSeconds > 0
    ? `Too many login attempts. Please wait ${formatCountdown(retryAfterSeconds)} before trying again.`
    : 'Too many login attempts. Please try again later.';
}
