/**
 * Share links: a customer's read-only link to one receipt's status, `/t/<token>`, for 30 days. The token
 * is stored only as a hash, so a link's address is shown once, when it is made; the list has no address.
 */
import * as z from 'zod/mini';
import { statusHistoryEntrySchema } from './receipts';

export const SHARE_LINK_DAYS = 30;
/** Where a share link leads: the token follows. */
export const SHARE_LINK_PATH = '/t/';
/** A token is 32 random bytes in base64url: 43 characters. */
export const shareTokenSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/));

/**
 * `POST /api/receipts/{id}/share?replace=true`: a new link on purpose, which revokes the caller's link
 * to the receipt that still works. Without it, such a link is a 409 that says when it was made. The
 * receipt page's form sends the same field.
 */
export const shareRequestSchema = z.object({
  replace: z.pipe(
    z.optional(z.enum(['true', 'false'])),
    z.transform((value) => value === 'true'),
  ),
});

/** `POST /api/receipts/{id}/share` answers the new link, with its address: the only time it is shown. */
export const createdShareLinkSchema = z.object({
  id: z.number(),
  url: z.string(),
  expiresAt: z.string(),
});
export type CreatedShareLink = z.infer<typeof createdShareLinkSchema>;

/** One of the caller's active links, as `GET /api/shares` lists them: no address (only its hash is kept). */
export const shareLinkSchema = z.object({
  id: z.number(),
  receiptId: z.number(),
  receiptNumber: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type ShareLinkSummary = z.infer<typeof shareLinkSchema>;

/**
 * What a share link shows anyone: no names, addresses, values, documents or package tracking numbers.
 * The receipt number is no personal data, and the recipient needs it to ask about the shipment.
 */
export const sharedReceiptSchema = z.object({
  number: z.string(),
  status: z.string(),
  history: z.array(statusHistoryEntrySchema),
  origin: z.string(),
  destination: z.string(),
  pieces: z.number(),
  totalWeightValue: z.number(),
  lastSyncedAt: z.nullable(z.string()),
  expiresAt: z.string(),
});
export type SharedReceipt = z.infer<typeof sharedReceiptSchema>;
