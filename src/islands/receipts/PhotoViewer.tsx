/**
 * A receipt's photo, larger: shown by the receipt details modal in place of the details (one dialog,
 * so Escape and the close button step back to the details first), with the original to download.
 */
import { m } from '~/paraglide/messages.js';
import { LARGE_PREVIEW, type PhotoView } from '~/shared/attachment-view';
import { formatFileSize } from '~/shared/format';

export interface OpenPhoto {
  photo: PhotoView;
  /** 1-based, of `count`. */
  position: number;
  count: number;
  /** The thumbnail's link that opened it: focus goes back there. */
  opener: HTMLElement;
}

export const photoViewerTitle = ({ position, count }: Pick<OpenPhoto, 'position' | 'count'>) =>
  m.attachment_viewer_title({ position: String(position), count: String(count) });

export function PhotoViewer({ photo, onBack }: { photo: PhotoView; onBack: () => void }) {
  return (
    <div className="flex flex-col gap-3">
      {/* The larger view of a 4:3 camera photo until its own size is known. */}
      <img
        src={photo.largeUrl}
        alt={photo.alt}
        width={LARGE_PREVIEW.width}
        height={(LARGE_PREVIEW.width * 3) / 4}
        className="h-auto w-full rounded-box bg-base-200"
      />
      <p className="min-w-0 text-sm break-words opacity-70">{photo.fileName}</p>
      <div className="flex flex-wrap gap-2">
        {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the details it replaced had the focus */}
        <button type="button" className="btn btn-sm btn-primary" onClick={onBack} autoFocus>
          {m.attachment_back()}
        </button>
        <a href={photo.url} download={photo.fileName} className="btn btn-sm btn-outline">
          {m.attachment_download_original({ size: formatFileSize(photo.size) })}
        </a>
      </div>
    </div>
  );
}
