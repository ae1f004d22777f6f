/**
 * Where a personal API token works: the one list of routes, by method and Astro route pattern (the
 * file under src/pages, as `context.routePattern` names it), that `Authorization: Bearer fp_…` may
 * call. The middleware enforces it (src/server/http/api-token.ts): on any other API route a token is
 * refused, and pages never see it. Only reads belong here: a token never writes or administers.
 */

export interface TokenReadableRoute {
  method: 'GET';
  route: string;
}

export const TOKEN_READABLE_ROUTES: readonly TokenReadableRoute[] = [
  // The receipt list, one receipt with its status history, the dashboard's figures, the CSV export.
  { method: 'GET', route: '/api/receipts' },
  { method: 'GET', route: '/api/receipts/[id]' },
  { method: 'GET', route: '/api/receipts/stats' },
  { method: 'GET', route: '/api/receipts/export.csv' },
  // Tracking a package by its number.
  { method: 'GET', route: '/api/package-tracker/search' },
  // Pre-alerts, reading them.
  { method: 'GET', route: '/api/prealerts' },
  { method: 'GET', route: '/api/prealerts/[id]' },
  { method: 'GET', route: '/api/prealerts/[id]/invoice' },
];

/** Whether a token may call this method on this route pattern. */
export function isTokenReadable(method: string, routePattern: string): boolean {
  return TOKEN_READABLE_ROUTES.some(
    (entry) => entry.method === method && entry.route === routePattern,
  );
}

/**
 * Public reads a caller with a token may also make, as anyone may: the token is neither checked nor
 * counted there, and the answer is the public one. A monitor or a client generator that sends its
 * token with every request is not refused on them.
 */
export const TOKEN_IGNORED_ROUTES: readonly TokenReadableRoute[] = [
  { method: 'GET', route: '/api/openapi.json' },
  { method: 'GET', route: '/api/health' },
];

/** Whether a token is left unread on this method and route pattern: a public read. */
export function isTokenIgnored(method: string, routePattern: string): boolean {
  return TOKEN_IGNORED_ROUTES.some(
    (entry) => entry.method === method && entry.route === routePattern,
  );
}
