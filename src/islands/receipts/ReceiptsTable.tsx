/** The receipt table of spec "Receipts": ten columns, the status as a coloured map button, View for the details. */
import { formatCount, formatVolume, formatWeight, statusTone, type StatusTone } from '~/shared/format';
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

/**
 * Below 1024 px (the spec's mobile breakpoint) a row becomes a card and every cell shows its column name above its value
 * (from data-label), so a phone reads the receipts without scrolling sideways.
 */
const CARD_CELL = 'max-lg:block max-lg:border-0 max-lg:p-0 max-lg:text-left max-lg:before:block max-lg:before:text-xs max-lg:before:opacity-60 max-lg:before:content-[attr(data-label)]';

interface ReceiptsTableProps {
  receipts: Receipt[];
  onShowMap: (receipt: Receipt) => void;
  onShowDetails: (receipt: Receipt) => void;
}

export function ReceiptsTable({ receipts, onShowMap, onShowDetails }: ReceiptsTableProps) {
  return (
    <div className="overflow-x-auto">
      <table className="table table-sm max-lg:block [&_td]:px-2 [&_th]:px-2 [&_th]:whitespace-normal">
        <thead className="max-lg:hidden">
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
        <tbody className="max-lg:block">
          {receipts.map((receipt) => (
            <tr key={receipt.id} className="hover:bg-base-content/5 max-lg:grid max-lg:grid-cols-2 sm:max-lg:grid-cols-4 max-lg:gap-x-4 max-lg:gap-y-2 max-lg:border-b max-lg:border-base-content/10 max-lg:px-4 max-lg:py-3">
              <td className={`whitespace-nowrap ${CARD_CELL}`} data-label="Received Date">
                <LocalDate value={receipt.receivedDate} />
              </td>
              <td className={`font-medium whitespace-nowrap ${CARD_CELL}`} data-label="Receipt #">
                {receipt.number}
              </td>
              <td className={`min-w-32 ${CARD_CELL}`} data-label="Shipper">
                {receipt.shipperName}
              </td>
              <td className={`min-w-32 ${CARD_CELL}`} data-label="Consignee">
                {receipt.consigneeName}
              </td>
              <td className={`text-right tabular-nums ${CARD_CELL}`} data-label="Pieces">
                {formatCount(receipt.pieces)}
              </td>
              <td className={`text-right whitespace-nowrap tabular-nums ${CARD_CELL}`} data-label="Weight (lbs)">
                {formatWeight(receipt.totalWeightValue)}
              </td>
              <td className={`text-right whitespace-nowrap tabular-nums ${CARD_CELL}`} data-label="Volume (ft³)">
                {formatVolume(receipt.totalVolumeValue)}
              </td>
              <td className={`min-w-32 ${CARD_CELL}`} data-label="Destination">
                {receipt.destination}
              </td>
              <td className="max-lg:block max-lg:border-0 max-lg:p-0">
                <button
                  type="button"
                  className={`badge badge-soft h-auto max-w-32 cursor-pointer py-1 text-xs leading-tight font-medium ${TONE_BADGE[statusTone(receipt.status)]}`}
                  title="Show tracking map"
                  onClick={() => onShowMap(receipt)}
                >
                  {receipt.status}
                </button>
              </td>
              <td className="max-lg:block max-lg:border-0 max-lg:p-0 max-lg:text-right sm:max-lg:col-span-3">
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
