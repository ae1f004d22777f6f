/**
 * The middle of turning two-factor sign-in on: the QR code and the setup key of a fresh secret, and
 * the code from the app that proves it works. Used by Profile Settings and by the sign-in page, when
 * an admin must enrol before signing in.
 */
import { Fragment, useState, type SubmitEvent } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, errorText } from '~/shared/api-client';
import { enableTwoFactorSchema, TOTP_DIGITS, type TwoFactorSetup } from '~/shared/two-factor';
import { fieldErrors, type PublicUser } from '~/shared/validation';

/** What enabling answers: the recovery codes, and the user when it finished a sign-in. */
export interface EnableAnswer {
  recoveryCodes: string[];
  user?: PublicUser;
}

interface TwoFactorEnrolmentProps {
  setup: TwoFactorSetup;
  onEnabled: (answer: EnableAnswer) => void;
  onCancel?: () => void;
}

/** The setup key in groups of four, as apps that take it typed show it. */
const groups = (secret: string) => secret.match(/.{1,4}/g) ?? [secret];

export function TwoFactorEnrolment({ setup, onEnabled, onCancel }: TwoFactorEnrolmentProps) {
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);
  const [copied, setCopied] = useState(false);

  async function copySecret() {
    try {
      await navigator.clipboard.writeText(setup.secret);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refusal): the key stays on screen to type.
    }
  }

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const parsed = enableTwoFactorSchema.safeParse(
      Object.fromEntries(new FormData(event.currentTarget)),
    );
    if (!parsed.success) {
      setError(fieldErrors(parsed.error).code ?? '');
      return;
    }
    setError('');
    setPending(true);
    try {
      onEnabled(await api('POST', '/auth/2fa/enable', parsed.data));
    } catch (failure) {
      setError(errorText(failure));
      setPending(false);
    }
  }

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">{m.twofactor_scan()}</p>
      {/* A QR code reads dark on light whatever the theme. */}
      <img
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
        alt={m.twofactor_qr_alt()}
        width={192}
        height={192}
        className="self-center rounded-box bg-white p-2"
      />
      <div className="flex flex-col gap-1">
        <span className="text-sm font-medium" id="two-factor-secret-label">
          {m.twofactor_secret_label()}
        </span>
        {/* Wraps between its groups only, never inside one. */}
        <code
          className="rounded-box bg-base-200 px-3 py-2 font-mono text-sm"
          aria-labelledby="two-factor-secret-label"
          data-two-factor-secret
        >
          {groups(setup.secret).map((group, index) => (
            <Fragment key={index}>
              {index > 0 && ' '}
              <span className="whitespace-nowrap">{group}</span>
            </Fragment>
          ))}
        </code>
        {/* A phone cannot scan its own screen: the key to paste, or the app opened with it. */}
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            className="btn btn-sm btn-outline"
            onClick={() => void copySecret()}
          >
            {m.twofactor_secret_copy()}
          </button>
          <a className="btn btn-sm btn-outline" href={setup.otpauthUri}>
            {m.twofactor_open_app()}
          </a>
          <span role="status" className="text-sm text-success">
            {copied ? m.twofactor_secret_copied() : ''}
          </span>
        </div>
      </div>
      <form noValidate onSubmit={submit} className="flex flex-col gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="two-factor-enable-code" className="text-sm font-medium">
            {m.twofactor_code_label()}
          </label>
          <input
            id="two-factor-enable-code"
            name="code"
            className={error ? 'input input-error w-full' : 'input w-full'}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={TOTP_DIGITS + 2}
            onChange={() => setError('')}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'two-factor-enable-error' : undefined}
          />
          {error && (
            <p id="two-factor-enable-error" className="text-sm text-error" role="alert">
              {error}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {pending ? m.twofactor_turning_on() : m.twofactor_turn_on()}
          </button>
          {onCancel && (
            <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={pending}>
              {m.common_cancel()}
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
