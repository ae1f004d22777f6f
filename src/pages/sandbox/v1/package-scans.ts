import type { APIRoute } from 'astro';
import { invalidRequest, json, refuseDataRequest } from '~/server/provider/sandbox/http';
import { sandboxStore } from '~/server/provider/sandbox/state';

const TRACKING_NUMBER_MAX = 64;

// Sandbox provider: warehouse arrival scans of one tracking number (docs/provider-api.md §2).
export const GET: APIRoute = async ({ request, url }) => {
  const refusal = await refuseDataRequest(request);
  if (refusal) return refusal;
  const trackingNumber = url.searchParams.get('trackingNumber')?.trim() ?? '';
  if (!trackingNumber || trackingNumber.length > TRACKING_NUMBER_MAX) return invalidRequest(`trackingNumber is required (at most ${TRACKING_NUMBER_MAX} characters)`);
  return json({ scans: sandboxStore().scansFor(trackingNumber) });
};
