/** The API's response envelope ({ success, data } or { success: false, message, errorType }), and the one place an error becomes an answer. */
import type { APIContext } from 'astro';
import { LRUCache } from 'lru-cache';
import { EncodedJson, EncodingChooser } from './encoded-json';
import { m } from '~/paraglide/messages.js';
import { AppError } from '../errors';
import type { Logger } from '../logger';

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' };

/**
 * A JSON answer with its length: the compressing server (server.mjs) then leaves small answers alone
 * instead of starting a compressor for every one of them.
 */
function jsonResponse(text: string, status: number, headers: Record<string, string> = JSON_HEADERS): Response {
  return new Response(text, { status, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(text)) } });
}

/** `{ success, data, meta?, message? }`: `meta` says about the answer what is not data (how fresh it is). */
export function ok<T>(data: T, init: { status?: number; message?: string; meta?: object } = {}): Response {
  const body = {
    success: true,
    data,
    ...(init.meta !== undefined && { meta: init.meta }),
    ...(init.message !== undefined && { message: init.message }),
  };
  return jsonResponse(JSON.stringify(body), init.status ?? 200);
}

/** A paged list that is never cached (the audit trail): `{ success, data, pagination }`, the receipt list's envelope. */
export function okList<T>(page: { data: T[]; pagination: object }): Response {
  return jsonResponse(JSON.stringify({ success: true, ...page }), 200);
}

/**
 * A cached page's meta differs in its processing time (0, 0.1, …): a few forms each at most, the ones
 * sent last, so that a rare time (a pause of the process) does not keep a common one out. Its sync
 * time moves on with every sync, also one that changed nothing and so kept the page: the forms of an
 * earlier sync time are dropped then.
 */
const MAX_FORMS_PER_PAGE = 4;

/**
 * A paged list (the receipt list's answer): pagination and meta sit beside data. A page from the
 * response cache keeps its data object, so sending it again reuses the JSON and compression of the
 * last time it went out with the same meta.
 */
export function okPage<T>(
  context: Pick<APIContext, 'request' | 'locals'>,
  page: { data: T[]; pagination: object; meta: { cached: boolean; processingTime: number; lastSyncedAt: string | null } },
): Response {
  const text = () => JSON.stringify({ success: true, ...page });
  if (!page.meta.cached) return jsonResponse(text(), 200);
  return context.locals.portal.answerEncodings.response(context.request, page, text);
}

/** Cached pages as sent, by their data, their sync time and then their processing time: each such answer is encoded once. */
export class AnswerEncodings {
  private readonly sentPages = new WeakMap<object, { lastSyncedAt: string | null; forms: LRUCache<number, EncodedJson> }>();
  private readonly encodings = new EncodingChooser();

  response(request: Request, page: { data: object; meta: { processingTime: number; lastSyncedAt: string | null } }, text: () => string): Response {
    let sent = this.sentPages.get(page.data);
    if (sent?.lastSyncedAt !== page.meta.lastSyncedAt) {
      sent = { lastSyncedAt: page.meta.lastSyncedAt, forms: new LRUCache({ max: MAX_FORMS_PER_PAGE }) };
      this.sentPages.set(page.data, sent);
    }
    // The rest of a cached page's meta is the same for every form: `cached` is true and the sync time is the forms'.
    const { processingTime } = page.meta;
    let form = sent.forms.get(processingTime);
    if (!form) {
      form = new EncodedJson(text());
      sent.forms.set(processingTime, form);
    }
    return form.response(request, JSON_HEADERS, this.encodings);
  }
}

/** `log` takes the failures that are no AppError: those are the portal's own, and logged with the request. */
export function errorResponse(error: unknown, log?: Pick<Logger, 'error'>): Response {
  const appError = error instanceof AppError ? error : new AppError('INTERNAL_ERROR', m.error_unexpected());
  if (!(error instanceof AppError)) log?.error({ component: 'http', err: error }, 'Unhandled error');
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
  return jsonResponse(JSON.stringify({ success: false, message, errorType: 'INTERNAL_ERROR', data }), 503);
}

/** A form post's refusal (no JSON envelope outside /api): the status and the message as plain text. */
export function plainRefusal(status: number, message: string): Response {
  return new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
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
