/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The portal serving the request (src/server/portal.ts), handed over by server.mjs. */
    portal: import('./server/portal').Portal;
    /** The signed-in user, or null for an anonymous request. */
    user: import('./shared/validation').SessionUser | null;
    /** Id (token hash) of the current session, when signed in. */
    sessionId: string | null;
    /** The personal API token the request came with (src/server/http/api-token.ts), instead of a session. */
    apiTokenId: number | null;
    /** Client address for rate limiting, honouring X-Forwarded-For only with TRUST_PROXY. */
    clientAddress: string;
    /** The request's language: the user's preference, the switcher's cookie, Accept-Language, English. */
    locale: import('./shared/locale').Locale;
    /** The logo, background and card opacity (pages only). */
    branding?: import('./server/services/branding').Branding;
    /** The branding <style> of a page, when anything differs from the defaults (pages only). */
    brandingStyle?: import('./server/http/branding-style').BrandingStyle | null;
    /** The route pattern the request matched, for its log line and metrics (src/server/http/request-log.ts). */
    routePattern?: string;
  }
}
