import type { APIRoute } from 'astro';
import { readForm } from '~/server/http/body';
import { AppError } from '~/server/errors';
import { plainRefusal } from '~/server/http/respond';
import { savePreferences } from '~/server/services/accounts';

/**
 * Profile Settings' status e-mail switch as a plain form post (it works without JavaScript): the
 * button says which way; the rules are the preferences API's (an address, a portal that sends mail).
 */
export const POST: APIRoute = async (context) => {
  const user = context.locals.user!;
  try {
    const form = await readForm(context.request);
    await savePreferences(
      context.locals.portal,
      user.id,
      { statusEmails: form.get('statusEmails') === 'true' },
      context.locals.locale,
    );
  } catch (error) {
    if (error instanceof AppError) return plainRefusal(error.status, error.message);
    throw error;
  }
  return context.redirect('/profile#status-emails-heading', 303);
};

/** Not a page: like any unknown path, it leads to /. */
export const GET: APIRoute = ({ redirect }) => redirect('/');
