/**
 * The plain form post of a page that sets a password with a link's token (a reset, an invitation):
 * checked with the shared schema, applied once, and on success a notice for the sign-in page.
 */
import type { AstroCookies } from 'astro';
import { tokenPasswordFormSchema, type TokenPasswordPayload } from '~/shared/accounts';
import { fieldErrors } from '~/shared/validation';
import { AppError } from '../errors';
import { readForm } from './body';
import { leaveNotice, type RedirectNotice } from './redirect-notice';

/** What the form shows after a refused post. */
export interface TokenPasswordFormState {
  error?: string;
  fieldErrors?: Partial<Record<'newPassword' | 'confirmPassword', string>>;
}

export type TokenPasswordOutcome =
  | { kind: 'done' }
  | { kind: 'refused'; status: number; state: TokenPasswordFormState }
  /** The link stopped working meanwhile (used, replaced, revoked, expired). */
  | { kind: 'link-ended'; status: number };

export async function submitTokenPassword(
  context: { request: Request; cookies: AstroCookies; locals: App.Locals },
  token: string,
  setPassword: (payload: TokenPasswordPayload) => Promise<void>,
  notice: RedirectNotice,
): Promise<TokenPasswordOutcome> {
  try {
    const parsed = tokenPasswordFormSchema.safeParse({
      ...Object.fromEntries(await readForm(context.request)),
      token,
    });
    if (!parsed.success)
      return { kind: 'refused', status: 400, state: { fieldErrors: fieldErrors(parsed.error) } };
    await setPassword(parsed.data);
    leaveNotice(context.cookies, notice, context.locals.portal.config.isHttps);
    return { kind: 'done' };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // The services refuse a token that no longer works on its `token` field; anything else is the form's.
    if (error.details?.some((issue) => issue.field === 'token'))
      return { kind: 'link-ended', status: error.status };
    return { kind: 'refused', status: error.status, state: { error: error.message } };
  }
}
