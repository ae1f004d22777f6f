/** Brings a server-rendered Freshness.astro up to date in the browser: its time, text, warning and exact time. */
import { freshnessClass } from '~/shared/freshness-style';
import { describeFreshness } from '~/shared/sync';

export function showFreshness(
  element: HTMLElement,
  lastSyncedAt: string | null,
  now: number,
): void {
  element.dataset.syncedAt = lastSyncedAt ?? '';
  element.hidden = !lastSyncedAt;
  if (!lastSyncedAt) return;
  const { text, exact, stale } = describeFreshness(
    lastSyncedAt,
    now,
    Number(element.dataset.syncInterval),
  );
  element.className = freshnessClass(stale);
  const time = element.querySelector<HTMLTimeElement>('[data-freshness-text]')!;
  time.dateTime = lastSyncedAt;
  time.textContent = text;
  element.querySelector('[data-freshness-exact]')!.textContent = exact;
  for (const part of element.querySelectorAll<HTMLElement>('[data-stale-only]'))
    part.hidden = !stale;
  for (const part of element.querySelectorAll<HTMLElement>('[data-fresh-only]'))
    part.hidden = stale;
}
