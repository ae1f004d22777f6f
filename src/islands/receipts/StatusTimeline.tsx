/**
 * A receipt's status history, newest at the top: the details modal shows it, and the receipt page
 * renders it on the server only (no island).
 */
import { m } from '~/paraglide/messages.js';
import { statusTimeline, TIMELINE_DOT } from '~/shared/receipt-view';
import type { StatusHistoryEntry } from '~/shared/receipts';
import { LocalDate } from '../common/LocalDate';

export function StatusTimeline({ history }: { history: StatusHistoryEntry[] }) {
  const entries = statusTimeline(history);
  if (entries.length === 0) return <p className="py-2 text-sm opacity-70">{m.history_empty()}</p>;
  return (
    <ol className="flex flex-col" aria-label={m.history_title()}>
      {entries.map((entry, index) => (
        <li
          key={`${entry.at}-${index}`}
          className="relative flex gap-3 pb-4 last:pb-0"
          aria-current={entry.current ? 'step' : undefined}
        >
          {index < entries.length - 1 && (
            <span
              className="absolute top-4 bottom-0 left-[0.3125rem] w-px bg-base-content/20"
              aria-hidden="true"
            />
          )}
          <span
            className={`relative mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full ${TIMELINE_DOT[entry.tone]}`}
            aria-hidden="true"
          />
          <div className="min-w-0 text-sm">
            <p className="font-medium">
              {entry.label}
              {entry.current && (
                <span className="badge badge-soft badge-sm ml-2">{m.history_current()}</span>
              )}
            </p>
            <p className="opacity-70 tabular-nums">
              <LocalDate value={entry.at} withTime />
            </p>
          </div>
        </li>
      ))}
    </ol>
  );
}
