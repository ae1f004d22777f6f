/** The outcome of a tracking-number look-up that found no receipt. */
import { m } from '~/paraglide/messages.js';
import { formatDate } from '~/shared/format';
import type { PackageScanResult } from '~/shared/receipts';

export type TrackingLookup =
  | { kind: 'idle' }
  | { kind: 'searching' }
  | { kind: 'received'; scans: PackageScanResult[] }
  | { kind: 'not-received' }
  | { kind: 'failed' };

const HIDDEN_FIELDS = new Set(['id', 'arrival_id']);

/** 'tracking_number' → 'Tracking Number'. */
const fieldLabel = (key: string) =>
  key.replace(/[_-]+/g, ' ').replace(/\b\w/g, (letter) => letter.toUpperCase());

function fieldValue(key: string, value: unknown): string {
  if (key === 'scanned_at') return formatDate(String(value));
  if (value === null || value === undefined || value === '') return m.format_not_available();
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function TrackingResult({ lookup }: { lookup: TrackingLookup }) {
  switch (lookup.kind) {
    case 'idle':
      return null;
    case 'searching':
      return (
        <div role="status" className="alert alert-soft mb-4">
          <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          <span>{m.receipts_tracking_searching()}</span>
        </div>
      );
    case 'failed':
      return (
        <div role="alert" className="alert alert-error alert-soft mb-4">
          <span>{m.receipts_tracking_failed()}</span>
        </div>
      );
    case 'not-received':
      return (
        <div role="status" className="alert alert-warning alert-soft mb-4">
          <div>
            <h2 className="font-semibold">{m.receipts_tracking_not_received()}</h2>
            <p>{m.receipts_tracking_not_in_system()}</p>
          </div>
        </div>
      );
    case 'received':
      return (
        <section
          role="status"
          className="alert alert-success alert-soft mb-4"
          aria-labelledby="tracking-received"
        >
          <div className="flex w-full flex-col gap-2">
            <h2 id="tracking-received" className="font-semibold">
              {m.receipts_tracking_received()}
            </h2>
            {lookup.scans.map((scan, index) => (
              <dl
                key={index}
                className={[
                  'grid grid-cols-1 gap-x-6 gap-y-1 border-t border-base-content/10',
                  'pt-2 text-sm md:grid-cols-2 xl:grid-cols-3',
                ].join(' ')}
              >
                {Object.entries(scan)
                  .filter(([key]) => !HIDDEN_FIELDS.has(key))
                  .map(([key, value]) => (
                    <div key={key} className="flex min-w-0 gap-2">
                      <dt className="opacity-70">{fieldLabel(key)}:</dt>
                      <dd className="font-medium break-all">{fieldValue(key, value)}</dd>
                    </div>
                  ))}
              </dl>
            ))}
          </div>
        </section>
      );
  }
}
