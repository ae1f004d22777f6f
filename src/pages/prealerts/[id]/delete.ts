import type { APIRoute } from 'astro';
import { m } from '~/paraglide/messages.js';
import { parseId } from '~/server/http/body';
import { AppError } from '~/server/errors';
import { requireCustomer } from '~/server/http/prealerts';
import { plainRefusal } from '~/server/http/respond';
import { deletePrealert } from '~/server/services/prealerts';

/**
 * The list's "Yes, delete" as a plain form post (it works without JavaScript); back to the list,
 * which says how it went.
 */
export const POST: APIRoute = async (context) => {
  try {
    await deletePrealert(
      context.locals.portal,
      requireCustomer(context),
      parseId(context.params.id, m.prealert_not_found),
      context.locals.clientAddress,
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Arrived meanwhile, or gone: the list shows which it is now.
    if (error.errorType === 'CONFLICT' || error.errorType === 'NOT_FOUND')
      return context.redirect('/prealerts?done=not-deleted', 303);
    return plainRefusal(error.status, error.message);
  }
  return context.redirect('/prealerts?done=deleted', 303);
};

/** Not a page: like any unknown path, it leads to /. */
export const GET: APIRoute = ({ redirect }) => redirect('/');
