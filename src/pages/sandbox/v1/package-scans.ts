import type { APIRoute } from 'astro';
import { invalidRequest, json, refuseDataRequest, sandboxOf } from '~/server/provider/sandbox/http';

const TRACKING_NUMBER_MAX = 64;

// Sandbox provider: warehouse arrival scans of one tracking number (docs/provider-api.md §2).
export const GET: APIRoute = async (context) => {
  const sandbox = sandboxOf(context);
  const refusal = await refuseDataRequest(sandbox, context.request);
  if (refusal) return refusal;
  const trackingNumber = context.url.searchParams.get('trackingNumber')?.trim() ?? '';
  if (!trackingNumber || trackingNumber.length > TRACKING_NUMBER_MAX)
    return invalidRequest(`trackingNumber is required (at most ${TRACKING_NUMBER_MAX} characters)`);
  return json({ scans: sandbox.store().scansFor(trackingNumber) });
};
