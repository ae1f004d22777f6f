/** Answers of the sandbox's endpoints: plain JSON as the provider contract has it, not the portal's envelope. */
import type { Sandbox } from './state';

const OUTAGE_RETRY_SECONDS = 60;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      ...headers,
    },
  });
}

export const notFound = () => json({ error: 'not_found' }, 404);

export const invalidRequest = (description: string) =>
  json({ error: 'invalid_request', error_description: description }, 400);

/** What every data call passes first: the simulated outage, then the Bearer token. */
export async function refuseDataRequest(
  sandbox: Sandbox,
  request: Request,
): Promise<Response | null> {
  if (sandbox.down) {
    return json(
      {
        error: 'temporarily_unavailable',
        error_description: 'The sandbox provider is down (simulated outage)',
      },
      503,
      {
        'Retry-After': String(OUTAGE_RETRY_SECONDS),
      },
    );
  }
  const bearer = await sandbox.authorization.checkBearerToken(request.headers.get('authorization'));
  if (bearer === 'valid') return null;
  const challenge =
    bearer === 'missing'
      ? 'Bearer realm="sandbox"'
      : 'Bearer realm="sandbox", error="invalid_token", ' +
        'error_description="The access token is invalid, expired or revoked"';
  return json({ error: bearer === 'missing' ? 'invalid_request' : 'invalid_token' }, 401, {
    'WWW-Authenticate': challenge,
  });
}

/** The portal's sandbox: the middleware answers 404 to every sandbox path when there is none. */
export function sandboxOf(context: { locals: App.Locals }): Sandbox {
  const { sandbox } = context.locals.portal;
  if (!sandbox) throw new Error('The sandbox is not running (PROVIDER is not sandbox)');
  return sandbox;
}
