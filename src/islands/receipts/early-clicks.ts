/**
 * On a slow link the receipts table is visible well before its island has hydrated. receipts.astro's
 * inline script records a tap on a status button (`data-tracking-map`) on <html> until then; the
 * island takes it once, when it mounts, and opens that receipt's map.
 */
const PENDING = 'pendingTrackingMap';
const HYDRATED = 'receiptsHydrated';

/** The receipt id of a status button tapped before hydration, if any; from now on the island's own handlers answer. */
export function takeEarlyMapClick(root: HTMLElement = document.documentElement): string | null {
  root.dataset[HYDRATED] = '';
  const receiptId = root.dataset[PENDING] ?? null;
  delete root.dataset[PENDING];
  return receiptId;
}
