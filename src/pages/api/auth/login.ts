import { parseJson } from '~/server/http/body';
import { ok, handle } from '~/server/http/respond';
import { openSession } from '~/server/http/session';
import { loginSchema } from '~/shared/validation';

// Public: anyone may try to sign in; the limiter in the service keeps that in bounds.
export const POST = handle(async (context) => {
  const payload = await parseJson(context, loginSchema);
  const user = await openSession(context, payload);
  return ok({ user }, { message: 'Login successful' });
});
