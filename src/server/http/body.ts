/** Reading request input through the shared schemas: a bad payload is a 4xx with the spec's message. */
import type { APIContext } from 'astro';
import type * as z from 'zod/mini';
import { toFieldIssues } from '~/shared/validation';
import { AppError } from './errors';

const MAX_JSON_BYTES = 64 * 1024;

export function parseWith<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = toFieldIssues(result.error);
  throw new AppError('VALIDATION_ERROR', details[0]?.message ?? 'Invalid request', { details });
}

export async function parseJson<S extends z.ZodMiniType>(context: Pick<APIContext, 'request'>, schema: S): Promise<z.output<S>> {
  const { request } = context;
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(contentType)) {
    throw new AppError('VALIDATION_ERROR', 'Content-Type must be application/json', { status: 415 });
  }
  const declaredLength = Number(request.headers.get('content-length') ?? 0);
  if (declaredLength > MAX_JSON_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_JSON_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    throw new AppError('VALIDATION_ERROR', 'Request body is not valid JSON');
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new AppError('VALIDATION_ERROR', 'Request body must be a JSON object');
  }
  return parseWith(schema, input);
}

/** Route ids are positive integers; anything else names nothing. */
export function parseId(raw: string | undefined, what: string): number {
  const id = Number(raw);
  if (!raw || !/^\d{1,15}$/.test(raw) || !Number.isSafeInteger(id) || id < 1) throw new AppError('NOT_FOUND', `${what} not found`);
  return id;
}
