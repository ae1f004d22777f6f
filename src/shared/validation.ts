/**
 * The input rules (limits in constants.ts) and their exact messages (messages/en.json). Forms and
 * endpoints parse with these same schemas, so the server refuses exactly what the form refuses.
 * Written with zod's mini build: it tree-shakes to a few KB, so the login form can carry its rules
 * on a slow link. Each message is built when a check fails, so it comes in the language of that
 * request or page.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import { locales, type Locale } from './locale';
import { PASSWORD_MAX, PASSWORD_MIN, ROLES, USERNAME_MAX, USERNAME_MIN } from './constants';

const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/** A check's message, built in the current language when the check fails. */
const says = (message: () => string) => ({ error: () => message() });

const usernameMin = says(() => m.validation_username_min({ min: USERNAME_MIN }));
const usernameMax = says(() => m.validation_username_max({ max: USERNAME_MAX }));
const passwordMin = says(() => m.validation_password_min({ min: PASSWORD_MIN }));
const passwordMax = says(() => m.validation_password_max({ max: PASSWORD_MAX }));

export const loginSchema = z.object({
  username: z
    .string(says(m.validation_username_required))
    .check(
      z.minLength(USERNAME_MIN, usernameMin),
      z.maxLength(USERNAME_MAX, usernameMax),
      z.regex(USERNAME_PATTERN, says(m.validation_username_characters)),
      z.toLowerCase(),
    ),
  password: z
    .string(says(m.validation_password_required))
    .check(z.minLength(PASSWORD_MIN, passwordMin), z.maxLength(PASSWORD_MAX, passwordMax)),
});
export type LoginPayload = z.output<typeof loginSchema>;

const newPasswordMin = says(() => m.validation_new_password_min({ min: PASSWORD_MIN }));

/** The rules of a password a user chooses for themselves: changing it, resetting it, accepting an invitation. */
export const newPasswordField = z.string(newPasswordMin).check(
  z.minLength(PASSWORD_MIN, newPasswordMin),
  z.maxLength(
    PASSWORD_MAX,
    says(() => m.validation_new_password_max({ max: PASSWORD_MAX })),
  ),
);

export const changePasswordSchema = z.object({
  currentPassword: z
    .string(says(m.validation_current_password_required))
    .check(
      z.minLength(PASSWORD_MIN, says(m.validation_current_password_required)),
      z.maxLength(PASSWORD_MAX, passwordMax),
    ),
  newPassword: newPasswordField,
  /**
   * Sign out the other sessions and revoke the API tokens too: what a user who fears a stolen
   * password wants, so left out it is true.
   */
  signOutOthers: z._default(z.boolean(says(m.validation_sign_out_others_invalid)), true),
});
export type ChangePasswordPayload = z.output<typeof changePasswordSchema>;

/**
 * The profile form adds a confirmation that never leaves the browser; its box for signing out the
 * others is a checkbox, which a form leaves out when it is not ticked.
 */
export const changePasswordFormSchema = z
  .extend(changePasswordSchema, {
    confirmPassword: z.string(),
    signOutOthers: z.pipe(
      z.optional(z.string()),
      z.transform((value: string | undefined) => value === 'on'),
    ),
  })
  .check(
    z.refine((form) => form.newPassword === form.confirmPassword, {
      error: () => m.validation_passwords_mismatch(),
      path: ['confirmPassword'],
    }),
  );

const usernameField = z
  .string(says(m.validation_username_required))
  .check(
    z.trim(),
    z.minLength(1, says(m.validation_username_required)),
    z.minLength(USERNAME_MIN, usernameMin),
    z.maxLength(USERNAME_MAX, usernameMax),
    z.regex(USERNAME_PATTERN, says(m.validation_username_alphanumeric)),
    z.toLowerCase(),
  );

const EMAIL = z.email();

/** Optional text: absent, null and '' all mean "not set" and come out as null. */
function optionalText(rules: z.core.$ZodCheck<string>[]) {
  return z.pipe(
    z.nullish(z.string().check(z.trim(), ...rules)),
    z.transform((value: string | null | undefined) => value || null),
  );
}

const emailInvalid = says(m.validation_email_invalid);
const emailField = optionalText([
  z.maxLength(254, emailInvalid),
  z.refine((value: string) => value === '' || EMAIL.safeParse(value).success, emailInvalid),
]);

const FULL_NAME_MAX = 100;
const fullNameField = optionalText([
  z.maxLength(
    FULL_NAME_MAX,
    says(() => m.validation_full_name_max({ max: FULL_NAME_MAX })),
  ),
]);

export const roleSchema = z.enum(ROLES, says(m.validation_role_invalid));

/** Lets a whole-object check speak alongside the fields' own messages, so a form shows every problem at once. */
const whenAnObject = {
  when: (payload: { value: unknown }) =>
    typeof payload.value === 'object' && payload.value !== null,
};

const adminChosenPassword = z
  .string(says(m.validation_password_required))
  .check(
    z.minLength(1, says(m.validation_password_required)),
    z.minLength(PASSWORD_MIN, passwordMin),
    z.maxLength(PASSWORD_MAX, passwordMax),
  );

/**
 * A new user gets a password typed by the admin, or, with `invite`, an e-mail to choose their own:
 * then the e-mail address is needed and no password may be sent along.
 */
export const createUserSchema = z
  .object({
    username: usernameField,
    fullName: fullNameField,
    email: emailField,
    password: z.optional(adminChosenPassword),
    invite: z._default(z.boolean(says(m.validation_invite_invalid)), false),
    /** The language of the invitation, and the user's until they choose another. */
    locale: z.optional(
      z.enum(
        locales,
        says(() => m.preferences_locale_invalid({ languages: locales.join(', ') })),
      ),
    ),
    role: z._default(roleSchema, 'viewer'),
  })
  .check(
    z.refine((user) => user.invite || user.password !== undefined, {
      error: () => m.validation_password_required(),
      path: ['password'],
      ...whenAnObject,
    }),
    z.refine((user) => !user.invite || user.email !== null, {
      error: () => m.users_invite_needs_email(),
      path: ['email'],
      ...whenAnObject,
    }),
    z.refine((user) => !user.invite || user.password === undefined, {
      error: () => m.users_invite_no_password(),
      path: ['password'],
      ...whenAnObject,
    }),
  );
export type CreateUserPayload = z.input<typeof createUserSchema>;
export type CreateUserInput = z.output<typeof createUserSchema>;

export const updateUserSchema = z.object({
  username: usernameField,
  fullName: fullNameField,
  email: emailField,
  role: roleSchema,
  isActive: z.boolean(says(m.validation_is_active_invalid)),
});
export type UpdateUserPayload = z.input<typeof updateUserSchema>;
export type UpdateUserInput = z.output<typeof updateUserSchema>;

const resetPasswordMin = says(() => m.validation_password_min_long({ min: PASSWORD_MIN }));

export const resetPasswordSchema = z.object({
  newPassword: z
    .string(resetPasswordMin)
    .check(z.minLength(PASSWORD_MIN, resetPasswordMin), z.maxLength(PASSWORD_MAX, passwordMax)),
});
export type ResetPasswordPayload = z.output<typeof resetPasswordSchema>;

/** A user as every answer carries it: never a password or hash. */
export const publicUserSchema = z.object({
  id: z.number(),
  username: z.string(),
  fullName: z.nullable(z.string()),
  email: z.nullable(z.string()),
  role: roleSchema,
  isActive: z.boolean(),
  /** Invited and not yet accepted: cannot sign in until they choose a password. */
  invited: z.boolean(),
  lastLogin: z.nullable(z.string()),
  createdAt: z.string(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/** The signed-in user as a request knows it: the User plus the saved language (null until chosen). */
export type SessionUser = PublicUser & { locale: Locale | null };

export interface FieldIssue {
  field: string;
  message: string;
}

/** Flattens a failed parse into the `details` of the error envelope, first problem first. */
export function toFieldIssues(error: z.core.$ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
}

/** First message per field, as forms show them under their inputs. */
export function fieldErrors(error: z.core.$ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const { field, message } of toFieldIssues(error)) errors[field] ??= message;
  return errors;
}
