/** Spec "Receipt details modal": the receipt's facts, its packages and their totals. */
import type { ReactNode } from 'react';
import { formatCount, formatVolume, formatWeight } from '~/shared/format';
import type { Receipt } from '~/shared/receipts';
import { LocalDate } from '../common/LocalDate';
import { CloseAction, Modal } from '../common/Modal';

interface ReceiptDetailsModalProps {
  receipt: Receipt;
  onClose: () => void;
}

export function ReceiptDetailsModal({ receipt, onClose }: ReceiptDetailsModalProps) {
  const packages = receipt.commodities;
  const sum = (pick: (commodity: Receipt['commodities'][number]) => number) => packages.reduce((total, commodity) => total + pick(commodity), 0);
  const facts: [string, ReactNode][] = [
    ['Receipt #', receipt.number],
    ['Received Date', <LocalDate value={receipt.receivedDate} />],
    ['Shipper', receipt.shipperName],
    ['Consignee', receipt.consigneeName],
    ['Destination', receipt.destination],
    ['Status', receipt.status],
    ['Total Pieces', formatCount(receipt.pieces)],
  ];

  return (
    <Modal title="Receipt Details" onClose={onClose}>
      <dl className="grid gap-3 text-sm md:grid-cols-2">
        {facts.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="opacity-60">{label}</dt>
            <dd className="font-medium">{value}</dd>
          </div>
        ))}
      </dl>

      <h3 className="mt-4 mb-2 font-semibold">Packages</h3>
      {packages.length === 0 ? (
        <p className="py-4 text-center text-sm opacity-70">No packages found for this receipt</p>
      ) : (
        <>
          <ul className="flex flex-col gap-2" aria-label="Packages">
            {packages.map((commodity, index) => (
              <li key={index} className="rounded-box border border-base-content/10 p-3 text-sm">
                <p className="font-medium">{commodity.description}</p>
                <p className="opacity-70">
                  Tracking: <span className="break-all">{commodity.trackingNumber || 'N/A'}</span>
                </p>
                <p className="mt-1 flex flex-wrap gap-x-4 opacity-80 tabular-nums">
                  <span>Pieces: {formatCount(commodity.pieces)}</span>
                  <span>Weight: {formatWeight(commodity.totalWeightValue)}</span>
                  <span>Volume: {formatVolume(commodity.totalVolumeValue)}</span>
                </p>
              </li>
            ))}
          </ul>
          <dl className="mt-4 grid grid-cols-3 gap-2 rounded-box border border-base-content/10 p-3 text-sm tabular-nums" aria-label="Package totals">
            <div>
              <dt className="opacity-60">Total Pieces</dt>
              <dd className="font-semibold">{formatCount(sum((commodity) => commodity.pieces))}</dd>
            </div>
            <div>
              <dt className="opacity-60">Total Weight</dt>
              <dd className="font-semibold">{formatWeight(sum((commodity) => commodity.totalWeightValue))}</dd>
            </div>
            <div>
              <dt className="opacity-60">Total Volume</dt>
              <dd className="font-semibold">{formatVolume(sum((commodity) => commodity.totalVolumeValue))}</dd>
            </div>
          </dl>
        </>
      )}

      <CloseAction onClose={onClose} />
    </Modal>
  );
}
