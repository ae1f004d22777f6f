/**
 * Profile Settings → API tokens: make a token with a name and an expiry (its value shown once, with a
 * copy button), the list of the user's tokens by prefix with their dates and last use, and revoking
 * one after a confirmation. Only the tokens' hashes are kept, so a token's value is never shown again.
 */
import { useState, type SubmitEvent } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, errorText } from '~/shared/api-client';
import {
  API_TOKEN_EXPIRY_DAYS,
  API_TOKEN_NAME_MAX,
  API_TOKENS_PER_USER,
  createApiTokenSchema,
  type ApiTokenSummary,
  type CreatedApiToken,
} from '~/shared/api-tokens';
import type { Locale } from '~/shared/locale';
import { fieldErrors } from '~/shared/validation';
import { CopyField } from '../common/CopyField';
import { LocalDate } from '../common/LocalDate';
import { adoptLocale } from '../common/locale';
import { ReadyFieldset } from '../common/ReadyFieldset';
import { RevokeApiTokenModal } from './RevokeApiTokenModal';

export interface ApiTokensProps {
  locale: Locale;
  initialTokens: ApiTokenSummary[];
}

/** The expiry offered first: long enough for a quarter's work, short enough to be renewed. */
const DEFAULT_EXPIRY_DAYS = 90;

export default function ApiTokens({ locale, initialTokens }: ApiTokensProps) {
  adoptLocale(locale);
  const [tokens, setTokens] = useState(initialTokens);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');
  const [notice, setNotice] = useState('');
  const [pending, setPending] = useState(false);
  const [revoking, setRevoking] = useState<ApiTokenSummary | null>(null);

  async function create(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = event.currentTarget;
    const data = new FormData(form);
    const parsed = createApiTokenSchema.safeParse({
      name: data.get('name'),
      expiresInDays: Number(data.get('expiresInDays')),
    });
    setFailure('');
    setNotice('');
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const token = await api('POST', '/auth/tokens', parsed.data);
      const { token: _shownOnce, ...summary } = token;
      setTokens((listed) => [summary, ...listed]);
      setCreated(token);
      form.reset();
    } catch (error) {
      setFailure(errorText(error));
    }
    setPending(false);
  }

  return (
    <>
      <ReadyFieldset>
        <div className="flex flex-col gap-4">
          <p className="text-sm opacity-70">{m.apitoken_hint({ max: API_TOKENS_PER_USER })}</p>
          {notice && (
            <div role="status" className="alert alert-success alert-soft text-sm">
              {notice}
            </div>
          )}
          {created && (
            <div
              className="flex flex-col gap-2 rounded-box border border-success/40 bg-success/5 p-3 text-sm"
              role="region"
              aria-labelledby="api-token-new-title"
            >
              <h3 id="api-token-new-title" className="font-semibold">
                {m.apitoken_new_title({ name: created.name })}
              </h3>
              <CopyField
                id="api-token-new"
                label={m.apitoken_new_label()}
                value={created.token}
                copyLabel={m.apitoken_copy()}
                copiedText={m.apitoken_copied()}
                monospace
              />
              <p className="opacity-80">{m.apitoken_new_once()}</p>
              <button
                type="button"
                className="btn btn-sm btn-ghost self-start"
                onClick={() => setCreated(null)}
              >
                {m.apitoken_done()}
              </button>
            </div>
          )}
          <form noValidate onSubmit={create} className="flex flex-col gap-3">
            <div className="flex flex-col gap-1">
              <label htmlFor="api-token-name" className="text-sm font-medium">
                {m.apitoken_name_label()}
              </label>
              <input
                id="api-token-name"
                name="name"
                maxLength={API_TOKEN_NAME_MAX}
                autoComplete="off"
                className={errors.name ? 'input input-error w-full' : 'input w-full'}
                aria-invalid={errors.name ? true : undefined}
                aria-describedby={errors.name ? 'api-token-name-error' : 'api-token-name-hint'}
                onChange={() => setErrors({})}
              />
              {errors.name ? (
                <p id="api-token-name-error" className="text-xs text-error">
                  {errors.name}
                </p>
              ) : (
                <p id="api-token-name-hint" className="text-xs opacity-60">
                  {m.apitoken_name_hint()}
                </p>
              )}
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor="api-token-expiry" className="text-sm font-medium">
                {m.apitoken_expiry_label()}
              </label>
              <select
                id="api-token-expiry"
                name="expiresInDays"
                className="select w-full"
                defaultValue={String(DEFAULT_EXPIRY_DAYS)}
              >
                {API_TOKEN_EXPIRY_DAYS.map((days) => (
                  <option key={days} value={days}>
                    {m.apitoken_expiry_option({ days })}
                  </option>
                ))}
              </select>
            </div>
            {failure && (
              <div role="alert" className="alert alert-error alert-soft text-sm">
                {failure}
              </div>
            )}
            <button type="submit" className="btn btn-primary self-start" disabled={pending}>
              {pending ? m.apitoken_creating() : m.apitoken_create()}
            </button>
          </form>
          {tokens.length === 0 ? (
            <p className="text-sm">{m.apitoken_list_empty()}</p>
          ) : (
            <ul className="flex flex-col gap-2" aria-label={m.apitoken_list_label()}>
              {tokens.map((token) => (
                <li
                  key={token.id}
                  className={[
                    'flex flex-wrap items-center justify-between gap-2',
                    'rounded-box border border-base-content/10 p-3 text-sm',
                  ].join(' ')}
                >
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2 font-medium break-words">
                      <span className="min-w-0 break-all">{token.name}</span>
                      {token.expired && (
                        <span className="badge badge-soft badge-warning badge-sm">
                          {m.apitoken_expired_badge()}
                        </span>
                      )}
                    </p>
                    <p className="font-mono text-xs opacity-80">{token.prefix}…</p>
                    <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 opacity-70">
                      <dt>{m.apitoken_created_label()}</dt>
                      <dd>
                        <LocalDate value={token.createdAt} />
                      </dd>
                      <dt>
                        {token.expired ? m.apitoken_expired_label() : m.apitoken_expires_label()}
                      </dt>
                      <dd>
                        <LocalDate value={token.expiresAt} />
                      </dd>
                      <dt>{m.apitoken_last_used_label()}</dt>
                      <dd>
                        {token.lastUsedAt ? (
                          <LocalDate value={token.lastUsedAt} withTime />
                        ) : (
                          m.apitoken_never_used()
                        )}
                      </dd>
                    </dl>
                  </div>
                  <button
                    type="button"
                    className="btn btn-sm btn-outline btn-error"
                    aria-label={m.apitoken_revoke_label({ name: token.name })}
                    onClick={() => setRevoking(token)}
                  >
                    {m.apitoken_revoke()}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </ReadyFieldset>
      {revoking && (
        <RevokeApiTokenModal
          token={revoking}
          onClose={() => setRevoking(null)}
          onRevoked={() => {
            setTokens((listed) => listed.filter((token) => token.id !== revoking.id));
            if (created?.id === revoking.id) setCreated(null);
            setNotice(m.apitoken_revoke_done());
            setRevoking(null);
          }}
        />
      )}
    </>
  );
}
