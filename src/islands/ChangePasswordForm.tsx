/**
 * The Change Password form of Profile Settings. Server-rendered as a plain form post to /profile;
 * once hydrated it validates with the shared schema and calls the API. The inputs are uncontrolled so
 * that hydration keeps what was typed before it.
 */
import { useEffect, useState, type SubmitEvent } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, errorText } from '~/shared/api-client';
import { FEEDBACK_LONG_MS, PASSWORD_MAX, PASSWORD_MIN } from '~/shared/constants';
import type { Locale } from '~/shared/locale';
import { changePasswordFormSchema, fieldErrors } from '~/shared/validation';
import { adoptLocale } from './common/locale';

type Field = 'currentPassword' | 'newPassword' | 'confirmPassword';
type FieldErrors = Partial<Record<Field, string>>;

const FIELDS: ReadonlyArray<{ name: Field; label: () => string; autoComplete: string }> = [
  { name: 'currentPassword', label: m.profile_current_password, autoComplete: 'current-password' },
  { name: 'newPassword', label: m.profile_new_password, autoComplete: 'new-password' },
  { name: 'confirmPassword', label: m.profile_confirm_password, autoComplete: 'new-password' },
];

/** What the server's answer to a form post hands back. */
export interface ChangePasswordFormProps {
  locale: Locale;
  /** Lets password managers file the new password under the right account. */
  username: string;
  changed?: boolean;
  error?: string;
  fieldErrors?: FieldErrors;
}

export default function ChangePasswordForm(props: ChangePasswordFormProps) {
  adoptLocale(props.locale);
  const [errors, setErrors] = useState<FieldErrors>(props.fieldErrors ?? {});
  const [error, setError] = useState(props.error ?? '');
  const [success, setSuccess] = useState(props.changed ? m.profile_password_changed() : '');
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (!success) return;
    const timer = setTimeout(() => setSuccess(''), FEEDBACK_LONG_MS);
    return () => clearTimeout(timer);
  }, [success]);

  function edit(field: Field) {
    return () => {
      setErrors((current) => ({ ...current, [field]: undefined }));
      setError('');
    };
  }

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setSuccess('');
    const form = event.currentTarget;
    const parsed = changePasswordFormSchema.safeParse(Object.fromEntries(new FormData(form)));
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setError('');
    setPending(true);
    try {
      const { currentPassword, newPassword, signOutOthers } = parsed.data;
      await api('POST', '/auth/change-password', { currentPassword, newPassword, signOutOthers });
      form.reset();
      setSuccess(m.profile_password_changed());
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setPending(false);
    }
  }

  return (
    <form
      method="post"
      action="/profile"
      noValidate
      onSubmit={submit}
      className="flex flex-col gap-4"
    >
      {success && (
        <div role="status" className="alert alert-success alert-soft text-sm">
          {success}
        </div>
      )}
      {error && (
        <div role="alert" className="alert alert-error alert-soft text-sm">
          {error}
        </div>
      )}
      <input
        type="text"
        name="username"
        value={props.username}
        autoComplete="username"
        readOnly
        hidden
      />
      {FIELDS.map(({ name, label, autoComplete }) => (
        <div key={name} className="flex flex-col gap-1">
          <label htmlFor={`profile-${name}`} className="text-sm font-medium">
            {label()}
          </label>
          <input
            id={`profile-${name}`}
            name={name}
            type="password"
            className={errors[name] ? 'input input-error w-full' : 'input w-full'}
            onChange={edit(name)}
            autoComplete={autoComplete}
            aria-invalid={errors[name] ? true : undefined}
            aria-describedby={errors[name] ? `profile-${name}-error` : undefined}
          />
          {errors[name] && (
            <p id={`profile-${name}-error`} className="text-sm text-error">
              {errors[name]}
            </p>
          )}
        </div>
      ))}
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name="signOutOthers"
          className="checkbox checkbox-sm mt-0.5"
          defaultChecked
        />
        <span>{m.profile_sign_out_others()}</span>
      </label>
      <div className="rounded-box border border-info/30 bg-info/10 p-4 text-sm">
        <p className="mb-1 font-medium text-info">{m.profile_password_requirements()}</p>
        <ul className="list-disc pl-5 opacity-80">
          <li>{m.profile_requirement_min({ min: PASSWORD_MIN })}</li>
          <li>{m.profile_requirement_max({ max: PASSWORD_MAX })}</li>
          <li>{m.profile_requirement_match()}</li>
        </ul>
      </div>
      <button type="submit" className="btn btn-primary self-start" disabled={pending}>
        {pending ? m.profile_changing_password() : m.profile_change_password()}
      </button>
    </form>
  );
}
