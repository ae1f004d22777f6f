/**
 * Profile Settings → Passkeys: the user's passkeys with their names and dates, renaming and removing
 * one, and adding one (the password first, then the browser makes it). @simplewebauthn/browser is
 * loaded only when a passkey is added, so the page does not carry it otherwise.
 */
import { useState, type SubmitEvent } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, ApiError, errorText } from '~/shared/api-client';
import type { Locale } from '~/shared/locale';
import {
  PASSKEY_NAME_MAX,
  passkeyRegistrationOptionsSchema,
  renamePasskeySchema,
  type PasskeyList,
  type PasskeyView,
} from '~/shared/passkeys';
import { fieldErrors } from '~/shared/validation';
import { LocalDate } from '../common/LocalDate';
import { adoptLocale } from '../common/locale';
import { ReadyFieldset } from '../common/ReadyFieldset';
import { useHydrated } from '../common/use-hydrated';
import { RemovePasskeyModal } from './RemovePasskeyModal';

export interface PasskeySettingsProps {
  locale: Locale;
  initialList: PasskeyList;
  /** Lets password managers match the password confirmation to the account. */
  username: string;
}

/** The browser turned the request down or it timed out (the user closed the prompt): no error of ours. */
const isCancelled = (error: unknown) =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');

export default function PasskeySettings({ locale, initialList, username }: PasskeySettingsProps) {
  adoptLocale(locale);
  const hydrated = useHydrated();
  const [passkeys, setPasskeys] = useState(initialList.passkeys);
  const [failure, setFailure] = useState('');
  const [passwordError, setPasswordError] = useState('');
  const [notice, setNotice] = useState('');
  const [pending, setPending] = useState(false);
  const [renaming, setRenaming] = useState<{ id: number; error: string } | null>(null);
  const [removing, setRemoving] = useState<PasskeyView | null>(null);

  if (!initialList.availability.available) {
    return <p className="text-sm">{m.passkey_off_ip_host()}</p>;
  }
  const supported = !hydrated || typeof window.PublicKeyCredential === 'function';

  async function add(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = event.currentTarget;
    const parsed = passkeyRegistrationOptionsSchema.safeParse({
      password: new FormData(form).get('password'),
    });
    setFailure('');
    setNotice('');
    if (!parsed.success) {
      setPasswordError(fieldErrors(parsed.error).password ?? '');
      return;
    }
    setPasswordError('');
    setPending(true);
    try {
      const { options } = await api('POST', '/auth/passkeys/registration/options', parsed.data);
      form.reset();
      const { startRegistration } = await import('@simplewebauthn/browser');
      const credential = await startRegistration({ optionsJSON: options });
      const added = await api('POST', '/auth/passkeys/registration/verify', {
        credential,
      });
      setPasskeys((listed) => [...listed, added]);
      setNotice(m.passkey_added({ name: added.name }));
    } catch (error) {
      if (isCancelled(error)) setFailure(m.passkey_add_cancelled());
      else {
        const details = error instanceof ApiError ? error.body?.details : undefined;
        const password = Array.isArray(details)
          ? details.find((detail) => detail.field === 'password')
          : undefined;
        if (password) setPasswordError(password.message);
        else setFailure(errorText(error));
      }
    }
    setPending(false);
  }

  async function rename(event: SubmitEvent<HTMLFormElement>, passkey: PasskeyView) {
    event.preventDefault();
    const parsed = renamePasskeySchema.safeParse({
      name: new FormData(event.currentTarget).get('name'),
    });
    if (!parsed.success) {
      setRenaming({ id: passkey.id, error: fieldErrors(parsed.error).name ?? '' });
      return;
    }
    try {
      const renamed = await api('PATCH', `/auth/passkeys/${passkey.id}`, parsed.data);
      setPasskeys((listed) => listed.map((item) => (item.id === renamed.id ? renamed : item)));
      setRenaming(null);
      setNotice(m.passkey_renamed());
    } catch (error) {
      setRenaming({ id: passkey.id, error: errorText(error) });
    }
  }

  return (
    <>
      <ReadyFieldset>
        <div className="flex flex-col gap-4">
          <p className="text-sm opacity-70">{m.passkey_intro()}</p>
          {notice && (
            <div role="status" className="alert alert-success alert-soft text-sm">
              {notice}
            </div>
          )}
          {passkeys.length === 0 ? (
            <p className="text-sm">{m.passkey_list_empty()}</p>
          ) : (
            <ul className="flex flex-col gap-2" aria-label={m.passkey_list_label()}>
              {passkeys.map((passkey) => (
                <li
                  key={passkey.id}
                  className={[
                    'flex flex-wrap items-center justify-between gap-2',
                    'rounded-box border border-base-content/10 p-3 text-sm',
                  ].join(' ')}
                >
                  {renaming?.id === passkey.id ? (
                    <form
                      noValidate
                      className="flex w-full flex-col gap-2"
                      onSubmit={(event) => rename(event, passkey)}
                    >
                      <label htmlFor={`passkey-name-${passkey.id}`} className="text-sm font-medium">
                        {m.passkey_name_label()}
                      </label>
                      <input
                        id={`passkey-name-${passkey.id}`}
                        name="name"
                        defaultValue={passkey.name}
                        maxLength={PASSKEY_NAME_MAX}
                        autoComplete="off"
                        className={renaming.error ? 'input input-error w-full' : 'input w-full'}
                        aria-invalid={renaming.error ? true : undefined}
                        aria-describedby={
                          renaming.error ? `passkey-name-${passkey.id}-error` : undefined
                        }
                      />
                      {renaming.error && (
                        <p id={`passkey-name-${passkey.id}-error`} className="text-xs text-error">
                          {renaming.error}
                        </p>
                      )}
                      <div className="flex flex-wrap gap-2">
                        <button type="submit" className="btn btn-sm btn-primary">
                          {m.passkey_save()}
                        </button>
                        <button
                          type="button"
                          className="btn btn-sm btn-ghost"
                          onClick={() => setRenaming(null)}
                        >
                          {m.passkey_cancel()}
                        </button>
                      </div>
                    </form>
                  ) : (
                    <>
                      <div className="min-w-0">
                        <p className="font-medium break-words">{passkey.name}</p>
                        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 opacity-70">
                          <dt>{m.passkey_created()}</dt>
                          <dd>
                            <LocalDate value={passkey.createdAt} />
                          </dd>
                          <dt>{m.passkey_last_used()}</dt>
                          <dd>
                            {passkey.lastUsedAt ? (
                              <LocalDate value={passkey.lastUsedAt} withTime />
                            ) : (
                              m.passkey_never_used()
                            )}
                          </dd>
                        </dl>
                      </div>
                      <div className="flex flex-wrap gap-2">
                        <button
                          type="button"
                          className="btn btn-sm btn-outline"
                          aria-label={m.passkey_rename_named({ name: passkey.name })}
                          onClick={() => setRenaming({ id: passkey.id, error: '' })}
                        >
                          {m.passkey_rename()}
                        </button>
                        <button
                          type="button"
                          className="btn btn-sm btn-outline btn-error"
                          aria-label={m.passkey_remove_named({ name: passkey.name })}
                          onClick={() => setRemoving(passkey)}
                        >
                          {m.passkey_remove()}
                        </button>
                      </div>
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
          {supported ? (
            <form noValidate onSubmit={add} className="flex flex-col gap-3">
              <input
                type="text"
                name="username"
                value={username}
                autoComplete="username"
                readOnly
                hidden
              />
              <div className="flex flex-col gap-1">
                <label htmlFor="passkey-add-password" className="text-sm font-medium">
                  {m.passkey_add_password_label()}
                </label>
                <input
                  id="passkey-add-password"
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  className={passwordError ? 'input input-error w-full' : 'input w-full'}
                  onChange={() => setPasswordError('')}
                  aria-invalid={passwordError ? true : undefined}
                  aria-describedby={
                    passwordError ? 'passkey-add-password-error' : 'passkey-add-password-hint'
                  }
                />
                {passwordError ? (
                  <p id="passkey-add-password-error" className="text-xs text-error">
                    {passwordError}
                  </p>
                ) : (
                  <p id="passkey-add-password-hint" className="text-xs opacity-70">
                    {m.passkey_add_password_hint()}
                  </p>
                )}
              </div>
              {failure && (
                <div role="alert" className="alert alert-error alert-soft text-sm">
                  {failure}
                </div>
              )}
              <button type="submit" className="btn btn-primary self-start" disabled={pending}>
                {pending ? m.passkey_adding() : m.passkey_add()}
              </button>
            </form>
          ) : (
            <p className="text-sm">{m.passkey_unsupported()}</p>
          )}
        </div>
      </ReadyFieldset>
      {removing && (
        <RemovePasskeyModal
          passkey={removing}
          onClose={() => setRemoving(null)}
          onRemoved={() => {
            setPasskeys((listed) => listed.filter((passkey) => passkey.id !== removing.id));
            setNotice(m.passkey_removed());
            setRemoving(null);
          }}
        />
      )}
    </>
  );
}
