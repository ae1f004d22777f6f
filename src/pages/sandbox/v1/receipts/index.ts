import type { APIRoute } from 'astro';
import { invalidRequest, json, refuseDataRequest, sandboxOf } from '~/server/provider/sandbox/http';
import { decodeCursor } from '~/server/provider/sandbox/store';

const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 1000;

// Sandbox provider: receipts changed after a cursor (docs/provider-api.md §2).
export const GET: APIRoute = async (context) => {
  const { request, url } = context;
  const sandbox = sandboxOf(context);
  const refusal = await refuseDataRequest(sandbox, request);
  if (refusal) return refusal;
  const since = url.searchParams.get('since');
  const cursor = since === null ? null : decodeCursor(since);
  if (since !== null && !cursor) return invalidRequest('since is not a cursor this provider gave');
  const limitText = url.searchParams.get('limit');
  const limit = limitText === null ? DEFAULT_LIMIT : Number(limitText);
  if (!/^\d{1,4}$/.test(limitText ?? '1') || limit < 1 || limit > MAX_LIMIT)
    return invalidRequest(`limit must be a whole number from 1 to ${MAX_LIMIT}`);

  return json(sandbox.currentStore().listChanges(cursor, limit));
};
