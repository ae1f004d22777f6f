/** The receipt answers src/shared/receipts.ts has no schema for, for the API description and its tests. */
import * as z from 'zod/mini';
import { pageEnvelopeWithMeta, schemaOf } from '../envelope';
import {
  listMetaSchema,
  receiptSchema,
  type PackageScanResult,
  type ReceiptList,
} from '../receipts';

/** `{ success: true, data, pagination, meta }`: the page listReceipts answers, in the envelope. */
export const receiptListSchema = schemaOf<ReceiptList & { success: true }>()(
  pageEnvelopeWithMeta(receiptSchema, listMetaSchema),
);

/** A warehouse scan: the provider's fields as it sends them. */
export const packageScanSchema = schemaOf<PackageScanResult>()(
  z.catchall(z.object({ scanned_at: z.optional(z.string()) }), z.unknown()),
);
