/** CSV files for spreadsheets: RFC 4180 by csv-stringify, and no cell a spreadsheet would run as a formula. */
import { stringify } from 'csv-stringify/sync';

/** Excel and LibreOffice read a UTF-8 CSV as UTF-8 (not the system code page) only with this mark. */
export const UTF8_BOM = '\uFEFF';

export type CsvCell = string | number;

/** A text starting with one of these is run as a formula by spreadsheets (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell that would start a formula gets a leading apostrophe, which spreadsheets show as text; numbers stay numbers. */
export function neutralizeFormula(cell: CsvCell): CsvCell {
  return typeof cell === 'string' && FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/**
 * Rows as CSV lines ending in CRLF; a cell with a comma, a double quote or a line break is quoted
 * (RFC 4180). csv-stringify quotes line breaks by itself only when they are its own record delimiter,
 * so CR and LF are named.
 */
export function csvLines(rows: CsvCell[][]): string {
  return stringify(
    rows.map((row) => row.map(neutralizeFormula)),
    { record_delimiter: 'windows', quoted_match: /[\r\n]/ },
  );
}
