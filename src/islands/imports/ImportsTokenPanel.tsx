/**
 * Token Management with PROVIDER=file: there is no provider connection, so in place of the OAuth2
 * cards it shows the imports' state (the last import, its counts, the folder) and what needs a
 * provider works otherwise; "Sync now" imports the folder's files at once.
 */
import { m } from '~/paraglide/messages.js';
import { formatCount } from '~/shared/format';
import type { ImportsState } from '~/shared/imports';
import type { Locale } from '~/shared/locale';
import type { SyncStatus } from '~/shared/sync';
import { LocalDate } from '../common/LocalDate';
import { adoptLocale } from '../common/locale';
import { SyncCard } from '../tokens/SyncCard';
import { Card, Fact, Facts } from '../tokens/TokenCards';

export interface ImportsTokenPanelProps {
  locale: Locale;
  state: ImportsState;
  initialSyncStatus: SyncStatus | null;
}

export default function ImportsTokenPanel({
  locale,
  state,
  initialSyncStatus,
}: ImportsTokenPanelProps) {
  adoptLocale(locale);
  const { last } = state;
  return (
    <div className="flex flex-col gap-6">
      <Card title={m.imports_tokens_heading()}>
        <p className="mb-4">{m.imports_tokens_intro()}</p>
        <Facts>
          <Fact label={m.imports_tokens_last()}>
            {last ? (
              <span>
                <span className="break-all">{last.fileName}</span> ·{' '}
                <LocalDate value={last.at} withTime /> · {last.username ?? m.imports_by_folder()}
                <br />
                {m.imports_counts({
                  created: formatCount(last.created),
                  updated: formatCount(last.updated),
                  unchanged: formatCount(last.unchanged),
                  removed: formatCount(last.removed),
                  refused: formatCount(last.errors.length),
                })}
              </span>
            ) : (
              m.imports_tokens_none()
            )}
          </Fact>
          <Fact label={m.imports_tokens_folder()}>
            <code className="break-all">{state.folder}</code>
          </Fact>
        </Facts>
        <ul className="mt-4 list-disc pl-6 text-sm">
          <li>{m.imports_tokens_sync_now()}</li>
          <li>{m.imports_attachments_unavailable()}</li>
          <li>{m.imports_prealerts_not_forwarded()}</li>
        </ul>
        <a href="/admin/imports" className="btn btn-primary btn-sm mt-4">
          {m.imports_tokens_open()}
        </a>
      </Card>
      <SyncCard initialStatus={initialSyncStatus} />
    </div>
  );
}
