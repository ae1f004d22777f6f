/**
 * The API's envelope as schemas: `{ success: true, data, message?, meta? }`, the paged lists, and the
 * failure `{ success: false, message, errorType, details?, retryAfter? }`. The API description
 * (src/server/http/openapi.ts) is generated from them, and the contract tests parse real answers with them.
 * Like the answer schemas of src/shared/api, it is for the server and the tests: browser code that
 * imports a module carries every schema the module builds.
 */
import * as z from 'zod/mini';
import { paginationSchema } from './receipts';
import type { FieldIssue } from './validation';

/** True when two types are one: each assignable to the other. */
type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * The schema of an answer whose type the code already names (the interface a service returns and a
 * screen reads): `schemaOf<TokenStatus>()(z.object({ … }))` compiles only while the two describe the
 * same value, so neither changes without the other. A mismatch reads "not assignable to … never".
 */
export function schemaOf<Answer>() {
  return <Schema extends z.ZodMiniType>(
    schema: Schema & (SameShape<z.output<Schema>, Answer> extends true ? unknown : never),
  ): Schema => schema;
}

/** Every `errorType` an answer can carry; the HTTP status of each is src/server/errors.ts's. */
export const ERROR_TYPES = [
  'VALIDATION_ERROR',
  'AUTHENTICATION_ERROR',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'EXTERNAL_API_ERROR',
  'INTERNAL_ERROR',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/** One refused field of a failed validation: `field` is its path (`email`, `consigneeIds.2`). */
export const fieldIssueSchema = schemaOf<FieldIssue>()(
  z.object({ field: z.string(), message: z.string() }),
);

/** `retryAfter` (seconds, also the Retry-After header) comes with RATE_LIMITED and EXTERNAL_API_ERROR. */
export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errorType: z.enum(ERROR_TYPES),
  details: z.optional(z.array(fieldIssueSchema)),
  retryAfter: z.optional(z.number()),
});
export type ErrorAnswer = z.infer<typeof errorEnvelopeSchema>;

/** A success: the data, and a message for the person who acted when there is one to show. */
export function okEnvelope<Data extends z.ZodMiniType>(data: Data) {
  return z.object({ success: z.literal(true), data, message: z.optional(z.string()) });
}

/** A success whose `meta` says about the answer what is not data (how fresh it is). */
export function okEnvelopeWithMeta<Data extends z.ZodMiniType, Meta extends z.ZodMiniType>(
  data: Data,
  meta: Meta,
) {
  return z.object({ success: z.literal(true), data, meta, message: z.optional(z.string()) });
}

/** A page of a list: `{ success, data: [...], pagination }`. */
export function pageEnvelope<Item extends z.ZodMiniType>(item: Item) {
  return z.object({ success: z.literal(true), data: z.array(item), pagination: paginationSchema });
}

/** A page of a list with its `meta`: `{ success, data: [...], pagination, meta }`. */
export function pageEnvelopeWithMeta<Item extends z.ZodMiniType, Meta extends z.ZodMiniType>(
  item: Item,
  meta: Meta,
) {
  return z.object({
    success: z.literal(true),
    data: z.array(item),
    pagination: paginationSchema,
    meta,
  });
}

/** GET /api/openapi.json answers the OpenAPI document itself, outside the envelope, as OpenAPI tools expect it. */
export const apiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** A success with nothing to hand back: `data` is null, `message` says what was done. */
export const doneEnvelopeSchema = okEnvelope(z.null());
