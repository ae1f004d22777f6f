/**
 * Profile Settings → Two-factor sign-in: whether it is on, setting it up (QR code, setup key, a code
 * from the app, then the recovery codes once), and turning it off with the password and a code.
 */
import { useState, type SubmitEvent } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, errorText } from '~/shared/api-client';
import type { Locale } from '~/shared/locale';
import {
  disableTwoFactorSchema,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '~/shared/two-factor';
import { fieldErrors } from '~/shared/validation';
import { adoptLocale } from '../common/locale';
import { RecoveryCodes } from './RecoveryCodes';
import { TwoFactorEnrolment } from './TwoFactorEnrolment';

export interface TwoFactorSettingsProps {
  locale: Locale;
  initialStatus: TwoFactorStatus;
  /** Lets password managers match the password confirmation to the account. */
  username: string;
}

type View =
  | { kind: 'status' }
  | { kind: 'setup'; setup: TwoFactorSetup }
  | { kind: 'codes'; codes: string[] };

export default function TwoFactorSettings({
  locale,
  initialStatus,
  username,
}: TwoFactorSettingsProps) {
  adoptLocale(locale);
  const [status, setStatus] = useState(initialStatus);
  const [view, setView] = useState<View>({ kind: 'status' });
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [pending, setPending] = useState(false);

  async function startSetup() {
    setError('');
    setNotice('');
    setPending(true);
    try {
      setView({ kind: 'setup', setup: await api('POST', '/auth/2fa/setup') });
    } catch (failure) {
      setError(errorText(failure));
    }
    setPending(false);
  }

  async function turnOff(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = event.currentTarget;
    const parsed = disableTwoFactorSchema.safeParse(Object.fromEntries(new FormData(form)));
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      setError(errors.password ?? errors.code ?? '');
      return;
    }
    setError('');
    setPending(true);
    try {
      await api('POST', '/auth/2fa/disable', parsed.data);
      form.reset();
      setStatus({ enabled: false, recoveryCodesLeft: 0 });
      setNotice(m.twofactor_disabled());
    } catch (failure) {
      setError(errorText(failure));
    }
    setPending(false);
  }

  if (view.kind === 'setup') {
    return (
      <TwoFactorEnrolment
        setup={view.setup}
        onEnabled={({ recoveryCodes }) => {
          setStatus({ enabled: true, recoveryCodesLeft: recoveryCodes.length });
          setView({ kind: 'codes', codes: recoveryCodes });
        }}
        onCancel={() => setView({ kind: 'status' })}
      />
    );
  }
  if (view.kind === 'codes') {
    return (
      <RecoveryCodes
        codes={view.codes}
        doneLabel={m.twofactor_saved_codes()}
        onDone={() => setView({ kind: 'status' })}
      />
    );
  }

  return (
    <div className="flex flex-col gap-4">
      {notice && (
        <div role="status" className="alert alert-success alert-soft text-sm">
          {notice}
        </div>
      )}
      <p className="text-sm" data-two-factor-status={status.enabled ? 'on' : 'off'}>
        {status.enabled ? m.twofactor_status_on() : m.twofactor_status_off()}
      </p>
      {status.enabled ? (
        <>
          <p className="text-sm opacity-80">
            {m.twofactor_codes_left({ count: String(status.recoveryCodesLeft) })}
          </p>
          <form noValidate onSubmit={turnOff} className="flex flex-col gap-3">
            <input
              type="text"
              name="username"
              value={username}
              autoComplete="username"
              readOnly
              hidden
            />
            <div className="flex flex-col gap-1">
              <label htmlFor="two-factor-disable-password" className="text-sm font-medium">
                {m.twofactor_password_label()}
              </label>
              <input
                id="two-factor-disable-password"
                name="password"
                type="password"
                autoComplete="current-password"
                className={error ? 'input input-error w-full' : 'input w-full'}
                onChange={() => setError('')}
                aria-invalid={error ? true : undefined}
                aria-describedby="two-factor-disable-hint"
              />
              <p id="two-factor-disable-hint" className="text-xs opacity-70">
                {m.twofactor_turn_off_hint()}
              </p>
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor="two-factor-disable-code" className="text-sm font-medium">
                {m.twofactor_turn_off_code_label()}
              </label>
              <input
                id="two-factor-disable-code"
                name="code"
                type="text"
                autoComplete="one-time-code"
                spellCheck={false}
                className={error ? 'input input-error w-full' : 'input w-full'}
                onChange={() => setError('')}
                aria-invalid={error ? true : undefined}
                aria-describedby="two-factor-disable-hint"
              />
            </div>
            {error && (
              <div role="alert" className="alert alert-error alert-soft text-sm">
                {error}
              </div>
            )}
            <button
              type="submit"
              className="btn btn-outline btn-error self-start"
              disabled={pending}
            >
              {pending ? m.twofactor_turning_off() : m.twofactor_turn_off()}
            </button>
          </form>
        </>
      ) : (
        <>
          <p className="text-sm opacity-70">{m.twofactor_intro()}</p>
          {error && (
            <div role="alert" className="alert alert-error alert-soft text-sm">
              {error}
            </div>
          )}
          <button
            type="button"
            className="btn btn-primary self-start"
            onClick={startSetup}
            disabled={pending}
          >
            {pending ? m.twofactor_starting() : m.twofactor_set_up()}
          </button>
        </>
      )}
    </div>
  );
}
