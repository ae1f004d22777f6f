/**
 * A receipt's photos and documents: the photos as thumbnails, each a link to its larger view, and the
 * documents with their kind, size and a download. The details modal shows it (and opens a photo in its
 * viewer instead of following the link); the receipt page renders it on the server only (no island).
 */
import { m } from '~/paraglide/messages.js';
import { attachmentViews, THUMBNAIL_DISPLAY, type PhotoView } from '~/shared/attachment-view';
import type { AttachmentSummary } from '~/shared/attachments';
import { DocumentIcon } from '../common/icons';

interface AttachmentListProps {
  attachments: readonly AttachmentSummary[];
  receiptNumber: string;
  /** Opens a photo in place; without it the thumbnail's link goes to the larger view. */
  onOpenPhoto?: (photo: PhotoView, index: number, count: number, opener: HTMLElement) => void;
}

export function AttachmentList({ attachments, receiptNumber, onOpenPhoto }: AttachmentListProps) {
  const { photos, documents } = attachmentViews(attachments, receiptNumber);
  if (photos.length === 0 && documents.length === 0)
    return <p className="py-2 text-sm opacity-70">{m.attachment_none()}</p>;
  return (
    <div className="flex flex-col gap-3">
      {photos.length > 0 && (
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4" aria-label={m.attachment_photos()}>
          {photos.map((photo, index) => (
            <li key={photo.id}>
              <a
                href={photo.largeUrl}
                className="block overflow-hidden rounded-box border border-base-content/10 bg-base-200"
                onClick={
                  onOpenPhoto &&
                  ((event) => {
                    event.preventDefault();
                    onOpenPhoto(photo, index, photos.length, event.currentTarget);
                  })
                }
              >
                <img
                  src={photo.thumbnailUrl}
                  alt={photo.alt}
                  width={THUMBNAIL_DISPLAY.width}
                  height={THUMBNAIL_DISPLAY.height}
                  loading="lazy"
                  decoding="async"
                  className="aspect-[4/3] h-auto w-full object-cover"
                />
              </a>
            </li>
          ))}
        </ul>
      )}
      {documents.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label={m.attachment_documents()}>
          {documents.map((document) => (
            <li
              key={document.id}
              className="flex items-center gap-3 rounded-box border border-base-content/10 p-3 text-sm"
            >
              <DocumentIcon className="size-5 shrink-0 opacity-70" />
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words">{document.fileName}</p>
                <p className="opacity-70">{document.detail}</p>
              </div>
              <a
                href={document.url}
                download={document.fileName}
                className="btn shrink-0 btn-outline btn-sm"
                aria-label={document.downloadLabel}
              >
                {m.attachment_download()}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
