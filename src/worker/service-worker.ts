/// <reference lib="webworker" />
/**
 * The portal's service worker (bundled to /sw.js by scripts/build-worker.mjs): offline reading of the
 * signed-in user's last screens, by the rules of src/shared/offline-cache.ts. Hand-written rather than
 * Workbox: the per-user cache and its clearing are most of it, and Workbox's strategies would not
 * save that code, only add their own.
 */
import {
  cachesToDelete,
  cacheStrategy,
  clearsUserData,
  entriesToEvict,
  isKeepable,
  markOfflinePage,
  MAX_STATIC_ENTRIES,
  MAX_USER_ENTRIES,
  OFFLINE_PAGE,
  offlineEnvelope,
  STATIC_CACHE,
  STORED_AT_HEADER,
  USER_MARKER_COOKIE,
  userCacheName,
} from '~/shared/offline-cache';

declare const self: ServiceWorkerGlobalScope;
/**
 * The Cookie Store API (Chromium, Firefox, Safari 18.4+); without it the worker keeps one user's
 * data under 'current'.
 */
declare const cookieStore: { get(name: string): Promise<{ value: string } | null> } | undefined;

self.addEventListener('install', (event) => {
  event.waitUntil(keepOfflinePage().finally(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const facts = { method: request.method, url: new URL(request.url), origin: self.location.origin };
  const strategy = cacheStrategy(facts);
  const navigation = request.mode === 'navigate';
  if (strategy === 'cache-first') event.respondWith(cacheFirst(request));
  else if (strategy === 'network-first') event.respondWith(networkFirst(event, facts.url));
  // Other screens and sign-out: straight to the server, clearing first where the rules say, and the
  // offline page when it cannot be reached. Other calls are left to the browser.
  else if (navigation) event.respondWith(networkOnlyPage(request, facts));
});

/** The signed-in user's id from the marker cookie: null when signed out, 'current' when the browser cannot tell. */
async function currentUser(): Promise<string | null> {
  if (typeof cookieStore === 'undefined') return 'current';
  return (await cookieStore.get(USER_MARKER_COOKIE))?.value || null;
}

async function deleteUserCaches(userId: string | null): Promise<void> {
  await Promise.all(cachesToDelete(await caches.keys(), userId).map((name) => caches.delete(name)));
}

async function networkOnlyPage(
  request: Request,
  facts: { method: string; url: URL },
): Promise<Response> {
  if (clearsUserData(facts)) await deleteUserCaches(null);
  try {
    return await fetch(request);
  } catch {
    return offlinePage();
  }
}

async function networkFirst(event: FetchEvent, url: URL): Promise<Response> {
  const { request } = event;
  const user = await currentUser();
  // Another user's (or, signed out, anyone's) data goes before anything is shown.
  await deleteUserCaches(user);
  let response: Response;
  try {
    response = await fetch(request);
  } catch {
    return fromUserCache(request, url, user);
  }
  if (
    clearsUserData(
      { method: request.method, url },
      { status: response.status, finalUrl: response.redirected ? response.url : '' },
    )
  ) {
    await deleteUserCaches(null);
  } else if (user && isKeepable(response)) {
    event.waitUntil(keep(userCacheName(user), request.url, response.clone(), MAX_USER_ENTRIES));
  }
  return response;
}

async function fromUserCache(request: Request, url: URL, user: string | null): Promise<Response> {
  const kept = user
    ? await caches.match(request.url, { cacheName: userCacheName(user), ignoreVary: true })
    : undefined;
  if (request.mode === 'navigate') {
    if (!kept) return offlinePage();
    const html = markOfflinePage(await kept.text(), kept.headers.get(STORED_AT_HEADER) ?? '');
    return new Response(html, { status: kept.status, headers: kept.headers });
  }
  if (kept) return kept;
  if (url.pathname.startsWith('/api/')) {
    return new Response(offlineEnvelope(), {
      status: 503,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
  }
  return Response.error();
}

async function cacheFirst(request: Request): Promise<Response> {
  const kept = await caches.match(request.url, { cacheName: STATIC_CACHE, ignoreVary: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (isKeepable(response))
    void keep(STATIC_CACHE, request.url, response.clone(), MAX_STATIC_ENTRIES);
  return response;
}

/** Stores an answer with the time it arrived, and lets the oldest go beyond `max`. */
async function keep(
  cacheName: string,
  url: string,
  response: Response,
  max: number,
): Promise<void> {
  const headers = new Headers(response.headers);
  headers.set(STORED_AT_HEADER, new Date().toISOString());
  const cache = await caches.open(cacheName);
  await cache.put(
    url,
    new Response(await response.blob(), {
      status: response.status,
      statusText: response.statusText,
      headers,
    }),
  );
  await Promise.all(entriesToEvict(await cache.keys(), max).map((key) => cache.delete(key)));
}

/** The "needs a connection" page, kept at install (in the language of that moment); its rules are inline. */
async function keepOfflinePage(): Promise<void> {
  const response = await fetch(OFFLINE_PAGE);
  if (isKeepable(response)) await (await caches.open(STATIC_CACHE)).put(OFFLINE_PAGE, response);
}

async function offlinePage(): Promise<Response> {
  return (await caches.match(OFFLINE_PAGE, { cacheName: STATIC_CACHE })) ?? Response.error();
}
