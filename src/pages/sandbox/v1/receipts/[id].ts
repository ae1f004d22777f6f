import type { APIRoute } from 'astro';
import { json, notFound, refuseDataRequest } from '~/server/provider/sandbox/http';
import { sandboxStore } from '~/server/provider/sandbox/state';

// Sandbox provider: one receipt (docs/provider-api.md §2).
export const GET: APIRoute = async ({ request, params }) => {
  const refusal = await refuseDataRequest(request);
  if (refusal) return refusal;
  const id = params.id ?? '';
  const receipt = /^\d{1,9}$/.test(id) ? sandboxStore().receipt(Number(id)) : null;
  return receipt ? json(receipt) : notFound();
};
