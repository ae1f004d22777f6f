import type { APIRoute } from 'astro';
import { m } from '~/paraglide/messages.js';
import { parseId, readForm } from '~/server/http/body';
import { AppError } from '~/server/errors';
import { plainRefusal } from '~/server/http/respond';
import { revokeShareLink } from '~/server/services/receipts';

/** Profile Settings' "Revoke" on a share link as a plain form post (it works without JavaScript). */
export const POST: APIRoute = async (context) => {
  const user = context.locals.user!;
  try {
    const form = await readForm(context.request);
    await revokeShareLink(
      context.locals.portal,
      user,
      parseId(String(form.get('id') ?? ''), m.share_not_found),
      context.locals.clientAddress,
    );
  } catch (error) {
    if (error instanceof AppError) return plainRefusal(error.status, error.message);
    throw error;
  }
  return context.redirect('/profile#shares-heading', 303);
};

/** Not a page: like any unknown path, it leads to /. */
export const GET: APIRoute = ({ redirect }) => redirect('/');
