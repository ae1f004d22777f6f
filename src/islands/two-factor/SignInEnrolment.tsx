/**
 * The sign-in page's enrolment step: with TWO_FACTOR=required-for-admins, an admin without two-factor
 * sign-in sets it up before the sign-in finishes. Enabling opens the session; the recovery codes are
 * shown, and Continue goes where the sign-in was headed.
 */
import { useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, errorText } from '~/shared/api-client';
import { STORED_USER_KEY } from '~/shared/constants';
import type { Locale } from '~/shared/locale';
import type { TwoFactorSetup } from '~/shared/two-factor';
import { adoptLocale } from '../common/locale';
import { RecoveryCodes } from './RecoveryCodes';
import { TwoFactorEnrolment } from './TwoFactorEnrolment';

export interface SignInEnrolmentProps {
  locale: Locale;
  /** Where the finished sign-in goes (the page sign-in interrupted, else the dashboard). */
  destination: string;
}

export default function SignInEnrolment({ locale, destination }: SignInEnrolmentProps) {
  adoptLocale(locale);
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);

  async function start() {
    setError('');
    setPending(true);
    try {
      setSetup(await api('POST', '/auth/2fa/setup'));
    } catch (failure) {
      setError(errorText(failure));
    }
    setPending(false);
  }

  return (
    <section className="flex flex-col gap-4" aria-labelledby="enrolment-heading">
      <h2 id="enrolment-heading" className="text-lg font-semibold">
        {m.twofactor_set_up()}
      </h2>
      {codes ? (
        <RecoveryCodes
          codes={codes}
          doneLabel={m.twofactor_continue()}
          onDone={() => window.location.assign(destination)}
        />
      ) : setup ? (
        <TwoFactorEnrolment
          setup={setup}
          onEnabled={({ recoveryCodes, user }) => {
            try {
              if (user) localStorage.setItem(STORED_USER_KEY, JSON.stringify(user));
            } catch {
              // Storage may be disabled; the session cookie is what signs the user in.
            }
            setCodes(recoveryCodes);
          }}
        />
      ) : (
        <>
          <p className="text-sm">{m.twofactor_setup_needed()}</p>
          <p className="text-sm opacity-70">{m.twofactor_intro()}</p>
          {error && (
            <div role="alert" className="alert alert-error alert-soft text-sm">
              {error}
            </div>
          )}
          <button type="button" className="btn btn-primary" onClick={start} disabled={pending}>
            {pending ? m.twofactor_starting() : m.twofactor_set_up()}
          </button>
        </>
      )}
    </section>
  );
}
