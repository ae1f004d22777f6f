import type { APIRoute } from 'astro';
import { json, refuseDataRequest, sandboxOf } from '~/server/provider/sandbox/http';

// Sandbox provider: the optional parts of the contract it serves (docs/provider-api.md §2).
export const GET: APIRoute = async (context) => {
  const sandbox = sandboxOf(context);
  const refusal = await refuseDataRequest(sandbox, context.request);
  if (refusal) return refusal;
  return json({ capabilities: sandbox.offersPrealerts ? ['prealerts'] : [] });
};
