import { useEffect, useId, useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { describeFreshness } from '~/shared/sync';
import { ClockIcon, WarningIcon } from './icons';
import {
  FRESHNESS_TIME_CLASS,
  FRESHNESS_TOOLTIP_CLASS,
  freshnessClass,
} from '~/shared/freshness-style';
import { useHydrated } from './use-hydrated';

interface FreshnessProps {
  lastSyncedAt: string;
  /** The time it is now: the server's while rendering and hydrating, then the browser's (same text both times). */
  now: number;
  syncIntervalSeconds: number;
}

/**
 * The time it is now for "Updated … ago": first the server's time of rendering, so that hydration
 * finds the server's text, then the browser's, every `tickMs`.
 */
export function useNow(renderedAt: number, tickMs: number): number {
  const [now, setNow] = useState(renderedAt);
  useEffect(() => {
    const tick = () => setNow(Date.now());
    tick();
    const timer = setInterval(tick, tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  return now;
}

/** "Updated 3 minutes ago", the exact time on hover and focus; a warning once syncs have stopped. */
export function Freshness({ lastSyncedAt, now, syncIntervalSeconds }: FreshnessProps) {
  const tooltipId = useId();
  const hydrated = useHydrated();
  const { text, exact, stale } = describeFreshness(lastSyncedAt, now, syncIntervalSeconds);
  return (
    <p className={freshnessClass(stale)} data-stale={stale}>
      {stale ? (
        <WarningIcon className="size-4 shrink-0 text-warning" />
      ) : (
        <ClockIcon className="size-4 shrink-0" />
      )}
      {/* Focusable so that a keyboard reaches the exact time in its tooltip, as a pointer does by
          hovering; Escape leaves it. */}
      {/* eslint-disable jsx-a11y/no-noninteractive-tabindex, jsx-a11y/no-noninteractive-element-interactions */}
      <time
        tabIndex={0}
        dateTime={lastSyncedAt}
        aria-describedby={tooltipId}
        className={FRESHNESS_TIME_CLASS}
        onKeyDown={(event) => {
          if (event.key === 'Escape') event.currentTarget.blur();
        }}
      >
        {text}
      </time>
      {/* eslint-enable jsx-a11y/no-noninteractive-tabindex, jsx-a11y/no-noninteractive-element-interactions */}
      {stale && <span>{m.freshness_stale()}</span>}
      {/* The server writes the time in its own zone: the browser writes it afresh in the reader's. */}
      <span
        key={hydrated ? 'browser' : 'server'}
        id={tooltipId}
        role="tooltip"
        className={FRESHNESS_TOOLTIP_CLASS}
        suppressHydrationWarning
      >
        {exact}
      </span>
    </p>
  );
}
