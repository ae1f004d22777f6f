import type { APIRoute } from 'astro';
import { readForm } from '~/server/http/body';
import { AppError } from '~/server/errors';
import { plainRefusal } from '~/server/http/respond';
import { rememberLocale } from '~/server/http/locale-cookie';
import { localPath } from '~/server/http/return-path';
import { savePreferences } from '~/server/services/accounts';
import { localeChoiceSchema } from '~/shared/preferences';

/**
 * The language switcher as a plain form post, so it works before sign-in and without JavaScript:
 * the choice goes into a cookie and, for a signed-in user, into the saved preferences.
 */
export const POST: APIRoute = async (context) => {
  let form: FormData;
  try {
    form = await readForm(context.request);
  } catch (error) {
    if (error instanceof AppError) return plainRefusal(error.status, error.message);
    throw error;
  }
  const parsed = localeChoiceSchema.safeParse({ locale: form.get('locale') });
  if (!parsed.success) return plainRefusal(400, parsed.error.issues[0]?.message ?? '');
  const { locale } = parsed.data;
  const { portal, user } = context.locals;
  rememberLocale(context.cookies, locale, portal.config.isHttps);
  if (user) await savePreferences(portal, user.id, { locale }, locale);
  return context.redirect(localPath(form.get('returnTo')) ?? '/', 303);
};

/** Not a page: like any unknown path, it leads to /. */
export const GET: APIRoute = ({ redirect }) => redirect('/');
