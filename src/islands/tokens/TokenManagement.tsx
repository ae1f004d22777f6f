/**
 * The admin's Token Management screen: the state of
 * the provider tokens, polled every 30 seconds, and the four ways to change it — the OAuth2 popup,
 * manual entry, refresh now and clear. A refused refresh token puts Reconnect (the OAuth2 popup) on top.
 */
import { useCallback, useEffect, useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, errorText } from '~/shared/api-client';
import { FEEDBACK_LONG_MS, TOKEN_STATUS_POLL_MS } from '~/shared/constants';
import type { Locale } from '~/shared/locale';
import {
  CONNECTION_TEXTS,
  lacksRefreshToken,
  type TokenClearResult,
  type TokenStatus,
} from '~/shared/tokens';
import type { SyncStatus } from '~/shared/sync';
import { ClearTokensModal } from './ClearTokensModal';
import { ElsewhereWarning, OAuthPanel } from './OAuthPanel';
import { SyncCard } from './SyncCard';
import { AdditionalInformation, TokenCards } from './TokenCards';
import { UpdateTokensForm } from './UpdateTokensForm';
import { InfoIcon, WarningIcon } from '../common/icons';
import { adoptLocale } from '../common/locale';
import { useOAuthPopup, useTokenPageElsewhere, type OAuthOutcome } from './use-oauth-popup';
import { ReadyFieldset } from '../common/ReadyFieldset';

export interface TokenManagementProps {
  locale: Locale;
  /** The status as the page was rendered; null when it could not be read (the screen then loads it). */
  initialStatus: TokenStatus | null;
  /** The mirror's last sync as the page was rendered; null when it could not be read. */
  initialSyncStatus: SyncStatus | null;
  /** PUBLIC_URL's origin, where the provider sends the admin back. */
  publicOrigin: string;
}

type NoticeTone = 'success' | 'warning' | 'error';

/** An object, so that the same text shown twice in a row restarts its timer. */
interface Notice {
  tone: NoticeTone;
  text: string;
}

const NOTICE_CLASS: Record<NoticeTone, string> = {
  success: 'alert-success',
  warning: 'alert-warning',
  error: 'alert-error',
};

export default function TokenManagement({
  locale,
  initialStatus,
  initialSyncStatus,
  publicOrigin,
}: TokenManagementProps) {
  adoptLocale(locale);
  const [status, setStatus] = useState(initialStatus);
  const [loadFailed, setLoadFailed] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [showOAuth, setShowOAuth] = useState(false);
  const [showForm, setShowForm] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const [confirmingClear, setConfirmingClear] = useState(false);

  const load = useCallback(async () => {
    try {
      setStatus(await api('GET', '/tokens/status'));
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

  // Errors stay until the next action; confirmations go after a while.
  useEffect(() => {
    if (!notice || notice.tone === 'error') return;
    const timer = setTimeout(() => setNotice(null), FEEDBACK_LONG_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  const oauth = useOAuthPopup(
    useCallback(
      (outcome: OAuthOutcome) => {
        if (!outcome.ok) return setNotice({ tone: 'error', text: outcome.text });
        setNotice({ tone: 'success', text: m.tokens_oauth_success() });
        void load();
      },
      [load],
    ),
  );

  const elsewhereUrl = useTokenPageElsewhere(publicOrigin);
  function startOAuth() {
    setNotice(null);
    if (!elsewhereUrl) void oauth.start();
  }

  async function refresh() {
    setNotice(null);
    setRefreshing(true);
    try {
      await api('POST', '/tokens/refresh');
      setNotice({ tone: 'success', text: m.tokens_refreshed() });
    } catch (error) {
      setNotice({ tone: 'error', text: errorText(error) });
    }
    setRefreshing(false);
    void load();
  }

  return (
    <ReadyFieldset>
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">{m.tokens_title()}</h1>
          <p className="mt-1 opacity-70">{m.tokens_subtitle()}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn btn-outline"
            aria-expanded={showOAuth}
            onClick={() => setShowOAuth(!showOAuth)}
          >
            {showOAuth ? m.tokens_hide_oauth() : m.tokens_show_oauth()}
          </button>
          <button
            type="button"
            className="btn btn-outline"
            aria-expanded={showForm}
            onClick={() => setShowForm(!showForm)}
          >
            {showForm ? m.tokens_hide_form() : m.tokens_manual_entry()}
          </button>
          {status?.canRefresh && (
            <button
              type="button"
              className="btn btn-outline btn-info"
              onClick={refresh}
              disabled={refreshing || status.isRefreshing}
            >
              {(refreshing || status.isRefreshing) && (
                <span className="loading loading-spinner loading-sm" aria-hidden="true" />
              )}
              {m.tokens_refresh_button()}
            </button>
          )}
          <button
            type="button"
            className="btn btn-outline btn-error"
            onClick={() => setConfirmingClear(true)}
          >
            {m.tokens_clear_button()}
          </button>
        </div>
      </div>

      <div className="flex flex-col gap-4">
        {loadFailed && (
          <div role="alert" className="alert alert-error alert-soft">
            <span>{m.tokens_load_failed()}</span>
          </div>
        )}
        {notice && (
          <div
            role={notice.tone === 'error' ? 'alert' : 'status'}
            className={`alert alert-soft ${NOTICE_CLASS[notice.tone]}`}
          >
            <span>{notice.text}</span>
          </div>
        )}

        {status?.reconnectRequired && (
          <ReconnectAlert
            reason={status.reconnectReason}
            busy={oauth.step !== null}
            elsewhereUrl={elsewhereUrl}
            onReconnect={startOAuth}
          />
        )}
        {lacksRefreshToken(status) && (
          <div role="note" className="alert alert-warning alert-soft items-start text-sm">
            <WarningIcon className="size-5 shrink-0" />
            <span>{CONNECTION_TEXTS.noRefreshToken}</span>
          </div>
        )}

        {showOAuth && (
          <OAuthPanel step={oauth.step} elsewhereUrl={elsewhereUrl} onStart={startOAuth} />
        )}
        {showForm && (
          <UpdateTokensForm
            onCancel={() => setShowForm(false)}
            onUpdated={() => {
              setShowForm(false);
              setNotice({ tone: 'success', text: m.tokens_updated() });
              void load();
            }}
          />
        )}

        <TokenCards status={status} />
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          <AdditionalInformation status={status} />
          <SyncCard initialStatus={initialSyncStatus} />
        </div>

        <div role="note" className="alert alert-info alert-soft items-start text-sm">
          <InfoIcon className="size-5 shrink-0" />
          <span>{CONNECTION_TEXTS.autoRefresh}</span>
        </div>
      </div>

      {confirmingClear && (
        <ClearTokensModal
          onClose={() => setConfirmingClear(false)}
          onCleared={({ revocationError }: TokenClearResult) => {
            setConfirmingClear(false);
            setNotice(
              revocationError === null
                ? { tone: 'warning', text: CONNECTION_TEXTS.cleared }
                : {
                    tone: 'error',
                    text: CONNECTION_TEXTS.clearedWithoutRevocation(revocationError),
                  },
            );
            void load();
          }}
        />
      )}
    </ReadyFieldset>
  );
}

/** The provider refused the refresh token: why, and the OAuth2 popup one click away. */
function ReconnectAlert({
  reason,
  busy,
  elsewhereUrl,
  onReconnect,
}: {
  reason: string | null;
  busy: boolean;
  elsewhereUrl: string | null;
  onReconnect: () => void;
}) {
  return (
    <div
      role="alert"
      className="alert alert-error alert-soft flex flex-wrap items-start justify-between gap-3"
    >
      <div className="flex flex-col gap-1">
        <h2 className="font-semibold">{CONNECTION_TEXTS.reconnectRequired}</h2>
        <p className="text-sm">{CONNECTION_TEXTS.reconnectExplained}</p>
        {reason && <p className="text-sm opacity-80">{CONNECTION_TEXTS.providerSaid(reason)}</p>}
        {elsewhereUrl && <ElsewhereWarning url={elsewhereUrl} />}
      </div>
      <button
        type="button"
        className="btn btn-error btn-sm"
        onClick={onReconnect}
        disabled={busy || elsewhereUrl !== null}
      >
        {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {CONNECTION_TEXTS.reconnect}
      </button>
    </div>
  );
}
