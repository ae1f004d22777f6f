import type { APIRoute } from 'astro';
import * as z from 'zod/mini';
import {
  invalidRequest,
  json,
  notFound,
  refuseDataRequest,
  sandboxOf,
} from '~/server/provider/sandbox/http';

const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));
/** What the warehouse needs of a pre-alert (docs/provider-api.md §2); other fields are taken and ignored. */
const prealertSchema = z.looseObject({
  id: z.number().check(z.int(), z.positive()),
  consigneeId: z.number().check(z.int(), z.positive()),
  trackingNumber: text(64),
  shipper: text(200),
  description: text(300),
});

// Sandbox provider: a new or changed pre-alert, an upsert by the portal's id (docs/provider-api.md §2).
export const POST: APIRoute = async (context) => {
  const sandbox = sandboxOf(context);
  const refusal = await refuseDataRequest(sandbox, context.request);
  if (refusal) return refusal;
  if (!sandbox.offersPrealerts) return notFound();
  const parsed = prealertSchema.safeParse(await context.request.json().catch(() => undefined));
  if (!parsed.success)
    return invalidRequest(
      'A pre-alert needs id, consigneeId, trackingNumber, shipper and description',
    );
  const { id, consigneeId, trackingNumber, shipper, description } = parsed.data;
  const { created, ...state } = sandbox
    .currentStore()
    .announcePrealert({ id, consigneeId, trackingNumber, shipper, description });
  sandbox.keep();
  return json({ id, ...state }, created ? 201 : 200);
};
