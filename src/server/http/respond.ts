/** The response envelope of design.md, and the one place an error becomes an answer. */
import type { APIContext } from 'astro';
import { EncodedJson } from './encoded-json';
import { m } from '~/paraglide/messages.js';
import { AppError } from './errors';

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' };

/**
 * A JSON answer with its length: the compressing server (server.mjs) then leaves small answers alone
 * instead of starting a compressor for every one of them.
 */
function jsonResponse(text: string, status: number, headers: Record<string, string> = JSON_HEADERS): Response {
  return new Response(text, { status, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(text)) } });
}

export function ok<T>(data: T, init: { status?: number; message?: string } = {}): Response {
  const body = init.message === undefined ? { success: true, data } : { success: true, data, message: init.message };
  return jsonResponse(JSON.stringify(body), init.status ?? 200);
}

/** Cached pages as sent, by their data and then their meta: each such answer is encoded once. */
const sentPages = new WeakMap<object, Map<string, EncodedJson>>();
/** A cached page's meta differs only in its processing time (0, 0.1, …): a few forms each at most. */
const MAX_FORMS_PER_PAGE = 4;

/**
 * A paged list (spec "Receipt list response"): pagination and meta sit beside data. A page from the
 * response cache keeps its data object, so sending it again reuses the JSON and compression of the
 * last time it went out with the same meta.
 */
export function okPage<T>(page: { data: T[]; pagination: object; meta: { cached: boolean } }, request: Request): Response {
  const text = () => JSON.stringify({ success: true, ...page });
  if (!page.meta.cached) return jsonResponse(text(), 200);
  const forms = sentPages.get(page.data) ?? new Map<string, EncodedJson>();
  sentPages.set(page.data, forms);
  const metaKey = JSON.stringify(page.meta);
  let form = forms.get(metaKey);
  if (!form) {
    form = new EncodedJson(text());
    if (forms.size < MAX_FORMS_PER_PAGE) forms.set(metaKey, form);
  }
  return form.response(request, JSON_HEADERS);
}

export function errorResponse(error: unknown): Response {
  const appError =
    error instanceof AppError ? error : new AppError('INTERNAL_ERROR', m.error_unexpected());
  if (!(error instanceof AppError)) console.error('Unhandled error:', error);
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

/** Wraps an endpoint so that any thrown error is answered in the envelope, never as a bare 500. */
export function handle(endpoint: (context: APIContext) => Promise<Response>) {
  return async (context: APIContext): Promise<Response> => {
    try {
      return await endpoint(context);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
