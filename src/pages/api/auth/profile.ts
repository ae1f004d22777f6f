import { requireUser } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';

/** The signed-in user, with the language in effect (the saved preference or this request's). */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  return ok({ user: { ...user, locale: context.locals.locale } });
});
