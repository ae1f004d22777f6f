import type { APIRoute } from 'astro';
import { closeSession } from '~/server/http/session';

/** 'Sign out' as a plain form post, so it works before or without JavaScript. */
export const POST: APIRoute = async (context) => {
  await closeSession(context);
  return context.redirect('/login', 303);
};

/** Not a page: like any unknown path, it leads to /. */
export const GET: APIRoute = ({ redirect }) => redirect('/');
