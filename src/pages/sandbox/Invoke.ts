import type { APIRoute } from 'astro';
import { json, notFound, sandboxOf } from '~/server/provider/sandbox/http';

/** A SOAP envelope of CSSoapService is a few hundred bytes; this is far more than any call needs. */
const ENVELOPE_MAX_BYTES = 64 * 1024;

// Sandbox provider as Magaya's CSSoapService (SANDBOX_PROTOCOL=magaya; docs/provider-magaya.md).
export const POST: APIRoute = async (context) => {
  const sandbox = sandboxOf(context);
  if (!sandbox.magaya) return notFound();
  if (sandbox.down) return json({ error: 'temporarily_unavailable' }, 503);
  const body = await context.request.text();
  if (Buffer.byteLength(body) > ENVELOPE_MAX_BYTES)
    return new Response('Request too large', { status: 413 });
  const { status, body: answer } = await sandbox.magaya.answer(body);
  return new Response(answer, {
    status,
    headers: { 'Content-Type': 'text/xml; charset=utf-8', 'Cache-Control': 'no-store' },
  });
};
