/**
 * The browser's client for the portal API: JSON, 30 s timeout, cookies sent, errors turned into one
 * text (errorText), and the session rule: a 401 outside sign-in forgets the stored user and goes to /login.
 */
import { m } from '~/paraglide/messages.js';
import { API_TIMEOUT_MS, STORED_USER_KEY } from './constants';
import { OFFLINE_ERROR_TYPE, STORED_AT_HEADER } from './offline-cache';
import type { FieldIssue } from './validation';

export interface ErrorEnvelope {
  success: false;
  message?: string;
  errorType?: string;
  details?: FieldIssue[] | string;
  retryAfter?: number;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorEnvelope | null,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  get errorType(): string | undefined {
    return this.body?.errorType;
  }
  get isExternal(): boolean {
    return this.errorType === 'EXTERNAL_API_ERROR';
  }
  /** The server could not be reached and the service worker had no earlier answer to give. */
  get isOffline(): boolean {
    return this.errorType === OFFLINE_ERROR_TYPE;
  }
}

/**
 * The text an error shows: the answer's message, else its details, else the error's own message,
 * else a generic text.
 */
export function errorText(error: unknown): string {
  if (error instanceof ApiError && error.body) {
    const { message, details } = error.body;
    if (message) return message;
    if (Array.isArray(details) && details.length)
      return details.map((detail) => detail.message).join(', ');
    if (typeof details === 'string' && details) return details;
  }
  if (error instanceof Error && error.message) return error.message;
  return m.error_unexpected();
}

/** Fired on `window` with the time (ISO) of an answer that came from the service worker's cache. */
export const OFFLINE_EVENT = 'portal:offline';

/** Calls whose 401 means "wrong credentials", not "session gone". */
const SESSION_EXEMPT = [
  '/auth/login',
  '/auth/login/2fa',
  '/auth/profile',
  '/auth/passkeys/sign-in/verify',
];

export function forgetStoredUser(): void {
  try {
    localStorage.removeItem(STORED_USER_KEY);
  } catch {
    // Storage may be disabled; the server session is what counts.
  }
}

/** Calls the API and answers the success envelope's `data`; a FormData body is sent as multipart. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await apiBody<{ data: T }>(method, path, body)).data;
}

/** Calls the API and answers the whole success body, for answers with more beside `data` (the receipt list). */
export async function apiBody<T extends { data: unknown }>(
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const init: RequestInit = {
    method,
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
    signal: AbortSignal.timeout(API_TIMEOUT_MS),
  };
  if (body instanceof FormData) {
    // A file upload: the browser writes the multipart Content-Type with its boundary.
    init.body = body;
  } else if (body !== undefined) {
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(`/api${path}`, init);
  } catch (error) {
    throw new ApiError(
      0,
      null,
      error instanceof Error && error.name === 'TimeoutError'
        ? m.api_request_timed_out()
        : m.api_network_error(),
    );
  }
  const payload = (await response.json().catch(() => null)) as { success?: boolean } | null;
  if (response.ok && payload && payload.success !== false) {
    // An earlier answer the service worker kept: the shell shows since when (AppShell.astro).
    const storedAt = response.headers.get(STORED_AT_HEADER);
    if (storedAt) dispatchEvent(new CustomEvent(OFFLINE_EVENT, { detail: storedAt }));
    return payload as T;
  }

  const envelope = payload && payload.success === false ? (payload as ErrorEnvelope) : null;
  if (envelope?.errorType === OFFLINE_ERROR_TYPE) envelope.message = m.offline_needs_connection();
  const error = new ApiError(
    response.status,
    envelope,
    envelope?.message ?? m.api_request_failed({ status: String(response.status) }),
  );
  if (response.status === 401 && !error.isExternal && !SESSION_EXEMPT.includes(path)) {
    forgetStoredUser();
    window.location.assign('/login');
  }
  throw error;
}
