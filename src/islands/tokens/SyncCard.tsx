/** "Sync now" beside the provider status: the last sync's time and result, or its error, and a sync on demand. */
import { useEffect, useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, errorText } from '~/shared/api-client';
import { TOKEN_STATUS_POLL_MS } from '~/shared/constants';
import { syncCountsText, type SyncStatus } from '~/shared/sync';
import { LocalDate } from '../common/LocalDate';
import { Card, Fact, Facts } from './TokenCards';

const NEVER_SYNCED: SyncStatus = {
  lastSyncedAt: null,
  written: null,
  deleted: null,
  lastError: null,
  lastErrorAt: null,
};

export function SyncCard({ initialStatus }: { initialStatus: SyncStatus | null }) {
  const [status, setStatus] = useState(initialStatus ?? NEVER_SYNCED);
  const [running, setRunning] = useState(false);
  /** What the live region says: that a sync runs, then how it ended. */
  const [announcement, setAnnouncement] = useState('');

  // Scheduled syncs go on meanwhile: the card follows them like the token status.
  useEffect(() => {
    if (running) return;
    const timer = setInterval(() => {
      api('GET', '/sync').then(setStatus, () => {});
    }, TOKEN_STATUS_POLL_MS);
    return () => clearInterval(timer);
  }, [running]);

  async function syncNow() {
    setRunning(true);
    setAnnouncement(m.sync_running());
    try {
      const result = await api('POST', '/sync');
      setStatus({
        lastSyncedAt: result.finishedAt,
        written: result.written,
        deleted: result.deleted,
        lastError: null,
        lastErrorAt: null,
      });
      setAnnouncement(m.sync_finished({ counts: syncCountsText(result.written, result.deleted) }));
    } catch (error) {
      const reason = errorText(error);
      setStatus((shown) => ({
        ...shown,
        lastError: reason,
        lastErrorAt: new Date().toISOString(),
      }));
      setAnnouncement(m.sync_failed({ reason }));
    }
    setRunning(false);
  }

  const { lastSyncedAt, written, deleted, lastError, lastErrorAt } = status;
  return (
    <Card title={m.sync_title()}>
      <Facts>
        <Fact label={m.sync_last_success()}>
          {lastSyncedAt ? <LocalDate value={lastSyncedAt} withTime /> : m.sync_never()}
        </Fact>
        {written !== null && deleted !== null && (
          <Fact label={m.sync_result()}>{syncCountsText(written, deleted)}</Fact>
        )}
        {lastErrorAt && (
          <Fact label={m.sync_last_error()}>
            <span className="text-error">
              <LocalDate value={lastErrorAt} withTime />: {lastError}
            </span>
          </Fact>
        )}
      </Facts>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button
          type="button"
          className="btn btn-outline btn-sm"
          onClick={syncNow}
          disabled={running}
        >
          {running && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {m.sync_now()}
        </button>
        <p role="status" className="text-sm">
          {announcement}
        </p>
      </div>
    </Card>
  );
}
