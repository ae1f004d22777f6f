/**
 * On a slow link the receipts screen is visible well before its island has hydrated, and its controls
 * are plain HTML until then: paging, the search box and Clear search are GET forms that load the next
 * page themselves. receipts.astro inlines EARLY_ACTIONS_SCRIPT for the rest, until the island takes over:
 * - a tap on a status button (`data-tracking-map`) is recorded on <html>; the island opens that map;
 * - a Sort By or Order choice submits its GET form (`data-submit-on-change`);
 * - a tracking-number search (`data-replay-tracking`) is recorded; the island runs it, with its
 *   look-up of the warehouse's scans, which a page load could not show.
 */
const PENDING_MAP = 'pendingTrackingMap';
const PENDING_TRACKING = 'pendingTrackingSearch';
const HYDRATED = 'receiptsHydrated';

export const EARLY_ACTIONS_SCRIPT =
  `(()=>{const r=document.documentElement,ready=()=>'${HYDRATED}'in r.dataset;` +
  `document.addEventListener('click',e=>{const b=e.target instanceof Element&&e.target.closest('[data-tracking-map]');` +
  `if(b&&!ready())r.dataset.${PENDING_MAP}=b.dataset.trackingMap});` +
  `document.addEventListener('change',e=>{const f=e.target.form;if(f&&'submitOnChange'in f.dataset&&!ready())f.requestSubmit()});` +
  `document.addEventListener('submit',e=>{const f=e.target;if('replayTracking'in f.dataset&&!ready()){e.preventDefault();` +
  `r.dataset.${PENDING_TRACKING}=new FormData(f).get('trackingNumber')}})})()`;

/** What was tapped before hydration, taken once: from now on the island's own handlers answer. */
export function takeEarlyActions(root: HTMLElement = document.documentElement): { mapReceiptId: string | null; trackingNumber: string | null } {
  root.dataset[HYDRATED] = '';
  const taken = { mapReceiptId: root.dataset[PENDING_MAP] ?? null, trackingNumber: root.dataset[PENDING_TRACKING] ?? null };
  delete root.dataset[PENDING_MAP];
  delete root.dataset[PENDING_TRACKING];
  return taken;
}
