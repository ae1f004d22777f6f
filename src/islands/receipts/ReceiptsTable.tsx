/**
 * The receipt table of the receipts screen: ten columns, the status as a coloured map button, View for the
 * details: a link to the receipt's page that opens the details modal instead once the island runs.
 */
import { Fragment, type MouseEvent } from 'react';
import { m } from '~/paraglide/messages.js';
import {
  formatCount,
  formatVolume,
  formatWeight,
  statusLabel,
  statusTone,
  type StatusTone,
} from '~/shared/format';
import type { Receipt } from '~/shared/receipts';
import { LocalDate } from '../common/LocalDate';

/**
 * The status colours (statusTone): In-Transit blue, Delivered green, On-Hold yellow, Cancelled red,
 * anything else grey.
 */
const TONE_BADGE: Record<StatusTone, string> = {
  info: 'badge-info',
  success: 'badge-success',
  warning: 'badge-warning',
  error: 'badge-error',
  neutral: '',
};

/**
 * Below 1024 px (MOBILE_BREAKPOINT_PX) a row becomes a card and every cell shows its column name
 * above its value (from data-label), so a phone reads the receipts without scrolling sideways.
 */
const CARD_ROW =
  'hover:bg-base-content/5 max-lg:grid max-lg:grid-cols-2 sm:max-lg:grid-cols-4 max-lg:gap-x-4 ' +
  'max-lg:gap-y-2 max-lg:border-b max-lg:border-base-content/10 max-lg:px-4 max-lg:py-3';
const CARD_CELL =
  'max-lg:block max-lg:border-0 max-lg:p-0 max-lg:text-left ' +
  'max-lg:before:block max-lg:before:text-xs max-lg:before:opacity-60 ' +
  'max-lg:before:content-[attr(data-label)]';

/** The receipt's own page: what View opens without JavaScript, in a new tab, or from a copied link. */
const receiptPath = (receipt: Receipt) => `/receipts/${receipt.id}`;

/**
 * A plain left click opens the modal; a middle click, or one with a modifier key, keeps the
 * browser's way with links.
 */
const opensHere = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

interface ReceiptsTableProps {
  receipts: Receipt[];
  onShowMap: (receipt: Receipt) => void;
  onShowDetails: (receipt: Receipt) => void;
}

export function ReceiptsTable({ receipts, onShowMap, onShowDetails }: ReceiptsTableProps) {
  const columns = {
    receivedDate: m.receipts_received_date(),
    number: m.receipts_number(),
    shipper: m.receipts_shipper(),
    consignee: m.receipts_consignee(),
    pieces: m.receipts_pieces(),
    weight: m.receipts_weight_lbs(),
    volume: m.receipts_volume_ft3(),
    destination: m.receipts_destination(),
  };
  return (
    <div className="overflow-x-auto">
      <table className="table table-sm max-lg:block lg:table-pinned [&_td]:px-2 [&_th]:px-2 [&_th]:whitespace-normal">
        <thead className="max-lg:hidden">
          <tr>
            <th scope="col">{columns.receivedDate}</th>
            <th scope="col">{columns.number}</th>
            <th scope="col">{columns.shipper}</th>
            <th scope="col">{columns.consignee}</th>
            <th scope="col" className="text-right">
              {columns.pieces}
            </th>
            <th scope="col" className="text-right">
              {columns.weight}
            </th>
            <th scope="col" className="text-right">
              {columns.volume}
            </th>
            <th scope="col">{columns.destination}</th>
            <th scope="col">{m.receipts_status()}</th>
            <th scope="col">{m.receipts_actions()}</th>
          </tr>
        </thead>
        <tbody className="max-lg:block">
          {receipts.map((receipt) => (
            <tr key={receipt.id} className={CARD_ROW}>
              <td className={`whitespace-nowrap ${CARD_CELL}`} data-label={columns.receivedDate}>
                <LocalDate value={receipt.receivedDate} />
              </td>
              <td
                className={`font-medium whitespace-nowrap ${CARD_CELL}`}
                data-label={columns.number}
              >
                {receipt.number}
              </td>
              <td className={`min-w-24 ${CARD_CELL}`} data-label={columns.shipper}>
                {receipt.shipperName}
              </td>
              <td className={`min-w-24 ${CARD_CELL}`} data-label={columns.consignee}>
                {receipt.consigneeName}
              </td>
              <td className={`text-right tabular-nums ${CARD_CELL}`} data-label={columns.pieces}>
                {formatCount(receipt.pieces)}
              </td>
              <td
                className={`text-right whitespace-nowrap tabular-nums ${CARD_CELL}`}
                data-label={columns.weight}
              >
                {formatWeight(receipt.totalWeightValue)}
              </td>
              <td
                className={`text-right whitespace-nowrap tabular-nums ${CARD_CELL}`}
                data-label={columns.volume}
              >
                {formatVolume(receipt.totalVolumeValue)}
              </td>
              <td className={`min-w-24 ${CARD_CELL}`} data-label={columns.destination}>
                {receipt.destination}
              </td>
              <td className="max-lg:block max-lg:border-0 max-lg:p-0">
                <button
                  type="button"
                  className={[
                    'badge badge-soft h-auto min-w-32 max-w-40 cursor-pointer',
                    'py-1 text-xs leading-tight font-medium',
                    TONE_BADGE[statusTone(receipt.status)],
                  ].join(' ')}
                  title={m.receipts_show_tracking_map()}
                  data-tracking-map={receipt.id}
                  onClick={() => onShowMap(receipt)}
                >
                  <UnbrokenWords text={statusLabel(receipt.status)} />
                </button>
              </td>
              <td className="max-lg:block max-lg:border-0 max-lg:p-0 max-lg:text-right sm:max-lg:col-span-3">
                {receipt.commodities.length === 0 ? (
                  // View stays disabled without packages (the spec's rule); the reason is said beside it,
                  // and the receipt's page, with its status history, is offered instead.
                  <span className="inline-flex flex-col items-end gap-1 lg:items-start">
                    <button
                      type="button"
                      className="btn btn-outline btn-sm"
                      disabled
                      aria-describedby={`no-packages-${receipt.id}`}
                    >
                      {m.receipts_view()}
                    </button>
                    <span
                      id={`no-packages-${receipt.id}`}
                      className="text-xs whitespace-nowrap opacity-80"
                    >
                      {m.receipts_no_packages_yet()}
                    </span>
                    <a
                      href={receiptPath(receipt)}
                      className="link text-xs whitespace-nowrap"
                      aria-label={m.receipts_history_link_label({ number: receipt.number })}
                    >
                      {m.receipts_history_link()}
                    </a>
                  </span>
                ) : (
                  <a
                    href={receiptPath(receipt)}
                    className="btn btn-outline btn-sm"
                    onClick={(event) => {
                      if (!opensHere(event)) return;
                      event.preventDefault();
                      onShowDetails(receipt);
                    }}
                  >
                    {m.receipts_view()}
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Text that wraps between its words only: never inside one, nor at a hyphen ("On-Hold"). One span,
 * so that a flex badge wraps it as one text.
 */
function UnbrokenWords({ text }: { text: string }) {
  return (
    <span>
      {text.split(' ').map((word, index) => (
        <Fragment key={index}>
          {index > 0 && ' '}
          <span className="whitespace-nowrap">{word}</span>
        </Fragment>
      ))}
    </span>
  );
}
