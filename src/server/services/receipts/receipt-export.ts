/**
 * The receipt list as a CSV file: every receipt the list's filters match in the user's scope, in the
 * list's order. The ids are read at once (a number each); the rows are read and written a batch at a
 * time as the client takes them, so an export of any size holds one batch in memory.
 */
import { m } from '~/paraglide/messages.js';
import { getLocale } from '~/paraglide/runtime.js';
import { statusLabel, transportLabel } from '~/shared/format';
import type { ReceiptExportQuery } from '~/shared/receipts';
import type { PublicUser } from '~/shared/validation';
import { csvLines, UTF8_BOM, type CsvCell } from '../../csv';
import { inLocale } from '../../locale';
import type { Clock } from '../../clock';
import {
  matchesInOrder,
  receiptFieldsByIds,
  requireMirror,
  visibleConsigneeIds,
  type ReceiptDeps,
  type ReceiptFields,
} from './receipts';

export const EXPORT_BATCH_SIZE = 1_000;

function headerRow(): CsvCell[] {
  return [
    m.export_column_received_date(),
    m.export_column_number(),
    m.export_column_shipper(),
    m.export_column_consignee(),
    m.export_column_pieces(),
    m.export_column_weight(),
    m.export_column_volume(),
    m.export_column_destination(),
    m.export_column_status(),
    m.export_column_mode(),
    m.export_column_origin(),
  ];
}

/**
 * Dates in ISO 8601 and numbers as they are (dot decimals), so that any spreadsheet reads them; the
 * status in the reader's language.
 */
function receiptRow(receipt: ReceiptFields): CsvCell[] {
  return [
    receipt.receivedDate,
    receipt.number,
    receipt.shipperName,
    receipt.consigneeName,
    receipt.pieces,
    receipt.totalWeightValue,
    receipt.totalVolumeValue,
    receipt.destination,
    statusLabel(receipt.status),
    transportLabel(receipt.modeOfTransportation),
    receipt.origin.name,
  ];
}

export interface ReceiptExport {
  /** `receipts-YYYY-MM-DD.csv`, the day of the export. */
  filename: string;
  /** The UTF-8 CSV text: the mark, the header row, a row per receipt. */
  body: ReadableStream<Uint8Array>;
}

export async function exportReceipts(
  deps: ReceiptDeps & { clock: Clock },
  user: PublicUser,
  query: ReceiptExportQuery,
): Promise<ReceiptExport> {
  const now = new Date(deps.clock.now());
  await requireMirror(deps);
  const consigneeIds = await visibleConsigneeIds(deps, user);
  const ids = (await matchesInOrder(deps, consigneeIds, query)).page(query.sortOrder === 'asc', {
    offset: 0,
    limit: Infinity,
  });
  // The stream is read after the request's handler has returned: its texts are built in the
  // request's language explicitly.
  const locale = getLocale();
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(UTF8_BOM + csvLines([inLocale(locale, headerRow)])));
    },
    // Called when the one queued batch has been taken: the client's pace sets the database's.
    async pull(controller) {
      if (next >= ids.length) return controller.close();
      const batch = ids.slice(next, next + EXPORT_BATCH_SIZE);
      next += batch.length;
      const receipts = await receiptFieldsByIds(deps, batch, consigneeIds);
      // A receipt a sync deleted or gave to another consignee since its id was read is left out.
      const rows = inLocale(locale, () =>
        batch.flatMap((id) => {
          const receipt = receipts.get(id);
          return receipt ? [receiptRow(receipt)] : [];
        }),
      );
      controller.enqueue(encoder.encode(csvLines(rows)));
    },
  });
  return { filename: `receipts-${now.toISOString().slice(0, 10)}.csv`, body };
}
