import type { APIRoute } from 'astro';
import { json, notFound, refuseDataRequest, sandboxOf } from '~/server/provider/sandbox/http';

// Sandbox provider: one receipt's attachments (docs/provider-api.md §2).
export const GET: APIRoute = async (context) => {
  const sandbox = sandboxOf(context);
  const refusal = await refuseDataRequest(sandbox, context.request);
  if (refusal) return refusal;
  const id = context.params.id ?? '';
  const attachments = /^\d{1,9}$/.test(id)
    ? await sandbox.attachments.list(sandbox.store(), Number(id))
    : null;
  return attachments ? json({ attachments }) : notFound();
};
