/** The look of "Updated … ago", the same on the dashboard (no React) and in the receipts island. */

/** Stale: the warning colour around it, besides the warning icon and sentence (not colour alone). */
export const freshnessClass = (stale: boolean) =>
  [
    'group relative inline-flex flex-wrap items-center gap-1.5 text-sm',
    stale
      ? 'rounded-box border border-warning bg-warning/15 px-3 py-1'
      : 'scrim text-base-content/80',
  ].join(' ');

export const FRESHNESS_TIME_CLASS =
  'cursor-help rounded-sm underline decoration-dotted underline-offset-4';

/**
 * The exact time, shown while the pointer is over the line or the time has the focus; the line sits
 * at the right, so it opens leftwards.
 */
export const FRESHNESS_TOOLTIP_CLASS =
  'pointer-events-none absolute top-full right-0 z-20 mt-1 hidden ' +
  'rounded-box bg-neutral px-2 py-1 text-xs whitespace-nowrap text-neutral-content shadow-md ' +
  'group-focus-within:block group-hover:block';
