import { requireUser } from '~/server/http/guard';
import { ok, handle } from '~/server/http/respond';
import { describeEndpoint } from '~/server/http/api-description';
import { okEnvelope } from '~/shared/envelope';
import { signedInUserSchema } from '~/shared/api/accounts';

/** The signed-in user, with the language in effect (the saved preference or this request's). */
export const GET = handle(async (context) => {
  const user = requireUser(context);
  return ok({ user: { ...user, locale: context.locals.locale } });
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'Read your profile',
    description: 'The signed-in user, with the language in effect.',
    access: 'signed-in',
    answer: { status: 200, body: okEnvelope(signedInUserSchema) },
  },
});
