import type { APIRoute } from 'astro';
import { json, refuseDataRequest } from '~/server/provider/sandbox/http';
import { sandboxStore } from '~/server/provider/sandbox/state';

// Sandbox provider: every consignee (docs/provider-api.md §2).
export const GET: APIRoute = async ({ request }) => {
  const refusal = await refuseDataRequest(request);
  if (refusal) return refusal;
  return json({ consignees: sandboxStore().consignees });
};
