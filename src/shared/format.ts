/**
 * Display formatting in the request's language, shared by pages and
 * islands: English gets en-US ('1,234.567', '11/23/2026'), Dutch gets nl-NL ('1.234,567', '23-11-2026', 24-hour
 * times). Server and browser format with the same locale, so hydration finds the same text.
 */
import { m } from '~/paraglide/messages.js';
import { getLocale } from '~/paraglide/runtime.js';
import { COUNT_DECIMALS, NUMBER_DECIMALS, SIZE_BASE, type Role } from './constants';
import type { Locale } from './locale';

/** Formatters are costly to build: one per locale and kind, made on first use. */
function perLocale<T>(build: (locale: Locale) => T): () => T {
  const built = new Map<Locale, T>();
  return () => {
    const locale = getLocale();
    let formatter = built.get(locale);
    if (!formatter) {
      formatter = build(locale);
      built.set(locale, formatter);
    }
    return formatter;
  };
}

const dateFormat = perLocale(
  (locale) =>
    new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }),
);
const dateTimeFormat = perLocale(
  (locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }),
);
/** A time of day as the reader writes it: '04:30 PM' in English, '16:30' in Dutch. */
const timeOfDayFormat = perLocale(
  (locale) =>
    new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }),
);
const regionNames = perLocale((locale) => new Intl.DisplayNames(locale, { type: 'region' }));
const relativeTimeFormat = perLocale(
  (locale) => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }),
);
const numberFormat = perLocale(
  (locale) =>
    new Intl.NumberFormat(locale, {
      minimumFractionDigits: NUMBER_DECIMALS,
      maximumFractionDigits: NUMBER_DECIMALS,
    }),
);
const countFormat = perLocale(
  (locale) => new Intl.NumberFormat(locale, { maximumFractionDigits: COUNT_DECIMALS }),
);
/** Sizes have no thousands separator ('5120.00 MB'). */
const sizeFormat = perLocale(
  (locale) =>
    new Intl.NumberFormat(locale, {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
      useGrouping: false,
    }),
);

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** '11/23/2026' (en) or '23-11-2026' (nl); missing or invalid gives 'N/A'. */
export function formatDate(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? dateFormat().format(date) : m.format_not_available();
}

/** The short date and time: '11/21/26, 8:06 AM' (en) or '21-11-2026, 08:06' (nl); missing or invalid gives 'N/A'. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? dateTimeFormat().format(date) : m.format_not_available();
}

const RELATIVE_UNITS: ReadonlyArray<readonly [unit: Intl.RelativeTimeFormatUnit, seconds: number]> =
  [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];

/**
 * How long before `now` a moment was, in the largest whole unit up to days: '3 minutes ago', '1 hour
 * ago', 'yesterday' (en) or '3 minuten geleden', 'gisteren' (nl); under a minute 'now' / 'nu'. A
 * moment after `now` (clocks a little apart) counts as now.
 */
export function formatTimeAgo(value: string | number | Date, now: number | Date): string {
  const date = toDate(value);
  if (!date) return m.format_not_available();
  const seconds = Math.max(0, Math.floor((Number(now) - date.getTime()) / 1000));
  const [unit, size] = RELATIVE_UNITS.find(([, unitSeconds]) => seconds >= unitSeconds) ?? [
    'second',
    1,
  ];
  return relativeTimeFormat().format(unit === 'second' ? 0 : -Math.floor(seconds / size), unit);
}

const isNumber = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** A measure with 3 decimals ('1,234.500' / '1.234,500'); missing gives '0'. */
export function formatNumber(value: number | null | undefined): string {
  return isNumber(value) ? numberFormat().format(value) : '0';
}

/** A count with no decimals ('1,234' / '1.234'); missing gives '0'. */
export function formatCount(value: number | null | undefined): string {
  return isNumber(value) ? countFormat().format(value) : '0';
}

export function formatWeight(value: number | null | undefined): string {
  return `${formatNumber(value)} lbs`;
}

export function formatVolume(value: number | null | undefined): string {
  return `${formatNumber(value)} ft³`;
}

/** A file size in Bytes, KB or MB (base 1024): whole bytes, else 2 decimals ('512 Bytes', '1.50 KB', '3,75 MB'). */
export function formatFileSize(bytes: number | null | undefined): string {
  if (!isNumber(bytes) || bytes < 0) return m.format_bytes({ size: '0' });
  let value = bytes;
  let unit = 0;
  // Compared as shown, so that 1023.999 KB becomes '1.00 MB' rather than '1024.00 KB'.
  while (unit < 2 && Number(value.toFixed(2)) >= SIZE_BASE) {
    value /= SIZE_BASE;
    unit += 1;
  }
  if (unit === 0) return m.format_bytes({ size: String(Math.round(value)) });
  return `${sizeFormat().format(value)} ${unit === 1 ? 'KB' : 'MB'}`;
}

/** A limit's number: at most two decimals, none when whole, no thousands separator ('1', '1.5' / '1,5'). */
const limitFormat = perLocale(
  (locale) => new Intl.NumberFormat(locale, { maximumFractionDigits: 2, useGrouping: false }),
);

/**
 * A size limit as a sentence states it, in the largest unit it reaches (base 1024): '1MB', '64KB' in
 * English, '1 MB', '1,5 MB' in Dutch; under 1 KB in bytes. Texts take it from the limit's constant, so
 * a changed limit changes what they say.
 */
export function formatSizeLimit(bytes: number): string {
  if (bytes < SIZE_BASE) return m.format_bytes({ size: String(bytes) });
  if (bytes < SIZE_BASE ** 2)
    return m.whe_size_kb({ size: limitFormat().format(bytes / SIZE_BASE) });
  return m.whe_size_mb({ size: limitFormat().format(bytes / SIZE_BASE ** 2) });
}

export type StatusTone = 'info' | 'success' | 'warning' | 'error' | 'neutral';

/** The spec's statuses, and the warehouse statuses the provider sends (the sandbox's and Magaya's among them). */
type KnownStatus =
  | 'in-transit'
  | 'delivered'
  | 'on-hold'
  | 'cancelled'
  | 'pending'
  | 'arrived'
  | 'at-destination'
  | 'on-hand'
  | 'in-process'
  | 'received-mia'
  | 'received-nl'
  | 'received-sme';

const KNOWN_STATUSES: Record<string, KnownStatus> = {
  'in-transit': 'in-transit',
  delivered: 'delivered',
  'on-hold': 'on-hold',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  pending: 'pending',
  arrived: 'arrived',
  'at-destination': 'at-destination',
  'on-hand': 'on-hand',
  'in-process': 'in-process',
  'received-at-mia-warehouse': 'received-mia',
  'received-at-nl-warehouse': 'received-nl',
  'received-at-sme-warehouse': 'received-sme',
};

/** The spec's colours for its four statuses; the warehouse statuses stay grey, as any other. */
const STATUS_TONES: Partial<Record<KnownStatus, StatusTone>> = {
  'in-transit': 'info',
  delivered: 'success',
  'on-hold': 'warning',
  cancelled: 'error',
};

const STATUS_LABELS: Record<KnownStatus, () => string> = {
  'in-transit': m.status_in_transit,
  delivered: m.status_delivered,
  'on-hold': m.status_on_hold,
  cancelled: m.status_cancelled,
  pending: m.status_pending,
  arrived: m.status_arrived,
  'at-destination': m.status_at_destination,
  'on-hand': m.status_on_hand,
  'in-process': m.status_in_process,
  'received-mia': m.status_received_mia,
  'received-nl': m.status_received_nl,
  'received-sme': m.status_received_sme,
};

const knownStatus = (status: string): KnownStatus | undefined =>
  KNOWN_STATUSES[
    status
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, '-')
  ];

/** The status colours: In-Transit blue, Delivered green, On-Hold yellow, Cancelled red, anything else grey. */
export function statusTone(status: string): StatusTone {
  const known = knownStatus(status);
  return (known && STATUS_TONES[known]) || 'neutral';
}

/** A known status in the reader's language; any other status text as the provider sent it. */
export function statusLabel(status: string): string {
  const known = knownStatus(status);
  return known ? STATUS_LABELS[known]() : status;
}

/**
 * The provider's modes of transportation carry the customs code and its English name ('10 - Vessel,
 * Non-Containerized'); readers get a plain name in their language. The code stays in the API.
 */
const TRANSPORT_BY_CODE: Readonly<Record<string, () => string>> = {
  '10': m.transport_sea_loose,
  '11': m.transport_sea_container,
  '12': m.transport_sea,
  '20': m.transport_rail,
  '30': m.transport_road,
  '31': m.transport_road,
  '32': m.transport_road,
  '34': m.transport_road,
  '40': m.transport_air,
  '41': m.transport_air_container,
  '50': m.transport_mail,
  '60': m.transport_hand_carried,
  '70': m.transport_other,
  '80': m.transport_other,
};
const TRANSPORT_BY_NAME: Readonly<Record<string, () => string>> = {
  air: m.transport_air,
  ocean: m.transport_sea,
  sea: m.transport_sea,
};

/** A mode of transportation in the reader's language; a mode it does not know as the provider sent it. */
export function transportLabel(mode: string): string {
  const code = /^\s*(\d{2})\b/.exec(mode)?.[1];
  const label = (code && TRANSPORT_BY_CODE[code]) || TRANSPORT_BY_NAME[mode.trim().toLowerCase()];
  return label ? label() : mode;
}

/** The role as the top bar and profile show it: 'Admin', 'Admin-viewer', 'Viewer' (en). */
export function roleTitle(role: Role): string {
  if (role === 'admin') return m.role_title_admin();
  return role === 'viewer' ? m.role_title_viewer() : m.role_title_admin_viewer();
}

/** How the user form and tables name a role: 'admin', 'admin viewer', 'viewer' (en). */
export function roleLabel(role: Role): string {
  if (role === 'admin') return m.role_label_admin();
  return role === 'viewer' ? m.role_label_viewer() : m.role_label_admin_viewer();
}

/** Seconds → 'm:ss', as the login countdown shows them. */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.ceil(totalSeconds));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export function rateLimitMessage(retryAfterSeconds: number | undefined): string {
  return retryAfterSeconds && retryAfterSeconds > 0
    ? m.login_rate_limited_wait({ countdown: formatCountdown(retryAfterSeconds) })
    : m.login_rate_limited();
}

/** A 24-hour 'HH:MM' in the reader's way: '09:00 AM' (en), '09:00' (nl). */
export function formatTimeOfDay(time: string): string {
  const [hours, minutes] = time.split(':').map(Number);
  return timeOfDayFormat().format(Date.UTC(1970, 0, 1, hours, minutes));
}

/** A country by its ISO 3166 code, in the reader's language: 'NL' is 'Netherlands' (en), 'Nederland' (nl). */
export function formatCountry(code: string): string {
  return regionNames().of(code) ?? code;
}
