/** An import's row errors as a CSV a spreadsheet opens: cells that look like formulas stay text (csv.ts). */
import { m } from '~/paraglide/messages.js';
import type { ImportRowError } from '~/shared/imports';
import { csvLines, UTF8_BOM } from '../../csv';

export function importErrorsCsv(errors: readonly ImportRowError[]): string {
  return (
    UTF8_BOM +
    csvLines([
      [m.import_column_row(), m.import_column_column(), m.import_column_message()],
      ...errors.map((error) => [error.row, error.column, error.message]),
    ])
  );
}
