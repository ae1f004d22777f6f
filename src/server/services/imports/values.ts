/**
 * Cell values as exports write them: numbers with a decimal comma or point, and dates in US order with
 * AM/PM, day-first, ISO, or as a spreadsheet's date cell. A file's date order is decided from its own values.
 */
import type { ImportDateOrder } from '../../config';

/** A cell as a reader hands it over: text, a spreadsheet number or date, or nothing. */
export type Cell = string | number | Date | null;

export const cellText = (cell: Cell): string =>
  cell === null ? '' : cell instanceof Date ? cell.toISOString() : String(cell).trim();

/**
 * A number: `12.5`, `12,5`, `1.234,5`, `1,234.5`. The last of a point and a comma is the decimal
 * separator; a lone comma is a decimal comma unless it groups thousands twice or more (`1,234,567`).
 * Null when the cell holds no number.
 */
export function readNumber(cell: Cell): number | null {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  if (cell === null || cell instanceof Date) return null;
  let text = cell.trim().replace(/[\s\u00a0']/g, '');
  if (text === '') return null;
  const lastComma = text.lastIndexOf(',');
  const lastPoint = text.lastIndexOf('.');
  if (lastComma >= 0 && lastPoint >= 0) {
    text =
      lastComma > lastPoint ? text.replace(/\./g, '').replace(',', '.') : text.replace(/,/g, '');
  } else if (lastComma >= 0) {
    text = /^-?\d{1,3}(,\d{3}){2,}$/.test(text) ? text.replace(/,/g, '') : text.replace(',', '.');
  }
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(text)) return null;
  return Number(text);
}

const ISO_DATE =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const NUMERIC_DATE =
  /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp]\.?[Mm]\.?)?)?$/;
/** Excel's day 0 is 1899-12-30 (its 1900 leap-year bug included); these serials are the years 1954–2119. */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const EXCEL_SERIALS = [20_000, 80_000] as const;

/** What a file's numeric dates say of their order: a first part over 12 is a day, a second part over 12 too. */
export interface DateOrderVotes {
  dayFirst: number;
  monthFirst: number;
  /** AM/PM is written the US way, month first. */
  meridiem: number;
}

export const noVotes = (): DateOrderVotes => ({ dayFirst: 0, monthFirst: 0, meridiem: 0 });

export function voteDateOrder(cell: Cell, votes: DateOrderVotes): void {
  if (typeof cell !== 'string') return;
  const match = NUMERIC_DATE.exec(cell.trim());
  if (!match) return;
  if (Number(match[1]) > 12) votes.dayFirst += 1;
  if (Number(match[2]) > 12) votes.monthFirst += 1;
  if (match[7]) votes.meridiem += 1;
}

/** The order of a file's dates: its values decide, a file that could be either follows IMPORT_DATE_ORDER. */
export function decideDateOrder(votes: DateOrderVotes, fallback: ImportDateOrder): ImportDateOrder {
  if (votes.dayFirst > votes.monthFirst) return 'day-first';
  if (votes.monthFirst > votes.dayFirst) return 'month-first';
  if (votes.meridiem > 0) return 'month-first';
  return fallback;
}

function utc(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
): Date | null {
  const time = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // 31-02-2026 rolls over into March: no such date.
  if (
    time.getUTCFullYear() !== year ||
    time.getUTCMonth() !== month - 1 ||
    time.getUTCDate() !== day
  )
    return null;
  return time;
}

/**
 * A date cell: a spreadsheet date, an Excel serial number, ISO text, or numeric text in the file's
 * order. Null when it is none.
 */
export function readDate(cell: Cell, order: ImportDateOrder): Date | null {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? null : cell;
  if (typeof cell === 'number') {
    if (cell < EXCEL_SERIALS[0] || cell > EXCEL_SERIALS[1]) return null;
    return new Date(EXCEL_EPOCH_MS + Math.round(cell * 86_400_000));
  }
  const text = (cell ?? '').trim();
  const iso = ISO_DATE.exec(text);
  if (iso) {
    if (iso[7]) {
      const time = new Date(text.replace(' ', 'T'));
      return Number.isNaN(time.getTime()) ? null : time;
    }
    return utc(
      Number(iso[1]),
      Number(iso[2]),
      Number(iso[3]),
      Number(iso[4] ?? 0),
      Number(iso[5] ?? 0),
      Number(iso[6] ?? 0),
    );
  }
  const numeric = NUMERIC_DATE.exec(text);
  if (!numeric) return null;
  const [first, second] = [Number(numeric[1]), Number(numeric[2])];
  const [month, day] = order === 'month-first' ? [first, second] : [second, first];
  const year = numeric[3]!.length === 2 ? 2000 + Number(numeric[3]) : Number(numeric[3]);
  let hour = Number(numeric[4] ?? 0);
  const meridiem = numeric[7]?.toLowerCase().replace(/\./g, '');
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  }
  if (hour > 23) return null;
  return utc(year, month, day, hour, Number(numeric[5] ?? 0), Number(numeric[6] ?? 0));
}
