import { useState, type SubmitEvent } from 'react';
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import { ROLES, type Role } from '~/shared/constants';
import { roleLabel } from '~/shared/format';
import { getLocale } from '~/paraglide/runtime.js';
import { languageName, locales, type Locale } from '~/shared/locale';
import {
  createUserSchema,
  fieldErrors,
  updateUserSchema,
  type CreateUserPayload,
  type PublicUser,
  type UpdateUserPayload,
} from '~/shared/validation';
import { failureText } from '../common/failure-text';
import { FailureAlert, Modal, ModalActions } from '../common/Modal';
import { SelectField, TextField } from './fields';

interface UserFormModalProps {
  /** The user being edited; null to create one. */
  user: PublicUser | null;
  /** The portal sends e-mail: a new user may be invited to choose their own password. */
  mailEnabled: boolean;
  onClose: () => void;
  /** `invited`: the new user was sent an invitation. */
  onSaved: (invited: boolean) => void;
}

interface FormValues {
  username: string;
  fullName: string;
  email: string;
  password: string;
  /** Send an invitation e-mail instead of typing a password. */
  invite: boolean;
  /** The invitation's language. */
  locale: Locale;
  role: Role;
  isActive: boolean;
}

/** A new user starts as a viewer, the role with the least access, until the admin picks another. */
function startingValues(user: PublicUser | null): FormValues {
  return {
    username: user?.username ?? '',
    fullName: user?.fullName ?? '',
    email: user?.email ?? '',
    password: '',
    invite: false,
    locale: getLocale(),
    role: user?.role ?? 'viewer',
    isActive: user?.isActive ?? true,
  };
}

type Submission =
  | { errors: Record<string, string> }
  | { method: 'PUT'; path: `/auth/users/${number}`; payload: UpdateUserPayload }
  | { method: 'POST'; path: '/auth/users'; payload: CreateUserPayload };

/** Checks the form with the shared schema and, when it passes, says which call saves it. */
function prepare(user: PublicUser | null, values: FormValues): Submission {
  const { username, fullName, email, password, invite, locale, role, isActive } = values;
  if (user) {
    const payload: UpdateUserPayload = { username, fullName, email, role, isActive };
    const parsed = updateUserSchema.safeParse(payload);
    return parsed.success
      ? { method: 'PUT', path: `/auth/users/${user.id}`, payload }
      : { errors: fieldErrors(parsed.error) };
  }
  const payload: CreateUserPayload = invite
    ? { username, fullName, email, invite, locale, role }
    : { username, fullName, email, password, role };
  const parsed = createUserSchema.safeParse(payload);
  return parsed.success
    ? { method: 'POST', path: '/auth/users', payload }
    : { errors: fieldErrors(parsed.error) };
}

/** Add or edit a user, with the user-form rules of src/shared/validation.ts. */
export function UserFormModal({ user, mailEnabled, onClose, onSaved }: UserFormModalProps) {
  const editing = user !== null;
  const [values, setValues] = useState(() => startingValues(user));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  function change<Field extends keyof FormValues>(field: Field, value: FormValues[Field]) {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors(({ [field]: _fixed, ...others }) => others);
  }

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const submission = prepare(user, values);
    if ('errors' in submission) return setErrors(submission.errors);
    setFailure(null);
    setSaving(true);
    try {
      await api(submission.method, submission.path, submission.payload);
      return onSaved(!editing && values.invite);
    } catch (error) {
      setFailure(failureText(error, editing ? m.users_update_failed() : m.users_create_failed()));
    }
    setSaving(false);
  }

  const close = () => !saving && onClose();

  return (
    <Modal title={editing ? m.users_edit_title() : m.users_add_user()} onClose={close}>
      <form onSubmit={submit} noValidate>
        <FailureAlert message={failure} />
        <TextField
          label={m.users_field_username()}
          value={values.username}
          onChange={(event) => change('username', event.target.value.toLowerCase())}
          error={errors.username}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
        <TextField
          label={m.users_field_full_name()}
          value={values.fullName}
          onChange={(event) => change('fullName', event.target.value)}
          error={errors.fullName}
          autoComplete="off"
        />
        <TextField
          label={m.users_field_email()}
          type="email"
          value={values.email}
          onChange={(event) => change('email', event.target.value)}
          error={errors.email}
          autoComplete="off"
        />
        {!editing && mailEnabled && (
          <fieldset className="mt-3">
            <legend className="mb-1 text-sm font-medium">{m.users_password_method()}</legend>
            {[false, true].map((invite) => (
              <label
                key={String(invite)}
                className="label cursor-pointer gap-3 py-1 text-base-content"
              >
                <input
                  type="radio"
                  name="password-method"
                  className="radio radio-primary radio-sm"
                  checked={values.invite === invite}
                  onChange={() => change('invite', invite)}
                />
                {invite ? m.users_password_invite() : m.users_password_typed()}
              </label>
            ))}
          </fieldset>
        )}
        {!editing && values.invite && (
          <>
            <p className="mt-1 text-sm opacity-80">{m.users_invite_hint()}</p>
            <SelectField
              label={m.users_invite_language()}
              value={values.locale}
              onChange={(event) =>
                change(
                  'locale',
                  locales.find((locale) => locale === event.target.value) ?? values.locale,
                )
              }
              error={errors.locale}
            >
              {locales.map((locale) => (
                <option key={locale} value={locale}>
                  {languageName(locale)}
                </option>
              ))}
            </SelectField>
          </>
        )}
        {!editing && !values.invite && (
          <TextField
            label={m.users_field_password()}
            type="password"
            value={values.password}
            onChange={(event) => change('password', event.target.value)}
            error={errors.password}
            autoComplete="new-password"
            required
          />
        )}
        <SelectField
          label={m.users_field_role()}
          value={values.role}
          onChange={(event) =>
            change('role', ROLES.find((role) => role === event.target.value) ?? values.role)
          }
          error={errors.role}
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {roleLabel(role)}
            </option>
          ))}
        </SelectField>
        {editing && (
          <label className="label mt-3 cursor-pointer gap-3 text-base-content">
            <input
              type="checkbox"
              className="checkbox checkbox-primary"
              checked={values.isActive}
              onChange={(event) => change('isActive', event.target.checked)}
            />
            {m.users_field_active()}
          </label>
        )}
        <ModalActions
          confirm={editing ? m.users_save_changes() : m.users_create_user()}
          busy={saving}
          onCancel={close}
        />
      </form>
    </Modal>
  );
}
