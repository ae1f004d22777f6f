/**
 * The rules and exact messages of spec section 5. Forms and endpoints parse with these same
 * schemas, so the server refuses exactly what the form refuses. Written with zod's mini build:
 * it tree-shakes to a few KB, so the login form can carry its rules on a slow link.
 */
import * as z from 'zod/mini';
import type { Locale } from './locale';
import { PASSWORD_MAX, PASSWORD_MIN, ROLES, USERNAME_MAX, USERNAME_MIN } from './constants';

const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;

export const loginSchema = z.object({
  username: z
    .string({ error: 'Username is required' })
    .check(
      z.minLength(USERNAME_MIN, 'Username must be at least 3 characters'),
      z.maxLength(USERNAME_MAX, 'Username must not exceed 30 characters'),
      z.regex(USERNAME_PATTERN, 'Username can only contain letters, numbers, hyphens, and underscores'),
      z.toLowerCase(),
    ),
  password: z
    .string({ error: 'Password is required' })
    .check(
      z.minLength(PASSWORD_MIN, 'Password must be at least 6 characters'),
      z.maxLength(PASSWORD_MAX, 'Password must not exceed 128 characters'),
    ),
});
export type LoginPayload = z.output<typeof loginSchema>;

export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'Current password is required' })
    .check(
      z.minLength(PASSWORD_MIN, 'Current password is required'),
      z.maxLength(PASSWORD_MAX, 'Password must not exceed 128 characters'),
    ),
  newPassword: z
    .string({ error: 'New password must be at least 6 characters' })
    .check(
      z.minLength(PASSWORD_MIN, 'New password must be at least 6 characters'),
      z.maxLength(PASSWORD_MAX, 'New password must not exceed 128 characters'),
    ),
});
export type ChangePasswordPayload = z.output<typeof changePasswordSchema>;

/** The profile form adds a confirmation that never leaves the browser. */
export const changePasswordFormSchema = z
  .extend(changePasswordSchema, { confirmPassword: z.string() })
  .check(
    z.refine((form) => form.newPassword === form.confirmPassword, {
      error: "Passwords don't match",
      path: ['confirmPassword'],
    }),
  );

const usernameField = z
  .string({ error: 'Username is required' })
  .check(
    z.trim(),
    z.minLength(1, 'Username is required'),
    z.minLength(USERNAME_MIN, 'Username must be at least 3 characters'),
    z.maxLength(USERNAME_MAX, 'Username must not exceed 30 characters'),
    z.regex(USERNAME_PATTERN, 'Username must contain only alphanumeric characters, hyphens, and underscores'),
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

const emailField = optionalText([
  z.maxLength(254, 'Email is invalid'),
  z.refine((value: string) => value === '' || EMAIL.safeParse(value).success, 'Email is invalid'),
]);

const fullNameField = optionalText([z.maxLength(100, 'Full name must not exceed 100 characters')]);

export const roleSchema = z.enum(ROLES, { error: 'Role must be admin, admin-viewer or viewer' });

export const createUserSchema = z.object({
  username: usernameField,
  fullName: fullNameField,
  email: emailField,
  password: z
    .string({ error: 'Password is required' })
    .check(
      z.minLength(1, 'Password is required'),
      z.minLength(PASSWORD_MIN, 'Password must be at least 6 characters'),
      z.maxLength(PASSWORD_MAX, 'Password must not exceed 128 characters'),
    ),
  role: z._default(roleSchema, 'viewer'),
});
export type CreateUserPayload = z.input<typeof createUserSchema>;
export type CreateUserInput = z.output<typeof createUserSchema>;

export const updateUserSchema = z.object({
  username: usernameField,
  fullName: fullNameField,
  email: emailField,
  role: roleSchema,
  isActive: z.boolean({ error: 'isActive must be true or false' }),
});
export type UpdateUserPayload = z.input<typeof updateUserSchema>;
export type UpdateUserInput = z.output<typeof updateUserSchema>;

export const resetPasswordSchema = z.object({
  newPassword: z
    .string({ error: 'Password must be at least 6 characters long' })
    .check(
      z.minLength(PASSWORD_MIN, 'Password must be at least 6 characters long'),
      z.maxLength(PASSWORD_MAX, 'Password must not exceed 128 characters'),
    ),
});
export type ResetPasswordPayload = z.output<typeof resetPasswordSchema>;

/** The User of spec section 3 as every answer carries it: never a password or hash. */
export const publicUserSchema = z.object({
  id: z.number(),
  username: z.string(),
  fullName: z.nullable(z.string()),
  email: z.nullable(z.string()),
  role: roleSchema,
  isActive: z.boolean(),
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
