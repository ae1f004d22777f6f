/**
 * The search box with its filter chip, the tracking-number box, the Sort By / Order selects and the
 * CSV export of what they select.
 */
import { useEffect, useRef, type ReactNode, type SubmitEvent } from 'react';
import { m } from '~/paraglide/messages.js';
import { RECEIPT_SORT_KEYS, TRACKING_NUMBER_MIN } from '~/shared/constants';
import { formatCount } from '~/shared/format';
import {
  SEARCH_MAX_LENGTH,
  TRACKING_NUMBER_MAX,
  trackingNumberMessage,
} from '~/shared/receipt-limits';
import { receiptQueryString } from '~/shared/receipt-query-string';
import type { ReceiptQuery, ReceiptSortKey, SortOrder } from '~/shared/receipts';
import { useHydrated } from '../common/use-hydrated';
import { QueryForm } from './QueryForm';

/** The sortable columns by the names the table gives them. */
const SORT_ORDERS: readonly SortOrder[] = ['desc', 'asc'];

const SORT_LABELS: Record<(typeof RECEIPT_SORT_KEYS)[number], () => string> = {
  receivedDate: m.receipts_received_date,
  number: m.receipts_number,
  shipperName: m.receipts_shipper,
  consigneeName: m.receipts_consignee,
  status: m.receipts_status,
};

/** The CSV export of every receipt the list's filters and sort match (page and size do not apply). */
const exportPath = ({ search, trackingNumber, sortBy, sortOrder }: ReceiptQuery) =>
  `/api/receipts/export.csv${receiptQueryString({ search, trackingNumber, sortBy, sortOrder })}`;

interface ReceiptFiltersProps {
  query: ReceiptQuery;
  searchText: string;
  onSearchText: (text: string) => void;
  /** Applies `text` as the search at once (Enter) instead of after the typing pause. */
  onSearchSubmit: (text: string) => void;
  onClearSearch: () => void;
  trackingText: string;
  onTrackingText: (text: string) => void;
  onTrackingSearch: (trackingNumber: string) => void;
  onSort: (change: { sortBy?: ReceiptSortKey; sortOrder?: SortOrder }) => void;
}

export function ReceiptFilters(props: ReceiptFiltersProps) {
  const { query, searchText, trackingText } = props;
  const hydrated = useHydrated();
  const tracking = trackingText.trim();
  const trackingTooShort = tracking.length < TRACKING_NUMBER_MIN;
  const searchInput = useRef<HTMLInputElement>(null);
  const trackingInput = useRef<HTMLInputElement>(null);

  // The island hydrates at the first touch (client:interaction): what was typed meanwhile is in the boxes
  // only. A search typed then has had its pause already: it applies at once.
  useEffect(() => {
    const typedSearch = searchInput.current!.value;
    if (typedSearch !== searchText) props.onSearchSubmit(typedSearch);
    const typedTracking = trackingInput.current!.value;
    if (typedTracking !== trackingText) props.onTrackingText(typedTracking);
    /* eslint-disable-next-line react-hooks/exhaustive-deps --
       once, at hydration: later typing reaches the handlers itself */
  }, []);

  const submitSearch = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    props.onSearchSubmit(searchText);
  };
  const submitTracking = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!trackingTooShort) props.onTrackingSearch(tracking);
  };

  return (
    <section
      className="surface mb-4 rounded-box border border-base-content/10 p-4"
      aria-label={m.receipts_filters()}
    >
      <div className="grid grid-cols-1 gap-3 xl:grid-cols-3">
        {/* A plain GET form too: before the island has hydrated, Enter loads the search's page, and typing gets it
            from the server after the pause (early-clicks.ts). */}
        <QueryForm
          query={query}
          omit={['search', 'page']}
          role="search"
          onSubmit={submitSearch}
          className="flex flex-col gap-1"
          data-search-as-typed=""
          data-hydrate-ignore=""
        >
          <label htmlFor="receipt-search" className="text-sm font-medium">
            {m.receipts_search()}
          </label>
          <input
            ref={searchInput}
            id="receipt-search"
            name="search"
            type="search"
            className="input w-full"
            placeholder={m.receipts_search_placeholder()}
            maxLength={SEARCH_MAX_LENGTH}
            value={searchText}
            onChange={(event) => props.onSearchText(event.target.value)}
          />
        </QueryForm>

        {/* Before hydration a submit is kept and run once the island is ready (early-clicks.ts);
            without JavaScript it filters the list. */}
        <QueryForm
          query={query}
          omit={['search', 'trackingNumber', 'page']}
          onSubmit={submitTracking}
          className="flex flex-col gap-1"
          data-replay-tracking=""
        >
          <label htmlFor="tracking-number" className="text-sm font-medium">
            {m.receipts_tracking_number()}
          </label>
          <div className="flex gap-2">
            <input
              ref={trackingInput}
              id="tracking-number"
              name="trackingNumber"
              type="search"
              className="input w-full min-w-0"
              placeholder={m.receipts_tracking_number_placeholder({
                min: formatCount(TRACKING_NUMBER_MIN),
              })}
              maxLength={TRACKING_NUMBER_MAX}
              autoComplete="off"
              value={trackingText}
              aria-invalid={(tracking.length > 0 && trackingTooShort) || undefined}
              aria-describedby={
                tracking.length > 0 && trackingTooShort ? 'tracking-number-error' : undefined
              }
              onChange={(event) => props.onTrackingText(event.target.value)}
            />
            {/* Enabled until hydrated: what was typed meanwhile is checked once the island runs the search. */}
            <button
              type="submit"
              className="btn btn-primary"
              disabled={hydrated && trackingTooShort}
            >
              {m.receipts_search()}
            </button>
          </div>
          {tracking.length > 0 && trackingTooShort && (
            <p id="tracking-number-error" className="text-sm text-error">
              {trackingNumberMessage()}
            </p>
          )}
        </QueryForm>

        {/* Before hydration a choice submits this GET form (early-clicks.ts); without JavaScript, Apply does. */}
        <QueryForm
          query={query}
          omit={['sortBy', 'sortOrder', 'page']}
          className="grid grid-cols-2 gap-3"
          data-submit-on-change=""
        >
          <SelectField
            id="receipt-sort-by"
            name="sortBy"
            label={m.receipts_sort_by()}
            value={query.sortBy}
            onChange={(sortBy) =>
              props.onSort({
                sortBy: RECEIPT_SORT_KEYS.find((key) => key === sortBy) ?? query.sortBy,
              })
            }
          >
            {RECEIPT_SORT_KEYS.map((key) => (
              <option key={key} value={key}>
                {SORT_LABELS[key]()}
              </option>
            ))}
          </SelectField>
          <SelectField
            id="receipt-sort-order"
            name="sortOrder"
            label={m.receipts_order()}
            value={query.sortOrder}
            onChange={(sortOrder) =>
              props.onSort({
                sortOrder: SORT_ORDERS.find((order) => order === sortOrder) ?? query.sortOrder,
              })
            }
          >
            <option value="desc">{m.receipts_order_descending()}</option>
            <option value="asc">{m.receipts_order_ascending()}</option>
          </SelectField>
          <noscript>
            <button type="submit" className="btn btn-sm col-span-2">
              {m.receipts_apply_sort()}
            </button>
          </noscript>
        </QueryForm>
      </div>

      <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
        {query.search && (
          <>
            <span className="opacity-70">{m.receipts_active_filter()}</span>
            <QueryForm
              query={query}
              omit={['search', 'page']}
              className="badge badge-primary badge-soft gap-1"
            >
              <span>{m.receipts_search_chip({ search: query.search })}</span>
              <button
                type="submit"
                className="rounded-full px-1 hover:bg-base-content/5"
                aria-label={m.receipts_clear_search()}
                onClick={(event) => {
                  event.preventDefault();
                  props.onClearSearch();
                }}
              >
                ×
              </button>
            </QueryForm>
          </>
        )}
        {/* A plain link: the file downloads without JavaScript too, for the filters the page shows. */}
        <a
          href={exportPath(query)}
          download
          className="btn btn-outline btn-sm ml-auto"
          title={m.export_csv_hint()}
        >
          {m.export_csv()}
        </a>
      </div>
    </section>
  );
}

interface SelectFieldProps {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}

function SelectField({ id, name, label, value, onChange, children }: SelectFieldProps) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        name={name}
        className="select w-full"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {children}
      </select>
    </div>
  );
}
