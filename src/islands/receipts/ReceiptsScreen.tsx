/**
 * The receipts screen with its details modal and package tracking search. The first page arrives rendered
 * with the page; later pages come from /api/receipts through the client cache (src/stores/query-cache.ts), and
 * the page URL follows the filters so that Back and a shared link restore them.
 */
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, ApiError, apiBody, type ErrorEnvelope } from '~/shared/api-client';
import { TRACKING_NUMBER_MIN } from '~/shared/constants';
import type { Locale } from '~/shared/locale';
import { serverBusyText, serverBusyTitle } from '~/shared/messages';
import { receiptQueryString, type ReceiptQueryString } from '~/shared/receipt-query-string';
import type { ReceiptWithPrealerts } from '~/shared/prealerts';
import type { PackageScanResult, Receipt, ReceiptList, ReceiptQuery } from '~/shared/receipts';
import { createQuery, DATA_CACHE, LIST_CACHE } from '~/stores/query-cache';
import { freshnessTickMs, shouldRecheck } from '~/shared/sync';
import { Freshness, useNow } from '../common/Freshness';
import { adoptLocale } from '../common/locale';
import { SEARCH_PAUSE_MS, takeEarlyActions } from './early-clicks';
import { ListFooter } from './ListFooter';
import { QueryForm } from './QueryForm';
import { loadReceiptAttachments, type ReceiptAttachmentsAnswer } from './ReceiptAttachments';
import { ReceiptDetailsModal } from './ReceiptDetailsModal';
import { ReceiptFilters } from './ReceiptFilters';
import { ReceiptsTable } from './ReceiptsTable';
import { TrackingResult, type TrackingLookup } from './TrackingResult';

// Leaflet comes with the map modal, fetched the first time someone presses a status button.
const TrackingMapModal = lazy(() => import('./TrackingMapModal'));

export interface ReceiptsScreenProps {
  locale: Locale;
  initialQuery: ReceiptQuery;
  /** The first page's answer, or null when it failed with `initialError`. */
  initialList: ReceiptList | null;
  initialError: { status: number; body: ErrorEnvelope } | null;
  tileUrl: string;
  tileAttribution: string;
  /** The server's time of rendering (ms): "Updated … ago" is counted from it until hydrated. */
  renderedAt: number;
  syncIntervalSeconds: number;
}

const loadList = (queryString: ReceiptQueryString) => apiBody('GET', `/receipts${queryString}`);
const loadDetails = (id: string) => api('GET', `/receipts/${id}`);
const loadScans = (trackingNumber: string) =>
  api('GET', `/package-tracker/search?trackingNumber=${encodeURIComponent(trackingNumber)}`);

export default function ReceiptsScreen(props: ReceiptsScreenProps) {
  const {
    locale,
    initialQuery,
    initialList,
    initialError,
    tileUrl,
    tileAttribution,
    renderedAt,
    syncIntervalSeconds,
  } = props;
  adoptLocale(locale);
  // One cache per mounted screen: on the server each render gets its own, so no answer crosses users.
  const [list] = useState(() =>
    createQuery<ReceiptList, ReceiptQueryString>(LIST_CACHE, loadList, {
      initial: {
        key: receiptQueryString(initialQuery),
        data: initialList ?? undefined,
        error:
          initialError &&
          new ApiError(initialError.status, initialError.body, initialError.body.message ?? ''),
      },
    }),
  );
  const [scans] = useState(() =>
    createQuery<PackageScanResult[]>(DATA_CACHE, loadScans, { initial: { key: '' } }),
  );
  const [receiptDetails] = useState(() =>
    createQuery<ReceiptWithPrealerts>(DATA_CACHE, loadDetails, { initial: { key: '' } }),
  );
  const [receiptAttachments] = useState(() =>
    createQuery<ReceiptAttachmentsAnswer>(DATA_CACHE, loadReceiptAttachments, {
      initial: { key: '' },
    }),
  );
  const { data: answer, error, fetching } = useStore(list.$state);

  const [query, setQuery] = useState(initialQuery);
  const [searchText, setSearchText] = useState(initialQuery.search ?? '');
  const [trackingText, setTrackingText] = useState(initialQuery.trackingNumber ?? '');
  const [lookup, setLookup] = useState<TrackingLookup>({ kind: 'idle' });
  /** Counts look-ups, so that one overtaken by a newer one or by a cleared box is dropped. */
  const lookupRun = useRef(0);
  const [details, setDetails] = useState<Receipt | null>(null);
  const [mapReceipt, setMapReceipt] = useState<Receipt | null>(null);
  const [mapWanted, setMapWanted] = useState(false);

  const now = useNow(renderedAt, freshnessTickMs(syncIntervalSeconds));
  const lastSyncedAt = answer?.meta.lastSyncedAt ?? null;
  /** When the shown answer arrived: a time that only looks old for want of asking is asked again first. */
  const answeredAt = useRef(renderedAt);
  useEffect(() => {
    answeredAt.current = Date.now();
  }, [answer]);
  useEffect(() => {
    if (
      !lastSyncedAt ||
      fetching ||
      document.hidden ||
      !shouldRecheck(lastSyncedAt, answeredAt.current, now, syncIntervalSeconds)
    )
      return;
    answeredAt.current = now;
    list.refetch();
    /* eslint-disable-next-line react-hooks/exhaustive-deps --
       the clock's tick asks; a new answer or sync time alone must not refetch */
  }, [now]);

  /** Shows the list for `next` and records it in the page URL as a new history entry. */
  function apply(next: ReceiptQuery): void {
    const queryString = receiptQueryString(next);
    if (queryString !== receiptQueryString(query))
      history.pushState(next, '', `${location.pathname}${queryString}`);
    setQuery(next);
    list.show(queryString);
  }

  /** A filter or sort change: back to page 1. */
  const refine = (change: Partial<ReceiptQuery>) => apply({ ...query, ...change, page: 1 });

  // A layout effect: it marks the page's own history entry before any passive effect (a search typed
  // before hydration, ReceiptFilters) adds the next one.
  useLayoutEffect(() => {
    // Each history entry of this page carries its query, so Back needs no parsing (and no schema
    // library) here. A URL with a refused value was rendered with that value's default: show the URL
    // that matches the list.
    history.replaceState(
      initialQuery,
      '',
      `${location.pathname}${receiptQueryString(initialQuery)}`,
    );
    const restore = (event: PopStateEvent) => {
      // The entries this screen pushed hold its query; any other entry has none (null).
      const restored: ReceiptQuery | null = event.state;
      if (!restored) return location.reload();
      lookupRun.current += 1;
      setLookup({ kind: 'idle' });
      setSearchText(restored.search ?? '');
      setTrackingText(restored.trackingNumber ?? '');
      setQuery(restored);
      list.show(receiptQueryString(restored));
    };
    addEventListener('popstate', restore);
    return () => removeEventListener('popstate', restore);
  }, [initialQuery, list]);

  const typedSearch = searchText.trim() || undefined;
  useEffect(() => {
    if (typedSearch === query.search) return;
    const timer = setTimeout(() => refine({ search: typedSearch }), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
    /* eslint-disable-next-line react-hooks/exhaustive-deps --
       refine is made anew each render; the typed text and the query decide */
  }, [typedSearch, query]);

  function clearTracking(): void {
    lookupRun.current += 1;
    setLookup({ kind: 'idle' });
    if (query.trackingNumber) refine({ trackingNumber: undefined });
  }

  async function searchTracking(trackingNumber: string): Promise<void> {
    const run = ++lookupRun.current;
    setLookup({ kind: 'searching' });
    // The look-up is its own filter: it replaces the search, keeps the sort.
    const filtered: ReceiptQuery = { ...query, page: 1, search: undefined, trackingNumber };
    try {
      const found = await list.get(receiptQueryString(filtered));
      if (run !== lookupRun.current) return;
      if (found.pagination.totalItems > 0) {
        setSearchText('');
        setLookup({ kind: 'idle' });
        apply(filtered);
        return;
      }
      const results = await scans.get(trackingNumber);
      if (run !== lookupRun.current) return;
      setLookup(
        results.length > 0 ? { kind: 'received', scans: results } : { kind: 'not-received' },
      );
      if (query.trackingNumber) refine({ trackingNumber: undefined });
    } catch {
      if (run === lookupRun.current) setLookup({ kind: 'failed' });
    }
  }

  function showDetails(receipt: Receipt): void {
    receiptDetails.show(String(receipt.id));
    receiptAttachments.show(String(receipt.id));
    setDetails(receipt);
  }

  function showMap(receipt: Receipt): void {
    setMapWanted(true);
    setMapReceipt(receipt);
  }

  // A status button or a tracking search tapped before this island hydrated (receipts.astro
  // recorded it): it is answered now.
  useEffect(() => {
    const { mapReceiptId, trackingNumber } = takeEarlyActions();
    const receipt = answer?.data.find((candidate) => String(candidate.id) === mapReceiptId);
    /* eslint-disable-next-line react-hooks/set-state-in-effect --
       once, at hydration: a tap the server-rendered page recorded */
    if (receipt) showMap(receipt);
    const typed = trackingNumber?.trim() ?? '';
    if (typed.length >= TRACKING_NUMBER_MIN) void searchTracking(typed);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, at hydration
  }, []);

  return (
    <>
      <ReceiptFilters
        query={query}
        searchText={searchText}
        onSearchText={setSearchText}
        onSearchSubmit={(text) => {
          setSearchText(text);
          refine({ search: text.trim() || undefined });
        }}
        onClearSearch={() => {
          setSearchText('');
          refine({ search: undefined });
        }}
        trackingText={trackingText}
        onTrackingText={(text) => {
          setTrackingText(text);
          if (!text.trim()) clearTracking();
        }}
        onTrackingSearch={searchTracking}
        onSort={refine}
      />

      <TrackingResult lookup={lookup} />

      {lastSyncedAt && (
        <div className="mb-3 flex justify-end">
          <Freshness
            lastSyncedAt={lastSyncedAt}
            now={now}
            syncIntervalSeconds={syncIntervalSeconds}
          />
        </div>
      )}

      <section
        className="surface relative rounded-box border border-base-content/10"
        aria-label={m.receipts_title()}
        aria-busy={fetching}
      >
        {error ? (
          <ListFailure query={query} error={error} onRetry={list.refetch} />
        ) : !answer ? (
          <div className="flex justify-center py-12">
            <span
              className="loading loading-spinner"
              role="status"
              aria-label={m.receipts_loading()}
            />
          </div>
        ) : answer.data.length === 0 ? (
          <p className="px-6 py-12 text-center text-lg font-medium">{m.receipts_none_found()}</p>
        ) : (
          <>
            <div className={fetching ? 'opacity-60' : undefined}>
              <ReceiptsTable
                receipts={answer.data}
                onShowMap={showMap}
                onShowDetails={showDetails}
              />
            </div>
            <ListFooter
              query={query}
              pagination={answer.pagination}
              meta={answer.meta}
              shown={answer.data.length}
              onPage={(page) => apply({ ...query, page })}
            />
          </>
        )}
        {fetching && answer && (
          <span
            className="loading loading-spinner loading-sm absolute top-4 right-4"
            role="status"
            aria-label={m.receipts_loading()}
          />
        )}
      </section>

      {details && (
        <ReceiptDetailsModal
          receipt={details}
          details={receiptDetails}
          attachments={receiptAttachments}
          onClose={() => setDetails(null)}
        />
      )}
      {mapWanted && (
        <Suspense
          fallback={
            <div className="fixed inset-0 z-50 grid place-items-center">
              <span
                className="loading loading-spinner"
                role="status"
                aria-label={m.map_loading()}
              />
            </div>
          }
        >
          <TrackingMapModal
            receipt={mapReceipt}
            tileUrl={tileUrl}
            tileAttribution={tileAttribution}
            onClose={() => setMapReceipt(null)}
          />
        </Suspense>
      )}
    </>
  );
}

interface ListFailureProps {
  query: ReceiptQuery;
  error: unknown;
  onRetry: () => void;
}

/** 'Server is Busy' for an external-API error, else the list's failure text; both offer another try. */
function ListFailure({ query, error, onRetry }: ListFailureProps) {
  const busy = error instanceof ApiError && error.isExternal;
  return (
    <div role="alert" className="flex flex-col items-center gap-3 px-6 py-12 text-center">
      {busy ? (
        <>
          <h2 className="text-lg font-semibold">{serverBusyTitle()}</h2>
          <p className="max-w-md opacity-80">{serverBusyText()}</p>
        </>
      ) : (
        <p className="text-error">
          {error instanceof ApiError && error.isOffline
            ? m.offline_needs_connection()
            : m.receipts_load_failed_try_later()}
        </p>
      )}
      {/* Before hydration, another try is the same page loaded again. */}
      <QueryForm query={query} omit={[]}>
        <button
          type="submit"
          className="btn btn-sm btn-outline"
          onClick={(event) => {
            event.preventDefault();
            onRetry();
          }}
        >
          {busy ? m.common_try_again() : m.common_retry()}
        </button>
      </QueryForm>
    </div>
  );
}
