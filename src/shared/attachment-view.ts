/**
 * What a receipt's photos and documents show, in the reader's language, and the sizes of a photo's
 * previews. The details modal (React) and the receipt page (rendered on the server) both use it, so
 * they show the same; it carries no zod, so the island stays small.
 */
import { m } from '~/paraglide/messages.js';
import type { AttachmentKind, AttachmentSummary } from './attachments';
import { formatFileSize } from './format';

/**
 * The thumbnail: a phone's list shows three in a row (about 100 CSS px each, 200 device pixels at 2×)
 * and a desktop's page 160 px; WebP, at most 15 KB whatever the photo (a noisy one gets a lower quality).
 */
export const THUMBNAIL = { width: 320, height: 320, maxBytes: 15 * 1024 } as const;
/** The larger view: a phone's screen at 2×, a laptop's at 1×. */
export const LARGE_PREVIEW = { width: 1280, height: 1280 } as const;
/** How the lists lay a thumbnail out before it arrives (4:3, a camera's), so that nothing moves when it does. */
export const THUMBNAIL_DISPLAY = { width: 160, height: 120 } as const;

const KIND_LABELS: Readonly<Record<AttachmentKind, () => string>> = {
  photo: () => m.attachment_kind_photo(),
  invoice: () => m.attachment_kind_invoice(),
  pod: () => m.attachment_kind_pod(),
  other: () => m.attachment_kind_other(),
};

export const attachmentKindLabel = (kind: AttachmentKind) => KIND_LABELS[kind]();

export interface PhotoView {
  id: number;
  thumbnailUrl: string;
  largeUrl: string;
  /** The original, as the provider sent it, and its size in bytes. */
  url: string;
  size: number;
  fileName: string;
  alt: string;
}

export interface DocumentView {
  id: number;
  url: string;
  fileName: string;
  /** Its kind and size: "Proof of delivery · 3.20 KB". */
  detail: string;
  /** The download link's accessible name: names the file. */
  downloadLabel: string;
}

/**
 * Photos that have previews become thumbnails, in the provider's order; everything else (documents, a
 * photo that cannot be shown smaller) is a download.
 */
export function attachmentViews(
  attachments: readonly AttachmentSummary[],
  receiptNumber: string,
): { photos: PhotoView[]; documents: DocumentView[] } {
  const withPreviews = attachments.filter(
    (attachment) => attachment.thumbnailUrl !== null && attachment.largeUrl !== null,
  );
  const photos = withPreviews.map((attachment, index) => ({
    id: attachment.id,
    thumbnailUrl: attachment.thumbnailUrl!,
    largeUrl: attachment.largeUrl!,
    url: attachment.url,
    size: attachment.size,
    fileName: attachment.fileName,
    alt: m.attachment_photo_alt({
      position: String(index + 1),
      count: String(withPreviews.length),
      number: receiptNumber,
    }),
  }));
  const documents = attachments
    .filter((attachment) => !withPreviews.includes(attachment))
    .map((attachment) => ({
      id: attachment.id,
      url: attachment.url,
      fileName: attachment.fileName,
      detail: `${attachmentKindLabel(attachment.kind)} · ${formatFileSize(attachment.size)}`,
      downloadLabel: m.attachment_download_label({ name: attachment.fileName }),
    }));
  return { photos, documents };
}
