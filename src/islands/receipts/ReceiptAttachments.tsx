/**
 * "Photos and documents" in the receipt details modal: the list from GET /api/receipts/{id}/attachments
 * through the screen's cache (a photo opens in the modal's viewer), and why nothing shows when the list
 * cannot be had.
 */
import { useStore } from '@nanostores/react';
import { m } from '~/paraglide/messages.js';
import { ApiError, apiBody, errorText } from '~/shared/api-client';
import type { AttachmentListMeta, AttachmentSummary } from '~/shared/attachments';
import type { Query } from '~/stores/query-cache';
import { WarningIcon } from '../common/icons';
import { AttachmentList } from './AttachmentList';
import type { OpenPhoto } from './PhotoViewer';

/** One receipt's answer, marked with its id: the cache may still show another receipt's while this one loads. */
export interface ReceiptAttachmentsAnswer {
  receiptId: number;
  attachments: AttachmentSummary[];
  meta: AttachmentListMeta;
}

export async function loadReceiptAttachments(id: string): Promise<ReceiptAttachmentsAnswer> {
  const answer = await apiBody('GET', `/receipts/${id}/attachments`);
  return { receiptId: Number(id), attachments: answer.data, meta: answer.meta };
}

interface ReceiptAttachmentsProps {
  receiptId: number;
  receiptNumber: string;
  /** The lists, keyed by receipt id; the screen has asked it to show this receipt's. */
  attachments: Query<ReceiptAttachmentsAnswer>;
  onOpenPhoto: (open: OpenPhoto) => void;
}

export function ReceiptAttachments({
  receiptId,
  receiptNumber,
  attachments,
  onOpenPhoto,
}: ReceiptAttachmentsProps) {
  const state = useStore(attachments.$state);
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
            onOpenPhoto={(photo, index, count, opener) =>
              onOpenPhoto({ photo, position: index + 1, count, opener })
            }
          />
        </>
      ) : failed ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm">
          <span className="text-error">
            {state.error instanceof ApiError && state.error.isExternal
              ? errorText(state.error)
              : m.attachment_load_failed()}
          </span>
          <button type="button" className="btn btn-sm btn-outline" onClick={attachments.refetch}>
            {m.common_retry()}
          </button>
        </div>
      ) : (
        <div className="flex justify-center py-4">
          <span
            className="loading loading-spinner"
            role="status"
            aria-label={m.attachment_loading()}
          />
        </div>
      )}
    </section>
  );
}
