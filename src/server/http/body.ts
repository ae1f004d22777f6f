/** Reading request input through the shared schemas: a bad payload is a 4xx with the schema's message. */
import type { APIContext } from 'astro';
import type * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import { firstValues } from '~/shared/receipts';
import { routeIdSchema } from '~/shared/route-id';
import { toFieldIssues } from '~/shared/validation';
import { AppError } from '../errors';

/** JSON bodies and form posts: far more than any of them needs. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The request's body chunk by chunk as it arrives, failing with 413 once it passes `maxBytes`: a body
 * of any size (chunked, without Content-Length) never costs more memory than the limit, and one with a
 * Content-Length over the limit fails before a byte is read. The rest of a refused body is left unread
 * (refused-body.ts discards it): cancelling it would close the connection before the 413 could be sent.
 */
export async function* bodyChunks(
  request: Request,
  maxBytes: number,
  tooLarge: string = m.validation_body_too_large(),
): AsyncGenerator<Uint8Array> {
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes)
    throw new AppError('PAYLOAD_TOO_LARGE', tooLarge);
  if (!request.body) return;
  const reader = request.body.getReader();
  // Only the connection can break a read: the client went away mid-body.
  const read = () =>
    reader
      .read()
      .catch(() => Promise.reject(new AppError('VALIDATION_ERROR', m.validation_body_cut_off())));
  let received = 0;
  try {
    for (let next = await read(); !next.done; next = await read()) {
      received += next.value.byteLength;
      if (received > maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', tooLarge);
      yield next.value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** The whole body, up to `maxBytes` (see bodyChunks). */
export async function readBody(
  request: Request,
  maxBytes = MAX_BODY_BYTES,
): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of bodyChunks(request, maxBytes)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A form post (URL-encoded or multipart) through readBody; a body that is no form reads as an empty one. */
export async function readForm(request: Request): Promise<FormData> {
  const body = await readBody(request);
  const headers = { 'content-type': request.headers.get('content-type') ?? '' };
  return new Response(body, { headers }).formData().catch(() => new FormData());
}

export function parseWith<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = toFieldIssues(result.error);
  throw new AppError('VALIDATION_ERROR', details[0]?.message ?? m.validation_invalid_request(), {
    details,
  });
}

/** The request's query (first value of each name) through `schema`, as `parseWith`. */
export function parseQuery<S extends z.ZodMiniType>(
  context: Pick<APIContext, 'url'>,
  schema: S,
): z.output<S> {
  return parseWith(schema, firstValues(context.url.searchParams));
}

export async function parseJson<S extends z.ZodMiniType>(
  context: Pick<APIContext, 'request'>,
  schema: S,
): Promise<z.output<S>> {
  const { request } = context;
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(contentType)) {
    throw new AppError('VALIDATION_ERROR', m.validation_json_required(), { status: 415 });
  }
  const text = new TextDecoder().decode(await readBody(request));
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    throw new AppError('VALIDATION_ERROR', m.validation_json_invalid());
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new AppError('VALIDATION_ERROR', m.validation_json_not_object());
  }
  return parseWith(schema, input);
}

/**
 * Route ids are positive integers; anything else names nothing and is refused with `notFound`, the
 * message a missing row of that kind gets ('User not found'), built in the request's language.
 */
export function parseId(raw: string | undefined, notFound: () => string): number {
  const parsed = routeIdSchema.safeParse(raw);
  if (!parsed.success) throw new AppError('NOT_FOUND', notFound());
  return parsed.data;
}
