/**
 * The pre-alerts a receipt's packages came for, as a receipt shows them (GET /api/receipts/{id}, the
 * receipt page, a webhook's receipt). Its own module so that the pre-alerts service and the webhook
 * events, which the pre-alerts service calls, both read them without importing each other.
 */
import { QueryTypes, type Transaction } from 'sequelize';
import { centsToDollars, type InvoiceInfo, type ReceiptPrealert } from '~/shared/prealerts';
import type { Carrier } from '~/shared/prealert-view';
import type { Database } from '../../db/database';

/** A pre-alert row's invoice columns. */
type InvoiceColumns = {
  invoiceFileName: string | null;
  invoiceOriginalName: string | null;
  invoiceContentType: string | null;
  invoiceSize: number | string | null;
};

/** What the pre-alert says of its invoice: its uploaded name, type and size, or null without one. */
export function invoiceInfoOf(row: InvoiceColumns): InvoiceInfo | null {
  if (row.invoiceFileName === null) return null;
  return {
    fileName: row.invoiceOriginalName ?? '',
    contentType: row.invoiceContentType ?? '',
    size: Number(row.invoiceSize ?? 0),
  };
}

interface ReceiptPrealertRow {
  id: number;
  receiptId: number;
  carrier: Carrier;
  trackingNumber: string;
  shipper: string;
  description: string;
  declaredValueCents: number | string;
  invoiceFileName: string | null;
  invoiceOriginalName: string | null;
  invoiceContentType: string | null;
  invoiceSize: number | string | null;
}

/** The linked pre-alerts of these receipts, by receipt id (only those of the receipt's own consignee). */
export async function readReceiptPrealerts(
  { db }: { db: Database },
  receiptIds: number[],
  transaction?: Transaction,
): Promise<Map<number, ReceiptPrealert[]>> {
  const byReceipt = new Map<number, ReceiptPrealert[]>(receiptIds.map((id) => [id, []]));
  if (receiptIds.length === 0) return byReceipt;
  const rows = await db.sequelize.query<ReceiptPrealertRow>(
    `SELECT p."id", p."receiptId", p."carrier", p."trackingNumber", p."shipper",
            p."description", p."declaredValueCents",
            p."invoiceFileName", p."invoiceOriginalName", p."invoiceContentType", p."invoiceSize"
       FROM "prealerts" p
       JOIN "receipts" r ON r."id" = p."receiptId" AND r."consigneeId" = p."consigneeId"
      WHERE p."receiptId" IN (:receiptIds)
      ORDER BY p."id" ASC`,
    { replacements: { receiptIds }, type: QueryTypes.SELECT, transaction },
  );
  for (const row of rows) {
    const invoice = invoiceInfoOf(row);
    byReceipt.get(Number(row.receiptId))?.push({
      id: Number(row.id),
      carrier: row.carrier,
      trackingNumber: row.trackingNumber,
      shipper: row.shipper,
      description: row.description,
      declaredValue: centsToDollars(Number(row.declaredValueCents)),
      hasInvoice: invoice !== null,
      invoice,
    });
  }
  return byReceipt;
}
