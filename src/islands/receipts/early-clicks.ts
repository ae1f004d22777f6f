/**
 * On a slow link the receipts table is visible well before its island has hydrated. receipts.astro
 * inlines EARLY_MAP_CLICK_SCRIPT, which records a tap on a status button (`data-tracking-map`) on <html>
 * until then; the island takes it once, when it mounts, and opens that receipt's map.
 */
const PENDING = 'pendingTrackingMap';
const HYDRATED = 'receiptsHydrated';

export const EARLY_MAP_CLICK_SCRIPT =
  `document.addEventListener('click',e=>{const r=document.documentElement,b=e.target instanceof Element&&e.target.closest('[data-tracking-map]');` +
  `if(b&&!('${HYDRATED}'in r.dataset))r.dataset.${PENDING}=b.dataset.trackingMap})`;

/** The receipt id of a status button tapped before hydration, if any; from now on the island's own handlers answer. */
export function takeEarlyMapClick(root: HTMLElement = document.documentElement): string | null {
  root.dataset[HYDRATED] = '';
  const receiptId = root.dataset[PENDING] ?? null;
  delete root.dataset[PENDING];
  return receiptId;
}
