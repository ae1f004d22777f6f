import { parseJson } from '~/server/http/body';
import { ok, handle } from '~/server/http/respond';
import { setSessionCookie } from '~/server/http/session-cookie';
import { login } from '~/server/services/auth';
import { loginSchema } from '~/shared/validation';

// Public: anyone may try to sign in; the limiter in the service keeps that in bounds.
export const POST = handle(async (context) => {
  const payload = await parseJson(context, loginSchema);
  const { user, token } = await login(payload, context.locals.clientAddress);
  setSessionCookie(context.cookies, token);
  return ok({ user }, { message: 'Login successful' });
});
