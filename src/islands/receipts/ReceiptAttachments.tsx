/**
 * "Photos and documents" in the receipt details modal: the list from GET /api/receipts/{id}/attachments
 * through the screen's cache, a photo opened in a viewer of its own (its larger view, and the original
 * to download), and why nothing shows when the list cannot be had.
 */
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { ApiError, apiBody, errorText } from '~/shared/api-client';
import type { PhotoView } from '~/shared/attachment-view';
import { LARGE_PREVIEW, type AttachmentListMeta, type AttachmentSummary } from '~/shared/attachments';
import { formatFileSize } from '~/shared/format';
import type { Query } from '~/stores/query-cache';
import { WarningIcon } from '../common/icons';
import { Modal } from '../common/Modal';
import { AttachmentList } from './AttachmentList';

/** One receipt's answer, marked with its id: the cache may still show another receipt's while this one loads. */
export interface ReceiptAttachmentList {
  receiptId: number;
  attachments: AttachmentSummary[];
  meta: AttachmentListMeta;
}

export async function loadReceiptAttachments(id: string): Promise<ReceiptAttachmentList> {
  const answer = await apiBody<{ data: AttachmentSummary[]; meta: AttachmentListMeta }>('GET', `/receipts/${id}/attachments`);
  return { receiptId: Number(id), attachments: answer.data, meta: answer.meta };
}

interface ReceiptAttachmentsProps {
  receiptId: number;
  receiptNumber: string;
  /** The lists, keyed by receipt id; the screen has asked it to show this receipt's. */
  attachments: Query<ReceiptAttachmentList>;
}

interface OpenPhoto {
  photo: PhotoView;
  position: number;
  count: number;
}

export function ReceiptAttachments({ receiptId, receiptNumber, attachments }: ReceiptAttachmentsProps) {
  const state = useStore(attachments.$state);
  const [open, setOpen] = useState<OpenPhoto | null>(null);
  const loaded = state.data?.receiptId === receiptId ? state.data : undefined;
  const failed = !loaded && state.key === String(receiptId) && state.error !== undefined;

  return (
    <section className="mt-4" aria-labelledby={`attachments-${receiptId}`}>
      <h3 id={`attachments-${receiptId}`} className="mb-2 font-semibold">
        {m.attachment_title()}
      </h3>
      {loaded ? (
        <>
          {loaded.meta.stale && (
            <p role="status" className="mb-2 flex items-start gap-2 text-sm">
              <WarningIcon className="mt-0.5 size-4 shrink-0" />
              {m.attachment_stale()}
            </p>
          )}
          <AttachmentList
            attachments={loaded.attachments}
            receiptNumber={receiptNumber}
            onOpenPhoto={(photo, index, count) => setOpen({ photo, position: index + 1, count })}
          />
        </>
      ) : failed ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm">
          <span className="text-error">{state.error instanceof ApiError && state.error.isExternal ? errorText(state.error) : m.attachment_load_failed()}</span>
          <button type="button" className="btn btn-sm btn-outline" onClick={attachments.refetch}>
            {m.common_retry()}
          </button>
        </div>
      ) : (
        <div className="flex justify-center py-4">
          <span className="loading loading-spinner" role="status" aria-label={m.attachment_loading()} />
        </div>
      )}
      {open && <PhotoViewer {...open} onClose={() => setOpen(null)} />}
    </section>
  );
}

function PhotoViewer({ photo, position, count, onClose }: OpenPhoto & { onClose: () => void }) {
  return (
    <Modal title={m.attachment_viewer_title({ position: String(position), count: String(count) })} onClose={onClose} wide>
      <img
        src={photo.largeUrl}
        alt={photo.alt}
        width={LARGE_PREVIEW.width}
        height={(LARGE_PREVIEW.width * 3) / 4}
        className="h-auto w-full rounded-box bg-base-200"
      />
      <p className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="min-w-0 break-all opacity-70">{photo.fileName}</span>
        <a href={photo.url} download={photo.fileName} className="btn btn-sm btn-outline">
          {m.attachment_download_original({ size: formatFileSize(photo.size) })}
        </a>
      </p>
    </Modal>
  );
}
