/**
 * The rules of the pages an e-mail leads to: asking for a password reset, and choosing a password
 * with a reset link's or an invitation's token.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import { newPasswordField } from './validation';

/** Usernames are at most 30 characters and e-mail addresses at most 254. */
const LOGIN_MAX = 254;
/** Tokens are 43 characters (32 random bytes, base64url); anything far longer is not one of ours. */
const TOKEN_MAX = 100;

const loginRequired = { error: () => m.account_login_required() };
const linkInvalid = { error: () => m.account_link_invalid() };

export const forgotPasswordSchema = z.object({
  login: z
    .string(loginRequired)
    .check(
      z.trim(),
      z.minLength(1, loginRequired),
      z.maxLength(LOGIN_MAX, loginRequired),
      z.toLowerCase(),
    ),
});
export type ForgotPasswordPayload = z.output<typeof forgotPasswordSchema>;

/** Reset and invitation alike: the link's token and the chosen password. */
export const tokenPasswordSchema = z.object({
  token: z
    .string(linkInvalid)
    .check(z.minLength(1, linkInvalid), z.maxLength(TOKEN_MAX, linkInvalid)),
  newPassword: newPasswordField,
});
export type TokenPasswordPayload = z.output<typeof tokenPasswordSchema>;

/** The page's form adds a confirmation that never leaves the browser. */
export const tokenPasswordFormSchema = z
  .extend(tokenPasswordSchema, { confirmPassword: z.string() })
  .check(
    z.refine((form) => form.newPassword === form.confirmPassword, {
      error: () => m.validation_passwords_mismatch(),
      path: ['confirmPassword'],
    }),
  );
