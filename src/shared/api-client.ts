/**
 * The browser's client for the portal API: JSON, 30 s timeout, cookies sent, errors turned into one
 * text (errorText), and the session rule: a 401 outside sign-in forgets the stored user and goes to /login.
 * A call names a method and a path; its answer's type is the one the API description documents for
 * them (src/shared/api-paths.ts, generated from it by `npm run api-types`), so no caller casts.
 */
import { m } from '~/paraglide/messages.js';
import type { paths } from './api-paths';
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

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The documented paths (`/api/receipts/{id}`) that have an operation for `method` (for either of two). */
type DocumentedPath<Method extends ApiMethod> = Method extends ApiMethod
  ? {
      [Path in keyof paths]: paths[Path][Lowercase<Method>] extends { responses: object }
        ? Path
        : never;
    }[keyof paths]
  : never;

/** `/api/receipts/{id}/share` → `/receipts/${string}/share`: the path a call names, after /api. */
type CallPath<Path> = Path extends `/api${infer Rest}` ? WithParameters<Rest> : never;
type WithParameters<Path extends string> = Path extends `${infer Head}{${string}}${infer Tail}`
  ? `${Head}${string}${WithParameters<Tail>}`
  : Path;

/** What a call may name for `method`: a documented path with its parameters filled in, and maybe a query. */
export type ApiPath<Method extends ApiMethod> =
  CallPath<DocumentedPath<Method>> | `${CallPath<DocumentedPath<Method>>}?${string}`;

/** The documented paths a called path fits: `/receipts/stats` fits `/api/receipts/stats` and `/api/receipts/{id}`. */
type Fitting<Method extends ApiMethod, Called> = {
  [Path in DocumentedPath<Method>]: Called extends CallPath<Path> | `${CallPath<Path>}?${string}`
    ? Path
    : never;
}[DocumentedPath<Method>];

/** Of the fitting paths, those no other fitting path narrows: `/api/receipts/stats` over `/api/receipts/{id}`. */
type Narrowest<Path, All = Path> = Path extends unknown
  ? true extends (
      All extends unknown
        ? All extends Path
          ? false
          : CallPath<All> extends CallPath<Path>
            ? true
            : false
        : never
    )
    ? never
    : Path
  : never;

/** The JSON body of an operation's success (200, 201 or 202), as the description documents it. */
type SuccessBody<Operation> = Operation extends { responses: infer Responses }
  ? {
      [Status in keyof Responses]: Status extends 200 | 201 | 202
        ? Responses[Status] extends { content: { 'application/json': infer Body } }
          ? Body
          : never
        : never;
    }[keyof Responses]
  : never;

/** The whole success body of `method` on the called path. */
export type ApiAnswer<Method extends ApiMethod, Called> = Method extends ApiMethod
  ? SuccessBody<paths[Narrowest<Fitting<Method, Called>>][Lowercase<Method>]>
  : never;

/** The success envelope's `data` of `method` on the called path. */
export type ApiData<Method extends ApiMethod, Called> =
  ApiAnswer<Method, Called> extends { data: infer Data } ? Data : never;

/** A path only known as `string` (never a literal one, which must be documented): its answer is unknown. */
type AnyPath<Called extends string> = Called & (string extends Called ? unknown : never);

/** Calls the API and answers the success envelope's `data`; a FormData body is sent as multipart. */
export async function api<Method extends ApiMethod, Called extends ApiPath<Method>>(
  method: Method,
  path: Called,
  body?: unknown,
): Promise<ApiData<Method, Called>>;
export async function api<Called extends string>(
  method: ApiMethod,
  path: AnyPath<Called>,
  body?: unknown,
): Promise<unknown>;
export async function api(method: ApiMethod, path: string, body?: unknown): Promise<unknown> {
  return ((await apiBody(method, path, body)) as { data: unknown }).data;
}

/** Calls the API and answers the whole success body, for answers with more beside `data` (the receipt list). */
export async function apiBody<Method extends ApiMethod, Called extends ApiPath<Method>>(
  method: Method,
  path: Called,
  body?: unknown,
): Promise<ApiAnswer<Method, Called>>;
export async function apiBody<Called extends string>(
  method: ApiMethod,
  path: AnyPath<Called>,
  body?: unknown,
): Promise<unknown>;
export async function apiBody(method: ApiMethod, path: string, body?: unknown): Promise<unknown> {
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
    return payload;
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
