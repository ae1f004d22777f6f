import type { APIRoute } from 'astro';
import { notFound, refuseDataRequest, sandboxOf } from '~/server/provider/sandbox/http';

// Sandbox provider: one attachment's bytes (docs/provider-api.md §2).
export const GET: APIRoute = async (context) => {
  const sandbox = sandboxOf(context);
  const refusal = await refuseDataRequest(sandbox, context.request);
  if (refusal) return refusal;
  const file = await sandbox.attachments.file(sandbox.store(), context.params.id ?? '');
  if (!file) return notFound();
  return new Response(Buffer.from(file.bytes), {
    headers: {
      'Content-Type': file.contentType,
      'Content-Length': String(file.bytes.byteLength),
      'Cache-Control': 'no-store',
    },
  });
};
