/**
 * A receipt's photos and documents as the API answers them: `GET /api/receipts/{id}/attachments` lists
 * them, `GET /api/attachments/{id}` sends one (`?size=thumb` or `?size=large`: a photo's previews).
 * The island imports only types from here (zod stays on the server); what the screens show of them,
 * and the previews' sizes, are in attachment-view.ts.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';

/** What the provider says an attachment is (docs/provider-api.md). */
export const ATTACHMENT_KINDS = ['photo', 'invoice', 'pod', 'other'] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

/** A photo's previews: the thumbnail of the lists, and the larger view it opens. */
export const ATTACHMENT_PREVIEW_SIZES = ['thumb', 'large'] as const;
export type AttachmentPreviewSize = (typeof ATTACHMENT_PREVIEW_SIZES)[number];

export const attachmentSummarySchema = z.object({
  /** The portal's id: `url` and `thumbnailUrl` name it. */
  id: z.number(),
  kind: z.enum(ATTACHMENT_KINDS),
  fileName: z.string(),
  /** As the provider declared it; the download is sent with the type its bytes are. */
  contentType: z.string(),
  /** Bytes, as the provider listed it. */
  size: z.number(),
  url: z.string(),
  /** A photo's thumbnail (WebP); null for a document, or a photo that cannot be made smaller. */
  thumbnailUrl: z.nullable(z.string()),
  /** A photo's larger view (WebP); null when thumbnailUrl is. */
  largeUrl: z.nullable(z.string()),
});
export type AttachmentSummary = z.infer<typeof attachmentSummarySchema>;

/**
 * Beside the list: when the provider was last asked, and whether this is an older list because it
 * could not be asked now.
 */
export const attachmentListMetaSchema = z.object({ checkedAt: z.string(), stale: z.boolean() });
export type AttachmentListMeta = z.infer<typeof attachmentListMetaSchema>;

const sizeRefused = () => m.attachment_size_invalid();

/** `GET /api/attachments/{id}`'s query: no `size` is the file itself. */
export const attachmentQuerySchema = z.object({
  size: z.optional(z.enum(ATTACHMENT_PREVIEW_SIZES, { error: sizeRefused })),
});
export type AttachmentQuery = z.output<typeof attachmentQuerySchema>;
