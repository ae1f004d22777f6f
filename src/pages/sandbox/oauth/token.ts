import type { APIRoute } from 'astro';
import { readBody } from '~/server/http/body';
import { AppError } from '~/server/errors';
import { invalidRequest, json, sandboxOf } from '~/server/provider/sandbox/http';

const FORM = 'application/x-www-form-urlencoded';
const MAX_BODY_BYTES = 8_192;

// Sandbox provider: the OAuth2 token endpoint (docs/provider-api.md §1).
export const POST: APIRoute = async (context) => {
  const { request } = context;
  if (!request.headers.get('content-type')?.toLowerCase().startsWith(FORM))
    return invalidRequest(`The body must be ${FORM}`);
  let body: string;
  try {
    body = new TextDecoder().decode(await readBody(request, MAX_BODY_BYTES));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return json({ error: 'invalid_request', error_description: error.message }, error.status);
  }
  const answer = await sandboxOf(context).authorization.answerTokenRequest(
    new URLSearchParams(body),
    request.headers.get('authorization'),
  );
  return json(answer.body, answer.status, { Pragma: 'no-cache', ...answer.headers });
};
