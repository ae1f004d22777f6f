/**
 * The API's response envelope ({ success, data } or { success: false, message, errorType }), and
 * the one place an error becomes an answer.
 */
import type { APIContext } from 'astro';
import { EncodedJson, encodedOnce } from './encoded-json';
import { m } from '~/paraglide/messages.js';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import type { ListedPage } from '../services/receipts';

const JSON_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
};

/**
 * A JSON answer with its length: the compressing server (server.mjs) then leaves small answers alone
 * instead of starting a compressor for every one of them.
 */
function jsonResponse(
  text: string,
  status: number,
  headers: Record<string, string> = JSON_HEADERS,
): Response {
  return new Response(text, {
    status,
    headers: { ...headers, 'Content-Length': String(Buffer.byteLength(text)) },
  });
}

/** `{ success, data, meta?, message? }`: `meta` says about the answer what is not data (how fresh it is). */
export function ok<T>(
  data: T,
  init: { status?: number; message?: string; meta?: object } = {},
): Response {
  const body = {
    success: true,
    data,
    ...(init.meta !== undefined && { meta: init.meta }),
    ...(init.message !== undefined && { message: init.message }),
  };
  return jsonResponse(JSON.stringify(body), init.status ?? 200);
}

/**
 * A paged list that is never cached (the audit trail): `{ success, data, pagination }`, the receipt
 * list's envelope.
 */
export function okList<T>(page: { data: T[]; pagination: object }): Response {
  return jsonResponse(JSON.stringify({ success: true, ...page }), 200);
}

/**
 * A page of the receipt list: pagination and meta sit beside data. A page just read is compressed off
 * the event loop (encodedOnce); a page from the read cache is sent in forms the cache keeps with it
 * (one per sync time and processing time), so sending it again reuses the JSON and compression of the
 * last time it went out with the same meta. The page's kept text goes in as it is: the same bytes as
 * `JSON.stringify({ success, data, pagination, meta })`.
 */
export function okPage(
  context: Pick<APIContext, 'request' | 'locals'>,
  { answer, meta }: ListedPage,
): Response | Promise<Response> {
  const text = () => `{"success":true,${answer.value.slice(1, -1)},"meta":${JSON.stringify(meta)}}`;
  const { answerEncodings } = context.locals.portal;
  if (!meta.cached) return encodedOnce(text(), context.request, JSON_HEADERS, answerEncodings);
  // The rest of a cached page's meta is the same for every form: `cached` is true.
  const form = answer.sent(
    `${meta.lastSyncedAt}|${meta.processingTime}`,
    () => new EncodedJson(text()),
  );
  return form.response(context.request, JSON_HEADERS, answerEncodings);
}

/** `log` takes the failures that are no AppError: those are the portal's own, and logged with the request. */
export function errorResponse(error: unknown, log?: Pick<Logger, 'error'>): Response {
  const appError =
    error instanceof AppError ? error : new AppError('INTERNAL_ERROR', m.error_unexpected());
  if (!(error instanceof AppError))
    log?.error({ component: 'http', err: error }, 'Unhandled error');
  const headers: Record<string, string> = { ...JSON_HEADERS };
  if (appError.retryAfter !== undefined) headers['Retry-After'] = String(appError.retryAfter);
  const body = {
    success: false,
    message: appError.message,
    errorType: appError.errorType,
    ...(appError.details && { details: appError.details }),
    ...(appError.retryAfter !== undefined && { retryAfter: appError.retryAfter }),
  };
  return jsonResponse(JSON.stringify(body), appError.status, headers);
}

/**
 * A readiness check's 503: the failure envelope, with the checks as `data` so that whoever looks sees
 * which one failed.
 */
export function notReady(message: string, data: object): Response {
  return jsonResponse(
    JSON.stringify({ success: false, message, errorType: 'INTERNAL_ERROR', data }),
    503,
  );
}

/** A form post's refusal (no JSON envelope outside /api): the status and the message as plain text. */
export function plainRefusal(status: number, message: string): Response {
  return new Response(message, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

/** Wraps an endpoint so that any thrown error is answered in the envelope, never as a bare 500. */
export function handle(endpoint: (context: APIContext) => Promise<Response>) {
  return async (context: APIContext): Promise<Response> => {
    try {
      return await endpoint(context);
    } catch (error) {
      return errorResponse(error, context.locals.portal.log);
    }
  };
}
