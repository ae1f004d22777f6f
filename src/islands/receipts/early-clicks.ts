/**
 * On a slow link the receipts screen is visible well before its island has hydrated, and its
 * controls are plain HTML until then: paging, Sort By and Order, Enter in the search box and Clear
 * search are GET forms that load their page themselves. receipts.astro inlines the script of
 * early-actions-script.ts for the rest, until the island takes over:
 * - a tap on a status button (`data-tracking-map`) is recorded on <html>; the island opens that map;
 * - a Sort By or Order choice submits its GET form (`data-submit-on-change`);
 * - a tracking-number search (`data-replay-tracking`) is recorded; the island runs it, with its
 *   look-up of the warehouse's scans, which a page load could not show;
 * - the search box (`data-search-as-typed`) searches as one types: after the typing pause the page of
 *   that search comes from the server and its island replaces this one, so the first search costs one
 *   request, not the island's code first. Touching the box does not start that code's download
 *   (`data-hydrate-ignore`, hydrate-on-interaction.ts), which would hold the answer back on a slow link.
 */
export const EARLY_ACTION_KEYS = {
  pendingMap: 'pendingTrackingMap',
  pendingTracking: 'pendingTrackingSearch',
  hydrated: 'receiptsHydrated',
} as const;

/** A typing pause after which the search box applies its text, before and after hydration. */
export const SEARCH_PAUSE_MS = 250;

/** What was tapped before hydration, taken once: from now on the island's own handlers answer. */
export function takeEarlyActions(root: HTMLElement = document.documentElement): {
  mapReceiptId: string | null;
  trackingNumber: string | null;
} {
  root.dataset[EARLY_ACTION_KEYS.hydrated] = '';
  const taken = {
    mapReceiptId: root.dataset[EARLY_ACTION_KEYS.pendingMap] ?? null,
    trackingNumber: root.dataset[EARLY_ACTION_KEYS.pendingTracking] ?? null,
  };
  delete root.dataset[EARLY_ACTION_KEYS.pendingMap];
  delete root.dataset[EARLY_ACTION_KEYS.pendingTracking];
  return taken;
}
