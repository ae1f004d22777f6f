/**
 * The receipt details modal: the receipt's facts, its packages and their totals, the customer's
 * pre-alerts of them, its photos and documents, and its status history. The list's row shows at
 * once; the details (with the history) come from GET /api/receipts/{id}, and the photos and
 * documents from their own call, through the screen's caches.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { packageTotals, packageViews, receiptFacts } from '~/shared/receipt-view';
import type { ReceiptWithPrealerts } from '~/shared/prealerts';
import type { Receipt } from '~/shared/receipts';
import type { Query } from '~/stores/query-cache';
import { LocalDate } from '../common/LocalDate';
import { Modal } from '../common/Modal';
import { PhotoViewer, photoViewerTitle, type OpenPhoto } from './PhotoViewer';
import { ReceiptAttachments, type ReceiptAttachmentsAnswer } from './ReceiptAttachments';
import { ReceiptPrealerts } from './ReceiptPrealerts';
import { ShareReceipt } from './ShareReceipt';
import { StatusTimeline } from './StatusTimeline';

interface ReceiptDetailsModalProps {
  /** The list's row, shown while the details load. */
  receipt: Receipt;
  /** The details, keyed by receipt id; the screen has asked it to show this receipt's. */
  details: Query<ReceiptWithPrealerts>;
  /** Its photos and documents, keyed by receipt id; the screen has asked it to show this receipt's. */
  attachments: Query<ReceiptAttachmentsAnswer>;
  onClose: () => void;
}

export function ReceiptDetailsModal({
  receipt,
  details,
  attachments,
  onClose,
}: ReceiptDetailsModalProps) {
  const state = useStore(details.$state);
  // While another receipt's details are still shown by the cache, this one's are not there yet.
  const loaded = state.data?.id === receipt.id ? state.data : undefined;
  const failed = !loaded && state.key === String(receipt.id) && state.error !== undefined;
  const shown = loaded ?? receipt;
  const packages = packageViews(shown.commodities);
  // A photo opened larger takes the details' place in the same dialog: closing it goes back to them.
  const [photo, setPhoto] = useState<OpenPhoto | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (photo) returnFocus.current = photo.opener;
    else returnFocus.current?.focus();
  }, [photo]);
  const closePhoto = () => setPhoto(null);

  return (
    <Modal
      title={photo ? photoViewerTitle(photo) : m.receipts_details_title()}
      onClose={photo ? closePhoto : onClose}
    >
      {photo && <PhotoViewer photo={photo.photo} onBack={closePhoto} />}
      {/* Hidden, not removed, while a photo shows: the thumbnail that opened it gets the focus back. */}
      <div hidden={photo !== null}>
        <dl className="grid grid-cols-1 gap-3 text-sm md:grid-cols-2">
          {receiptFacts(shown).map((fact) => (
            <div key={fact.label} className="min-w-0">
              <dt className="opacity-60">{fact.label}</dt>
              <dd className="font-medium">
                {fact.dateTime === undefined ? fact.text : <LocalDate value={fact.dateTime} />}
              </dd>
            </div>
          ))}
        </dl>

        <h3 className="mt-4 mb-2 font-semibold">{m.receipts_packages()}</h3>
        {packages.length === 0 ? (
          <p className="py-4 text-center text-sm opacity-70">{m.receipts_no_packages()}</p>
        ) : (
          <>
            <ul className="flex flex-col gap-2" aria-label={m.receipts_packages()}>
              {packages.map((view, index) => (
                <li key={index} className="rounded-box border border-base-content/10 p-3 text-sm">
                  <p className="font-medium">{view.description}</p>
                  <p className="opacity-70">
                    {m.receipts_package_tracking()}{' '}
                    <span className="break-all">{view.trackingNumber}</span>
                  </p>
                  <p className="mt-1 flex flex-wrap gap-x-4 opacity-80 tabular-nums">
                    <span>{view.pieces}</span>
                    <span>{view.weight}</span>
                    <span>{view.volume}</span>
                  </p>
                </li>
              ))}
            </ul>
            <dl
              className="mt-4 grid grid-cols-3 gap-2 rounded-box border border-base-content/10 p-3 text-sm tabular-nums"
              aria-label={m.receipts_package_totals()}
            >
              {packageTotals(shown.commodities).map((total) => (
                <div key={total.label}>
                  <dt className="opacity-60">{total.label}</dt>
                  <dd className="font-semibold">{total.text}</dd>
                </div>
              ))}
            </dl>
          </>
        )}

        {/* An answer the offline cache kept from before pre-alerts has none. */}
        {loaded && <ReceiptPrealerts prealerts={loaded.prealerts ?? []} />}

        <ReceiptAttachments
          receiptId={receipt.id}
          receiptNumber={receipt.number}
          attachments={attachments}
          onOpenPhoto={setPhoto}
        />

        <h3 className="mt-4 mb-2 font-semibold">{m.history_title()}</h3>
        {loaded ? (
          <StatusTimeline history={loaded.history} />
        ) : failed ? (
          <div role="alert" className="flex flex-wrap items-center gap-3 text-sm">
            <span className="text-error">{m.history_load_failed()}</span>
            <button type="button" className="btn btn-sm btn-outline" onClick={details.refetch}>
              {m.common_retry()}
            </button>
          </div>
        ) : (
          <div className="flex justify-center py-4">
            <span
              className="loading loading-spinner"
              role="status"
              aria-label={m.history_loading()}
            />
          </div>
        )}

        <ShareReceipt key={receipt.id} receiptId={receipt.id} />
      </div>
    </Modal>
  );
}
