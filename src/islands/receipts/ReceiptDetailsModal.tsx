/** Spec "Receipt details modal": the receipt's facts, its packages and their totals. */
import type { ReactNode } from 'react';
import { m } from '~/paraglide/messages.js';
import { formatCount, formatVolume, formatWeight, statusLabel } from '~/shared/format';
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
    [m.receipts_number(), receipt.number],
    [m.receipts_received_date(), <LocalDate value={receipt.receivedDate} />],
    [m.receipts_shipper(), receipt.shipperName],
    [m.receipts_consignee(), receipt.consigneeName],
    [m.receipts_destination(), receipt.destination],
    [m.receipts_status(), statusLabel(receipt.status)],
    [m.receipts_total_pieces(), formatCount(receipt.pieces)],
  ];

  return (
    <Modal title={m.receipts_details_title()} onClose={onClose}>
      <dl className="grid gap-3 text-sm md:grid-cols-2">
        {facts.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="opacity-60">{label}</dt>
            <dd className="font-medium">{value}</dd>
          </div>
        ))}
      </dl>

      <h3 className="mt-4 mb-2 font-semibold">{m.receipts_packages()}</h3>
      {packages.length === 0 ? (
        <p className="py-4 text-center text-sm opacity-70">{m.receipts_no_packages()}</p>
      ) : (
        <>
          <ul className="flex flex-col gap-2" aria-label={m.receipts_packages()}>
            {packages.map((commodity, index) => (
              <li key={index} className="rounded-box border border-base-content/10 p-3 text-sm">
                <p className="font-medium">{commodity.description}</p>
                <p className="opacity-70">
                  {m.receipts_package_tracking()} <span className="break-all">{commodity.trackingNumber || m.format_not_available()}</span>
                </p>
                <p className="mt-1 flex flex-wrap gap-x-4 opacity-80 tabular-nums">
                  <span>{m.receipts_package_pieces({ pieces: formatCount(commodity.pieces) })}</span>
                  <span>{m.receipts_package_weight({ weight: formatWeight(commodity.totalWeightValue) })}</span>
                  <span>{m.receipts_package_volume({ volume: formatVolume(commodity.totalVolumeValue) })}</span>
                </p>
              </li>
            ))}
          </ul>
          <dl className="mt-4 grid grid-cols-3 gap-2 rounded-box border border-base-content/10 p-3 text-sm tabular-nums" aria-label={m.receipts_package_totals()}>
            <div>
              <dt className="opacity-60">{m.receipts_total_pieces()}</dt>
              <dd className="font-semibold">{formatCount(sum((commodity) => commodity.pieces))}</dd>
            </div>
            <div>
              <dt className="opacity-60">{m.receipts_total_weight()}</dt>
              <dd className="font-semibold">{formatWeight(sum((commodity) => commodity.totalWeightValue))}</dd>
            </div>
            <div>
              <dt className="opacity-60">{m.receipts_total_volume()}</dt>
              <dd className="font-semibold">{formatVolume(sum((commodity) => commodity.totalVolumeValue))}</dd>
            </div>
          </dl>
        </>
      )}

      <CloseAction onClose={onClose} />
    </Modal>
  );
}
