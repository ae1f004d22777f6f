/**
 * Token Management's Update Tokens form: both tokens (masked until 'Show token values'), an
 * optional refresh token expiry in seconds, parsed with the schema POST /api/tokens/update uses.
 */
import { useId, useState, type SubmitEvent } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, errorText } from '~/shared/api-client';
import { REFRESH_EXPIRY_MAX_SECONDS, REFRESH_EXPIRY_MIN_SECONDS } from '~/shared/constants';
import { tokenUpdateSchema } from '~/shared/tokens';
import { FailureAlert } from '../common/Modal';

interface UpdateTokensFormProps {
  onCancel: () => void;
  onUpdated: () => void;
}

/** Dots instead of characters, as a password field shows them, while the value stays a plain text area. */
const MASKED = '[-webkit-text-security:disc]';

export function UpdateTokensForm({ onCancel, onUpdated }: UpdateTokensFormProps) {
  const [accessToken, setAccessToken] = useState('');
  const [refreshToken, setRefreshToken] = useState('');
  const [expirySeconds, setExpirySeconds] = useState('');
  const [showValues, setShowValues] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const titleId = useId();
  const ids = { expiry: useId(), expiryHint: useId() };

  const filled = accessToken.trim() !== '' && refreshToken.trim() !== '';

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const parsed = tokenUpdateSchema.safeParse({
      accessToken,
      refreshToken,
      refreshTokenExpirySeconds: expirySeconds,
    });
    if (!parsed.success)
      return setFailure(parsed.error.issues[0]?.message ?? m.tokens_invalid_input());
    setFailure(null);
    setSaving(true);
    try {
      await api('POST', '/tokens/update', parsed.data);
      return onUpdated();
    } catch (error) {
      setFailure(errorText(error));
    }
    setSaving(false);
  }

  return (
    <section className="surface rounded-box border border-base-300 p-5" aria-labelledby={titleId}>
      <h2 id={titleId} className="mb-4 text-lg font-semibold">
        {m.tokens_update_title()}
      </h2>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4" autoComplete="off">
        <FailureAlert message={failure} />
        <TokenField
          label={m.tokens_access_token()}
          placeholder={m.tokens_paste_access_token()}
          value={accessToken}
          onChange={setAccessToken}
          masked={!showValues}
        />
        <TokenField
          label={m.tokens_refresh_token()}
          placeholder={m.tokens_paste_refresh_token()}
          value={refreshToken}
          onChange={setRefreshToken}
          masked={!showValues}
        />
        <label className="flex cursor-pointer items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="checkbox checkbox-sm"
            checked={showValues}
            onChange={(event) => setShowValues(event.target.checked)}
          />
          {m.tokens_show_values()}
        </label>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.expiry} className="text-sm font-medium">
            {m.tokens_expiry_label()}
          </label>
          <input
            id={ids.expiry}
            type="number"
            inputMode="numeric"
            className="input input-bordered w-full sm:max-w-xs"
            min={REFRESH_EXPIRY_MIN_SECONDS}
            max={REFRESH_EXPIRY_MAX_SECONDS}
            step={1}
            value={expirySeconds}
            onChange={(event) => setExpirySeconds(event.target.value)}
            aria-describedby={ids.expiryHint}
          />
          <p id={ids.expiryHint} className="text-xs opacity-70">
            {m.tokens_expiry_hint({
              min: String(REFRESH_EXPIRY_MIN_SECONDS),
              max: String(REFRESH_EXPIRY_MAX_SECONDS),
            })}
          </p>
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={saving}>
            {m.tokens_cancel()}
          </button>
          <button type="submit" className="btn btn-primary" disabled={!filled || saving}>
            {saving && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {m.tokens_update_title()}
          </button>
        </div>
      </form>
    </section>
  );
}

interface TokenFieldProps {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  masked: boolean;
}

function TokenField({ label, placeholder, value, onChange, masked }: TokenFieldProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <textarea
        id={id}
        className={`textarea textarea-bordered w-full font-mono text-xs ${masked ? MASKED : ''}`}
        rows={3}
        spellCheck={false}
        autoCorrect="off"
        autoCapitalize="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
      />
    </div>
  );
}
