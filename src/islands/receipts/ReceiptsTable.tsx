/** The receipt table of spec "Receipts": ten columns, the status as a coloured map button, View for the details. */
import { formatCount, formatNumber, statusTone, type StatusTone } from '~/shared/format';
import type { Receipt } from '~/shared/receipts';
import { LocalDate } from '../common/LocalDate';

/** Spec section 4: In-Transit blue, Delivered green, On-Hold yellow, Cancelled red, anything else grey. */
const TONE_BADGE: Record<StatusTone, string> = {
  info: 'badge-info',
  success: 'badge-success',
  warning: 'badge-warning',
  error: 'badge-error',
  neutral: '',
};

interface ReceiptsTableProps {
  receipts: Receipt[];
  onShowMap: (receipt: Receipt) => void;
  onShowDetails: (receipt: Receipt) => void;
}

export function ReceiptsTable({ receipts, onShowMap, onShowDetails }: ReceiptsTableProps) {
  return (
    <div className="overflow-x-auto">
      <table className="table table-sm [&_td]:px-2 [&_th]:px-2 [&_th]:whitespace-normal">
        <thead>
          <tr>
            <th scope="col">Received Date</th>
            <th scope="col">Receipt #</th>
            <th scope="col">Shipper</th>
            <th scope="col">Consignee</th>
            <th scope="col" className="text-right">
              Pieces
            </th>
            <th scope="col" className="text-right">
              Weight (lbs)
            </th>
            <th scope="col" className="text-right">
              Volume (ft³)
            </th>
            <th scope="col">Destination</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {receipts.map((receipt) => (
            <tr key={receipt.id} className="hover:bg-base-content/5">
              <td className="whitespace-nowrap">
                <LocalDate value={receipt.receivedDate} />
              </td>
              <td className="font-medium whitespace-nowrap">{receipt.number}</td>
              <td className="min-w-32">{receipt.shipperName}</td>
              <td className="min-w-32">{receipt.consigneeName}</td>
              <td className="text-right tabular-nums">{formatCount(receipt.pieces)}</td>
              <td className="text-right whitespace-nowrap tabular-nums">{formatNumber(receipt.totalWeightValue)}</td>
              <td className="text-right whitespace-nowrap tabular-nums">{formatNumber(receipt.totalVolumeValue)}</td>
              <td className="min-w-32">{receipt.destination}</td>
              <td>
                <button
                  type="button"
                  className={`badge badge-soft h-auto max-w-32 cursor-pointer py-1 text-xs leading-tight font-medium ${TONE_BADGE[statusTone(receipt.status)]}`}
                  title="Show tracking map"
                  onClick={() => onShowMap(receipt)}
                >
                  {receipt.status}
                </button>
              </td>
              <td>
                <button type="button" className="btn btn-outline btn-sm" disabled={receipt.commodities.length === 0} onClick={() => onShowDetails(receipt)}>
                  View
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
