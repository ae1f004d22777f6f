/**
 * Token Management with PROVIDER=magaya: the "Magaya connection" card in place of the OAuth2 cards —
 * the API user (which an admin may set, unless the server does), Test connection, and the outcome of
 * the last session with Magaya's errors in words — beside the sync card.
 */
import { useCallback, useEffect, useId, useState, type SubmitEvent } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, errorText } from '~/shared/api-client';
import { TOKEN_STATUS_POLL_MS } from '~/shared/constants';
import type { Locale } from '~/shared/locale';
import { magayaCredentialsSchema, type MagayaConnectionStatus } from '~/shared/magaya';
import type { SyncStatus } from '~/shared/sync';
import { LocalDate } from '../common/LocalDate';
import { FailureAlert } from '../common/Modal';
import { ReadyFieldset } from '../common/ReadyFieldset';
import { adoptLocale } from '../common/locale';
import { SyncCard } from './SyncCard';
import { Card, Fact, Facts } from './TokenCards';

export interface MagayaConnectionProps {
  locale: Locale;
  /** The connection as the page was rendered; null when it could not be read. */
  initialStatus: MagayaConnectionStatus | null;
  initialSyncStatus: SyncStatus | null;
}

type Notice = { tone: 'success' | 'error'; text: string };

export default function MagayaConnection({
  locale,
  initialStatus,
  initialSyncStatus,
}: MagayaConnectionProps) {
  adoptLocale(locale);
  const [status, setStatus] = useState(initialStatus);
  const [loadFailed, setLoadFailed] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [testing, setTesting] = useState(false);
  const [editing, setEditing] = useState(false);

  const load = useCallback(async () => {
    try {
      setStatus(await api('GET', '/tokens/magaya'));
      setLoadFailed(false);
    } catch {
      setLoadFailed(true);
    }
  }, []);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the status is fetched from the server, then polled
    if (!initialStatus) void load();
    const timer = setInterval(() => void load(), TOKEN_STATUS_POLL_MS);
    return () => clearInterval(timer);
  }, [initialStatus, load]);

  async function test() {
    setNotice(null);
    setTesting(true);
    try {
      const result = await api('POST', '/tokens/magaya/test');
      setNotice(
        result.ok
          ? { tone: 'success', text: m.magaya_connection_test_ok() }
          : { tone: 'error', text: result.errorText ?? '' },
      );
    } catch (error) {
      setNotice({ tone: 'error', text: errorText(error) });
    }
    setTesting(false);
    void load();
  }

  const editable = status?.source !== 'environment';
  return (
    <ReadyFieldset>
      <div className="mb-6">
        <h1 className="text-2xl font-bold">{m.tokens_title()}</h1>
        <p className="mt-1 opacity-70">{m.magaya_connection_intro()}</p>
      </div>
      <div className="flex flex-col gap-4">
        {loadFailed && (
          <div role="alert" className="alert alert-error alert-soft">
            <span>{m.magaya_connection_load_failed()}</span>
          </div>
        )}
        {notice && (
          <div
            role={notice.tone === 'error' ? 'alert' : 'status'}
            className={`alert alert-soft ${notice.tone === 'error' ? 'alert-error' : 'alert-success'}`}
          >
            <span>{notice.text}</span>
          </div>
        )}
        {editing && (
          <CredentialsForm
            initialUsername={status?.username ?? ''}
            onCancel={() => setEditing(false)}
            onSaved={(saved) => {
              setEditing(false);
              setStatus(saved);
              setNotice({ tone: 'success', text: m.magaya_connection_saved() });
            }}
          />
        )}
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          <Card title={m.magaya_connection_title()}>
            <Facts>
              <Fact label={m.magaya_connection_user()}>
                {status?.username ?? m.magaya_connection_no_user()}
              </Fact>
              <Fact label={m.magaya_connection_endpoint()}>
                <span className="break-all">{status?.endpoint}</span>
              </Fact>
              <Fact label={m.magaya_connection_last_session()}>
                {status?.lastSessionAt ? (
                  <span className={status.lastSessionError ? 'text-error' : 'text-success'}>
                    <LocalDate value={status.lastSessionAt} withTime />:{' '}
                    {status.lastSessionErrorText ?? m.magaya_connection_succeeded()}
                  </span>
                ) : (
                  m.magaya_connection_never()
                )}
              </Fact>
            </Facts>
            {!editable && (
              <p className="mt-3 text-sm opacity-70">{m.magaya_connection_from_environment()}</p>
            )}
            <div className="mt-4 flex flex-wrap items-center gap-3">
              <button
                type="button"
                className="btn btn-outline btn-sm"
                onClick={test}
                disabled={testing || !status?.username}
              >
                {testing && (
                  <span className="loading loading-spinner loading-sm" aria-hidden="true" />
                )}
                {m.magaya_connection_test()}
              </button>
              {editable && (
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  aria-expanded={editing}
                  onClick={() => setEditing(!editing)}
                >
                  {status?.username
                    ? m.magaya_connection_change_user()
                    : m.magaya_connection_set_user()}
                </button>
              )}
              <p role="status" className="text-sm">
                {testing ? m.magaya_connection_testing() : ''}
              </p>
            </div>
          </Card>
          <SyncCard initialStatus={initialSyncStatus} />
        </div>
      </div>
    </ReadyFieldset>
  );
}

function CredentialsForm({
  initialUsername,
  onCancel,
  onSaved,
}: {
  initialUsername: string;
  onCancel: () => void;
  onSaved: (status: MagayaConnectionStatus) => void;
}) {
  const [username, setUsername] = useState(initialUsername);
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const ids = { title: useId(), username: useId(), password: useId() };

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const parsed = magayaCredentialsSchema.safeParse({ username, password });
    if (!parsed.success) return setFailure(parsed.error.issues[0]?.message ?? '');
    setFailure(null);
    setSaving(true);
    try {
      return onSaved(await api('PUT', '/tokens/magaya', parsed.data));
    } catch (error) {
      setFailure(errorText(error));
    }
    setSaving(false);
  }

  return (
    <section className="surface rounded-box border border-base-300 p-5" aria-labelledby={ids.title}>
      <h2 id={ids.title} className="mb-4 text-lg font-semibold">
        {m.magaya_connection_user()}
      </h2>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <FailureAlert message={failure} />
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.username} className="text-sm font-medium">
            {m.magaya_connection_username()}
          </label>
          <input
            id={ids.username}
            className="input w-full"
            autoComplete="off"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.password} className="text-sm font-medium">
            {m.magaya_connection_password()}
          </label>
          <input
            id={ids.password}
            type="password"
            className="input w-full"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        <div className="flex gap-2">
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {saving && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {m.magaya_connection_save()}
          </button>
          <button type="button" className="btn btn-ghost" onClick={onCancel}>
            {m.magaya_connection_cancel()}
          </button>
        </div>
      </form>
    </section>
  );
}
