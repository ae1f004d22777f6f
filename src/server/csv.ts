/** CSV files for spreadsheets: standard CSV by csv-stringify, and no cell a spreadsheet would run as a formula. */
import { stringify } from 'csv-stringify/sync';

/** Excel and LibreOffice read a UTF-8 CSV as UTF-8 (not the system code page) only with this mark. */
export const UTF8_BOM = '\uFEFF';

export type CsvCell = string | number;

/** A text starting with one of these is run as a formula by spreadsheets (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * The places a spreadsheet may start a cell inside one of ours: after any separator it may split on.
 * Dutch Excel opens a CSV on `;`, and no quoting survives that split.
 */
const AFTER_SEPARATOR = /(?<=[,;\t])/;

/**
 * A text cell gets an apostrophe, which spreadsheets show as text, wherever a formula could start: at
 * its start, and after a separator. Numbers stay numbers.
 */
export function neutralizeFormula(cell: CsvCell): CsvCell {
  if (typeof cell !== 'string') return cell;
  return cell
    .split(AFTER_SEPARATOR)
    .map((part) => (FORMULA_START.test(part) ? `'${part}` : part))
    .join('');
}

/**
 * Rows as CSV lines ending in CRLF; a cell with a comma, a double quote or a line break is quoted.
 * csv-stringify quotes line breaks by itself only when they are its own record delimiter,
 * so CR and LF are named.
 */
export function csvLines(rows: CsvCell[][]): string {
  return stringify(
    rows.map((row) => row.map(neutralizeFormula)),
    { record_delimiter: 'windows', quoted_match: /[\r\n]/ },
  );
}
