/**
 * The rules and exact messages of spec section 5. Forms and endpoints parse with these same
 * schemas, so the server refuses exactly what the form refuses.
 */
import { z } from 'astro/zod';
import { PASSWORD_MAX, PASSWORD_MIN, ROLES, USERNAME_MAX, USERNAME_MIN } from './constants';

const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;
const lowercase = (value: string) => value.toLowerCase();

export const loginSchema = z.object({
  username: z
    .string({ error: 'Username is required' })
    .min(USERNAME_MIN, 'Username must be at least 3 characters')
    .max(USERNAME_MAX, 'Username must not exceed 30 characters')
    .regex(USERNAME_PATTERN, 'Username can only contain letters, numbers, hyphens, and underscores')
    .transform(lowercase),
  password: z
    .string({ error: 'Password is required' })
    .min(PASSWORD_MIN, 'Password must be at least 6 characters')
    .max(PASSWORD_MAX, 'Password must not exceed 128 characters'),
});
export type LoginPayload = z.input<typeof loginSchema>;

export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'Current password is required' })
    .min(PASSWORD_MIN, 'Current password is required')
    .max(PASSWORD_MAX, 'Password must not exceed 128 characters'),
  newPassword: z
    .string({ error: 'New password must be at least 6 characters' })
    .min(PASSWORD_MIN, 'New password must be at least 6 characters')
    .max(PASSWORD_MAX, 'New password must not exceed 128 characters'),
});
export type ChangePasswordPayload = z.infer<typeof changePasswordSchema>;

/** The profile form adds a confirmation that never leaves the browser. */
export const changePasswordFormSchema = changePasswordSchema
  .extend({ confirmPassword: z.string() })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

const usernameField = z
  .string({ error: 'Username is required' })
  .trim()
  .min(1, 'Username is required')
  .min(USERNAME_MIN, 'Username must be at least 3 characters')
  .max(USERNAME_MAX, 'Username must not exceed 30 characters')
  .regex(USERNAME_PATTERN, 'Username must contain only alphanumeric characters, hyphens, and underscores')
  .transform(lowercase);

const emailField = z
  .string()
  .trim()
  .max(254, 'Email is invalid')
  .refine((value) => value === '' || z.email().safeParse(value).success, 'Email is invalid')
  // null as well as absent: the API gives an unset field as null, and a client may send it back so.
  .nullish()
  .transform((value) => value || null);

const fullNameField = z
  .string()
  .trim()
  .max(100, 'Full name must not exceed 100 characters')
  .nullish()
  .transform((value) => value || null);

export const roleSchema = z.enum(ROLES, { error: 'Role must be admin, admin-viewer or viewer' });

export const createUserSchema = z.object({
  username: usernameField,
  fullName: fullNameField,
  email: emailField,
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .min(PASSWORD_MIN, 'Password must be at least 6 characters')
    .max(PASSWORD_MAX, 'Password must not exceed 128 characters'),
  role: roleSchema.default('viewer'),
});
export type CreateUserPayload = z.input<typeof createUserSchema>;

export const updateUserSchema = z.object({
  username: usernameField,
  fullName: fullNameField,
  email: emailField,
  role: roleSchema,
  isActive: z.boolean({ error: 'isActive must be true or false' }),
});
export type UpdateUserPayload = z.input<typeof updateUserSchema>;

export const resetPasswordSchema = z.object({
  newPassword: z
    .string({ error: 'Password must be at least 6 characters long' })
    .min(PASSWORD_MIN, 'Password must be at least 6 characters long')
    .max(PASSWORD_MAX, 'Password must not exceed 128 characters'),
});
export type ResetPasswordPayload = z.infer<typeof resetPasswordSchema>;

/** The User of spec section 3 as every answer carries it: never a password or hash. */
export const publicUserSchema = z.object({
  id: z.number(),
  username: z.string(),
  fullName: z.string().nullable(),
  email: z.string().nullable(),
  role: roleSchema,
  isActive: z.boolean(),
  lastLogin: z.string().nullable(),
  createdAt: z.string(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export interface FieldIssue {
  field: string;
  message: string;
}

/** Flattens a failed parse into the `details` of the error envelope, first problem first. */
export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
}

/** First message per field, as forms show them under their inputs. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const { field, message } of toFieldIssues(error)) errors[field] ??= message;
  return errors;
}
