import type { APIRoute } from 'astro';
import { answerRevocationRequest } from '~/server/provider/sandbox/authorization';
import { invalidRequest, json } from '~/server/provider/sandbox/http';

const FORM = 'application/x-www-form-urlencoded';
const MAX_BODY_CHARS = 8_192;

// Sandbox provider: the OAuth2 revocation endpoint (RFC 7009, docs/provider-api.md §1).
export const POST: APIRoute = async ({ request }) => {
  if (!request.headers.get('content-type')?.toLowerCase().startsWith(FORM)) return invalidRequest(`The body must be ${FORM}`);
  const body = await request.text();
  if (body.length > MAX_BODY_CHARS) return invalidRequest('The body is too large');
  const answer = await answerRevocationRequest(new URLSearchParams(body), request.headers.get('authorization'));
  return json(answer.body, answer.status, answer.headers);
};
