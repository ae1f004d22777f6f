import type { APIRoute } from 'astro';
import { json, notFound, refuseDataRequest, sandboxOf } from '~/server/provider/sandbox/http';

// Sandbox provider: a pre-alert withdrawn; one whose package already came cannot be (docs/provider-api.md §2).
export const DELETE: APIRoute = async (context) => {
  const sandbox = sandboxOf(context);
  const refusal = await refuseDataRequest(sandbox, context.request);
  if (refusal) return refusal;
  const id = context.params.id ?? '';
  const state =
    /^\d{1,15}$/.test(id) && sandbox.offersPrealerts
      ? sandbox.currentStore().withdrawPrealert(Number(id))
      : null;
  if (!state) return notFound();
  if (state.status === 'pending') sandbox.keep();
  if (state.status === 'received')
    return json({ error: 'already_received', receiptId: state.receiptId }, 409);
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
};
