/**
 * The service worker's rules (src/worker/service-worker.ts), pure so that tests/unit can state them:
 * which request it keeps and how, what clears a user's kept data, and how a kept answer says so.
 *
 * Built files are kept by their hashed name (cache first). A signed-in user's screens and the answers
 * their scripts fetch are network first, kept per user for when the server cannot be reached. Nothing
 * else is kept: admin screens, provider tokens and sync, sign-in and sign-out always go to the server.
 */

/** Not HttpOnly: the worker reads it (Cookie Store API) to know whose data it may show. Holds the user id. */
export const USER_MARKER_COOKIE = 'portal_user';
/** On a kept answer: when it came from the server (ISO time), for the offline banner. */
export const STORED_AT_HEADER = 'X-Portal-Stored-At';
/** The `errorType` of the envelope the worker answers for an API call it has nothing kept for. */
export const OFFLINE_ERROR_TYPE = 'OFFLINE';
/** The page shown for a screen or action that needs the server (no user data on it). */
export const OFFLINE_PAGE = '/offline';
export const WORKER_PATH = '/sw.js';

export const STATIC_CACHE = 'portal-static-v1';
const USER_CACHE_PREFIX = 'portal-user-';
/** Enough for the screens and searches of a few days; the oldest go first. */
export const MAX_USER_ENTRIES = 150;
export const MAX_STATIC_ENTRIES = 80;

export type Strategy = 'cache-first' | 'network-first' | 'network-only';

export interface RequestFacts {
  method: string;
  url: URL;
  /** The worker's own origin: another site's requests are never touched. */
  origin: string;
}

/** The signed-in screens kept for offline reading, and the answers their scripts ask for. */
const USER_PAGE = /^\/(dashboard|receipts|receipts\/[^/]+|locations|profile)$/;
const USER_API = /^\/api\/(receipts|receipts\/stats|receipts\/\d+|config)$/;

export function cacheStrategy({ method, url, origin }: RequestFacts): Strategy {
  if (method !== 'GET' || url.origin !== origin) return 'network-only';
  const { pathname } = url;
  if (pathname.startsWith('/_astro/')) return 'cache-first';
  if (USER_PAGE.test(pathname) || USER_API.test(pathname)) return 'network-first';
  return 'network-only';
}

export interface Outcome {
  status: number;
  /** Where a followed redirect ended ('' for an answer that was not redirected). */
  finalUrl: string;
}

/**
 * Whether a user's kept data goes before anything else happens: on signing out, on the sign-in page
 * (only a signed-out browser is shown it), and when the server says the session is gone.
 */
export function clearsUserData(
  { method, url }: Omit<RequestFacts, 'origin'>,
  outcome?: Outcome,
): boolean {
  if (method === 'POST' && url.pathname === '/logout') return true;
  if (method === 'GET' && url.pathname === '/login') return true;
  if (!outcome) return false;
  return (
    outcome.status === 401 ||
    (outcome.finalUrl !== '' && new URL(outcome.finalUrl).pathname === '/login')
  );
}

/**
 * Only whole, successful same-origin answers to the request itself are kept: not an error, a 304, or a
 * followed redirect (whose answer belongs to another address, such as the sign-in page).
 */
export function isKeepable(response: {
  status: number;
  type: string;
  redirected: boolean;
}): boolean {
  return response.status === 200 && response.type === 'basic' && !response.redirected;
}

export const userCacheName = (userId: string) => `${USER_CACHE_PREFIX}${userId}`;

/**
 * The user caches to delete for the browser's current user: every other user's, and all of them when
 * no one is signed in (`null`).
 */
export function cachesToDelete(cacheNames: readonly string[], userId: string | null): string[] {
  const keep = userId === null ? null : userCacheName(userId);
  return cacheNames.filter((name) => name.startsWith(USER_CACHE_PREFIX) && name !== keep);
}

/** The oldest entries beyond `max` (Cache Storage lists keys in the order they were stored). */
export function entriesToEvict<T>(keys: readonly T[], max: number): T[] {
  return keys.slice(0, Math.max(0, keys.length - max));
}

/** A kept page as shown offline: its root element says since when, for the page's banner. */
export function markOfflinePage(html: string, storedAt: string): string {
  return html.replace(
    /<html\b/i,
    `<html data-offline-at="${storedAt.replace(/[^\dTZ:.+-]/g, '')}"`,
  );
}

/** The envelope of an API call the worker could neither send nor answer from what it kept. */
export function offlineEnvelope(): string {
  return JSON.stringify({ success: false, errorType: OFFLINE_ERROR_TYPE });
}
