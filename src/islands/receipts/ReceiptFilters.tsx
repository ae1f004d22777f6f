/** The search box with its filter chip, the tracking-number box and the Sort By / Order selects. */
import type { ReactNode, SubmitEvent } from 'react';
import { RECEIPT_SORT_KEYS, TRACKING_NUMBER_MIN } from '~/shared/constants';
import { SEARCH_MAX_LENGTH, TRACKING_NUMBER_MAX, TRACKING_NUMBER_MESSAGE } from '~/shared/receipt-query-string';
import type { ReceiptQuery, ReceiptSortKey, SortOrder } from '~/shared/receipts';

const SORT_LABELS: Record<(typeof RECEIPT_SORT_KEYS)[number], string> = {
  receivedDate: 'Received Date',
  number: 'Receipt #',
  shipperName: 'Shipper',
  consigneeName: 'Consignee',
  status: 'Status',
};

interface ReceiptFiltersProps {
  query: ReceiptQuery;
  searchText: string;
  onSearchText: (text: string) => void;
  /** Applies the typed search at once (Enter) instead of after the typing pause. */
  onSearchSubmit: () => void;
  onClearSearch: () => void;
  trackingText: string;
  onTrackingText: (text: string) => void;
  onTrackingSearch: (trackingNumber: string) => void;
  onSort: (change: { sortBy?: ReceiptSortKey; sortOrder?: SortOrder }) => void;
}

export function ReceiptFilters(props: ReceiptFiltersProps) {
  const { query, searchText, trackingText } = props;
  const tracking = trackingText.trim();
  const trackingTooShort = tracking.length < TRACKING_NUMBER_MIN;

  const submitSearch = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    props.onSearchSubmit();
  };
  const submitTracking = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!trackingTooShort) props.onTrackingSearch(tracking);
  };

  return (
    <section className="surface mb-4 rounded-box border border-base-content/10 p-4" aria-label="Filters">
      <div className="grid gap-3 xl:grid-cols-3">
        {/* A plain GET form too: Enter before the page's script has arrived still searches. */}
        <form role="search" method="get" action="/receipts" onSubmit={submitSearch} className="flex flex-col gap-1">
          <label htmlFor="receipt-search" className="text-sm font-medium">
            Search
          </label>
          <input
            id="receipt-search"
            name="search"
            type="search"
            className="input w-full"
            placeholder="Search receipts, shipper, consignee..."
            maxLength={SEARCH_MAX_LENGTH}
            value={searchText}
            onChange={(event) => props.onSearchText(event.target.value)}
          />
        </form>

        <form onSubmit={submitTracking} className="flex flex-col gap-1">
          <label htmlFor="tracking-number" className="text-sm font-medium">
            Tracking Number
          </label>
          <div className="flex gap-2">
            <input
              id="tracking-number"
              type="search"
              className="input w-full min-w-0"
              placeholder="Minimal 8 Characters"
              maxLength={TRACKING_NUMBER_MAX}
              autoComplete="off"
              value={trackingText}
              aria-invalid={(tracking.length > 0 && trackingTooShort) || undefined}
              aria-describedby={tracking.length > 0 && trackingTooShort ? 'tracking-number-error' : undefined}
              onChange={(event) => props.onTrackingText(event.target.value)}
            />
            <button type="submit" className="btn btn-primary" disabled={trackingTooShort}>
              Search
            </button>
          </div>
          {tracking.length > 0 && trackingTooShort && (
            <p id="tracking-number-error" className="text-sm text-error">
              {TRACKING_NUMBER_MESSAGE}
            </p>
          )}
        </form>

        <div className="grid grid-cols-2 gap-3">
          <SelectField id="receipt-sort-by" label="Sort By" value={query.sortBy} onChange={(sortBy) => props.onSort({ sortBy: sortBy as ReceiptSortKey })}>
            {RECEIPT_SORT_KEYS.map((key) => (
              <option key={key} value={key}>
                {SORT_LABELS[key]}
              </option>
            ))}
          </SelectField>
          <SelectField id="receipt-sort-order" label="Order" value={query.sortOrder} onChange={(sortOrder) => props.onSort({ sortOrder: sortOrder as SortOrder })}>
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </SelectField>
        </div>
      </div>

      {query.search && (
        <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          <span className="opacity-70">Active filter:</span>
          <span className="badge badge-primary badge-soft gap-1">
            <span>Search: {query.search}</span>
            <button type="button" className="rounded-full px-1 hover:bg-base-content/5" aria-label="Clear search" onClick={props.onClearSearch}>
              ×
            </button>
          </span>
        </div>
      )}
    </section>
  );
}

interface SelectFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}

function SelectField({ id, label, value, onChange, children }: SelectFieldProps) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} className="select w-full" value={value} onChange={(event) => onChange(event.target.value)}>
        {children}
      </select>
    </div>
  );
}
