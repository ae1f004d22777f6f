/**
 * Every request: its route for the request log, security headers, the API envelope, page failures,
 * the sandbox-only paths, start-up, session or API token, language, cross-site refusal, page
 * access. The portal serving it is `locals.portal` (src/server/portal.ts), handed over by
 * server.mjs.
 */
import type { APIContext } from 'astro';
import { defineMiddleware, sequence } from 'astro/middleware';
import { clientAddress } from '~/server/http/client-address';
import { brandingStyle } from '~/server/http/branding-style';
import {
  tileImageSource,
  withImageSource,
  withScriptSource,
  withStyleSource,
} from '~/server/http/csp';
import {
  hashSource,
  hasIslands,
  isFirstPage,
  STYLESHEET_COOKIE,
  STYLESHEET_COOKIE_MAX_AGE_SECONDS,
  stylesheetCookieValue,
  stylesheetHref,
  withInlineCriticalCss,
  withLowPriorityModuleScripts,
} from '~/server/http/first-paint';
import { AppError } from '~/server/errors';
import { callerOfApiToken } from '~/server/http/api-token';
import { readBearerCredential } from '~/server/http/bearer';
import { mayOpen, pageAccess } from '~/server/http/guard';
import { isCrossSiteRequest } from '~/server/http/origin';
import { errorResponse } from '~/server/http/respond';
import { rememberLocale } from '~/server/http/locale-cookie';
import { leaveNotice } from '~/server/http/redirect-notice';
import { rememberReturnPath } from '~/server/http/return-path';
import { markUser, readSessionToken } from '~/server/http/session';
import { FORGET_STORED_USER_SOURCE, forgetsStoredUser } from '~/server/http/stored-profile';
import { chooseLocale, inLocale } from '~/server/locale';
import { findActiveSession } from '~/server/services/accounts';
import { m } from '~/paraglide/messages.js';
import { OFFLINE_PAGE } from '~/shared/offline-cache';
import { LOCALE_COOKIE, LOCALE_LINK_PARAMETER } from '~/shared/locale';

/** The catch-all page: any path no other page claims. */
const UNKNOWN_PAGE_ROUTE = '/[...path]';
const ERROR_PAGE_ROUTE = '/500';

const isApi = (pathname: string) => pathname === '/api' || pathname.startsWith('/api/');
/** The sandbox's paths, and its metadata where OAuth2's well-known name puts it for the issuer …/sandbox. */
const isSandbox = (pathname: string) =>
  pathname === '/sandbox' ||
  pathname.startsWith('/sandbox/') ||
  pathname === '/.well-known/oauth-authorization-server/sandbox';
/** The sandbox's consent page is a browser form; its token, data and control calls come from servers. */
const isSandboxServerCall = (pathname: string) =>
  isSandbox(pathname) && pathname.replace(/\/+$/, '') !== '/sandbox/oauth/authorize';
/**
 * Machines' paths (liveness, readiness, metrics): answered during start-up too, without a session, a
 * page guard or the branding, none of which they need or may wait for.
 */
const isOperational = (pathname: string) =>
  pathname === '/metrics' || pathname === '/api/health/live' || pathname === '/api/health/ready';
/** The mail program posts the one-click unsubscribe from its own servers, without our origin. */
const isOneClickUnsubscribe = (pathname: string) => pathname.startsWith('/email/unsubscribe/');

/**
 * The route pattern (`/reset-password/[token]`), never the path, names the request in its log line
 * (src/server/http/request-log.ts). The first one counts: the error page Astro renders after a failure
 * runs the middleware again.
 */
const routeForLog = defineMiddleware((context, next) => {
  context.locals.routePattern ??= context.routePattern;
  return next();
});

const securityHeaders = defineMiddleware(async (context, next) => {
  const response = await next();
  const headers = response.headers;
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  headers.set('X-Frame-Options', 'DENY');
  headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
  // Astro sets the CSP (with script and style hashes) on pages; API answers get a closed one. The map's
  // tile server (MAP_TILE_URL) is allowed images on pages.
  const { config } = context.locals.portal;
  const pagePolicy = headers.get('Content-Security-Policy');
  headers.set(
    'Content-Security-Policy',
    pagePolicy
      ? withImageSource(pagePolicy, tileImageSource(config.mapTileUrl))
      : "default-src 'none'; frame-ancestors 'none'",
  );
  if (config.isHttps)
    headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  // A signed-in page must not come back from the browser's cache after sign-out.
  if (context.locals.user && !headers.has('Cache-Control'))
    headers.set('Cache-Control', 'private, no-store');
  return response;
});

/** The API's endpoint modules by file, loaded only to tell which methods a path is served with. */
const API_ENDPOINTS = import.meta.glob<Record<string, unknown>>('./pages/api/**/*.ts');
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The methods the endpoint of a route pattern (`/api/auth/users/[id]`) exports. */
async function endpointMethods(routePattern: string): Promise<string[]> {
  const load =
    API_ENDPOINTS[`./pages${routePattern}.ts`] ?? API_ENDPOINTS[`./pages${routePattern}/index.ts`];
  if (!load) return [];
  const endpoint = await load();
  return HTTP_METHODS.filter((method) => method in endpoint);
}

/** A path served with other methods is a 405 naming them; anything else no handler serves is a 404. */
async function notServed(context: APIContext): Promise<Response> {
  const allowed = await endpointMethods(context.routePattern);
  // Past the language step's scope, so its locale is named.
  const { locale } = context.locals;
  if (allowed.length === 0)
    return errorResponse(new AppError('NOT_FOUND', m.error_endpoint_not_found({}, { locale })));
  const method = context.request.method;
  const response = errorResponse(
    new AppError(
      'METHOD_NOT_ALLOWED',
      m.error_method_not_allowed({ method, allowed: allowed.join(', ') }, { locale }),
    ),
  );
  response.headers.set('Allow', allowed.join(', '));
  return response;
}

/**
 * Under /api every answer is the JSON envelope: a failure before any handler ran (start-up, session
 * lookup) and a path or method no handler serves included.
 */
const apiEnvelope = defineMiddleware(async (context, next) => {
  if (!isApi(context.url.pathname)) return next();
  let response: Response;
  try {
    response = await next();
  } catch (error) {
    return errorResponse(error, context.locals.portal.log);
  }
  if (
    response.status !== 404 ||
    response.headers.get('content-type')?.startsWith('application/json')
  )
    return response;
  return notServed(context);
});

/**
 * A page that fails is logged once, with its request, and answered by the plain error page
 * (src/pages/500.astro), which Astro renders for an empty 500. When the middleware fails on the error
 * page too (the database is gone, say), Astro renders it again without the middleware.
 */
const pageFailures = defineMiddleware(async (context, next) => {
  if (isApi(context.url.pathname)) return next();
  try {
    return await next();
  } catch (error) {
    if (context.routePattern === ERROR_PAGE_ROUTE) throw error;
    // The route pattern, not the path: a reset or invitation link's token must not reach the log.
    context.locals.portal.log.error(
      { component: 'http', err: error },
      `${context.request.method} ${context.routePattern} failed`,
    );
    return new Response(null, { status: 500 });
  }
});

/** The built-in sandbox provider exists with PROVIDER=sandbox only. */
const sandboxOnly = defineMiddleware((context, next) => {
  if (!context.locals.portal.sandbox && isSandbox(context.url.pathname))
    return new Response('Not found', { status: 404 });
  return next();
});

/** A request that comes while the portal starts (migrations, the first admin) waits for it. */
const startUp = defineMiddleware(async (context, next) => {
  if (!isOperational(context.url.pathname)) await context.locals.portal.ready;
  return next();
});

const refuseCrossSite = defineMiddleware((context, next) => {
  const { pathname } = context.url;
  const publicOrigin = context.locals.portal.config.publicUrl.origin;
  if (
    isSandboxServerCall(pathname) ||
    isOneClickUnsubscribe(pathname) ||
    !isCrossSiteRequest(context.request, context.url.origin, publicOrigin)
  )
    return next();
  const error = new AppError('FORBIDDEN', m.error_cross_site());
  return isApi(context.url.pathname)
    ? errorResponse(error)
    : new Response(error.message, { status: 403 });
});

/** What the request itself says of its language; the signed-in user's saved preference comes before it. */
function requestLocaleSources(context: APIContext) {
  return {
    link: context.url.searchParams.get(LOCALE_LINK_PARAMETER),
    cookie: context.cookies.get(LOCALE_COOKIE)?.value,
    acceptLanguage: context.request.headers.get('accept-language'),
  };
}

/**
 * The caller: a session, or on the API a personal API token (src/server/http/api-token.ts). A request
 * with a bearer token is the token's alone: no session is read or touched and no cookie is set. Pages
 * never look at a bearer token: a page asked for with a token alone is a signed-out visitor's.
 */
const loadSession = defineMiddleware(async (context, next) => {
  const { portal } = context.locals;
  context.locals.clientAddress = clientAddress(
    context.request,
    context.clientAddress,
    portal.config.trustProxy,
  );
  context.locals.apiTokenId = null;
  if (isOperational(context.url.pathname)) {
    context.locals.user = null;
    context.locals.sessionId = null;
    return next();
  }
  const bearer = isApi(context.url.pathname) ? readBearerCredential(context.request) : null;
  if (bearer !== null) {
    // Its refusals are answered before the language step: in the language the request asks for.
    const locale = chooseLocale({ preference: null, ...requestLocaleSources(context) });
    const caller = await inLocale(locale, () => callerOfApiToken(context, bearer));
    context.locals.user = caller?.user ?? null;
    context.locals.sessionId = null;
    context.locals.apiTokenId = caller?.tokenId ?? null;
    return next();
  }
  const session = await findActiveSession(portal, readSessionToken(context.cookies));
  context.locals.user = session?.user ?? null;
  context.locals.sessionId = session?.sessionId ?? null;
  // Sessions that began, or ended, without a sign-in or sign-out here (expiry, older sessions).
  markUser(context.cookies, session?.user.id ?? null, portal.config);
  return next();
});

/**
 * The request's language (src/server/locale.ts): everything after this step, pages, endpoints, API
 * messages and the islands' server render, reads it from `locals.locale` or through the messages.
 */
const resolveLocale = defineMiddleware((context, next) => {
  const sources = requestLocaleSources(context);
  const { link, cookie } = sources;
  const locale = chooseLocale({ preference: context.locals.user?.locale, ...sources });
  context.locals.locale = locale;
  // A link's language carries on to the pages after it (the reset page's sign-in, the forgotten
  // password's form), as the switcher's choice would; a saved preference still comes first. A
  // script calling with an API token is no browser to remember anything.
  const remember =
    locale === link &&
    cookie !== link &&
    !context.locals.user?.locale &&
    context.locals.apiTokenId === null;
  if (remember) rememberLocale(context.cookies, locale, context.locals.portal.config.isHttps);
  return inLocale(locale, async () => {
    const response = await next();
    response.headers.set('Content-Language', locale);
    return response;
  });
});

/** Pages are decided here, before any HTML; API handlers state their own rule in their first line. */
const guardPages = defineMiddleware((context, next) => {
  const { pathname } = context.url;
  if (isApi(pathname) || isOperational(pathname)) return next();
  const { user } = context.locals;
  const secure = context.locals.portal.config.isHttps;
  if (context.routePattern === UNKNOWN_PAGE_ROUTE) {
    if (user) leaveNotice(context.cookies, 'missing', secure);
    return context.redirect('/');
  }
  const access = pageAccess(pathname);
  if (access === 'public') return next();
  if (!user) {
    if (context.request.method === 'GET')
      rememberReturnPath(context.cookies, pathname + context.url.search, secure);
    return context.redirect('/login');
  }
  if (!mayOpen(access, user.role)) {
    leaveNotice(context.cookies, 'admin-only', secure);
    return context.redirect('/dashboard');
  }
  return next();
});

/**
 * What every page may carry inline (BareLayout.astro), allowed in its policy: the branding style,
 * taken once so that the element and the hash added to the page's policy are of the same state, and
 * on a page without a session the script that removes a stored profile.
 */
const allowInlineParts = defineMiddleware(async (context, next) => {
  if (
    isApi(context.url.pathname) ||
    isSandboxServerCall(context.url.pathname) ||
    isOperational(context.url.pathname)
  )
    return next();
  const branding = await context.locals.portal.branding.readOrDefaults();
  const style = brandingStyle(branding);
  context.locals.branding = branding;
  context.locals.brandingStyle = style;
  const response = await next();
  let policy = response.headers.get('Content-Security-Policy');
  if (!policy) return response;
  if (style) policy = withStyleSource(policy, style.source);
  if (forgetsStoredUser(context.locals.user, context.url.pathname))
    policy = withScriptSource(policy, FORGET_STORED_USER_SOURCE);
  response.headers.set('Content-Security-Policy', policy);
  return response;
});

/**
 * The first page a browser gets from this build paints from its HTML alone: the rules it uses inline
 * instead of the stylesheet, which the next page links (src/server/http/first-paint.ts). The offline
 * page is always so: the service worker keeps it on its own, without fetching a stylesheet for it.
 */
const firstPaintCss = defineMiddleware(async (context, next) => {
  const response = await next();
  if (
    context.request.method !== 'GET' ||
    response.status !== 200 ||
    !response.headers.get('content-type')?.startsWith('text/html')
  )
    return response;
  const html = await response.text();
  const href = stylesheetHref(html);
  const policy = response.headers.get('Content-Security-Policy');
  const offlinePage = context.url.pathname === OFFLINE_PAGE;
  if (
    !href ||
    !policy ||
    (!offlinePage && !isFirstPage(context.cookies.get(STYLESHEET_COOKIE)?.value, href))
  )
    return new Response(html, response);
  const { config, firstPaint } = context.locals.portal;
  const importsOf = (module: string) => firstPaint.builtModuleImports(module);
  const headers = new Headers(response.headers);
  headers.delete('Content-Length');
  const secure = config.isHttps ? '; Secure' : '';
  if (!offlinePage)
    headers.append(
      'Set-Cookie',
      `${STYLESHEET_COOKIE}=${stylesheetCookieValue(href)}; Path=/; ` +
        `Max-Age=${STYLESHEET_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax${secure}`,
    );
  const rules = hasIslands(html) ? '' : await firstPaint.criticalCss(html);
  if (!rules)
    return new Response(withLowPriorityModuleScripts(html, importsOf), {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  headers.set('Content-Security-Policy', withStyleSource(policy, hashSource(rules)));
  return new Response(withLowPriorityModuleScripts(withInlineCriticalCss(html, rules), importsOf), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
});

export const onRequest = sequence(
  routeForLog,
  securityHeaders,
  apiEnvelope,
  pageFailures,
  sandboxOnly,
  startUp,
  loadSession,
  resolveLocale,
  refuseCrossSite,
  guardPages,
  allowInlineParts,
  firstPaintCss,
);
