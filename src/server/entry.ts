/**
 * The built server's entry, dist/server/entry.mjs (astro.config.mjs names it): Astro's request handler
 * for server.mjs, and the composition root server.mjs builds the portal with. One bundle for both, so
 * that the portal and the pages share every module. `npm run admin` and `npm run migrate` (scripts/admin.mjs,
 * scripts/migrate.mjs) run their commands on the same bundle.
 */
export { handler } from '@astrojs/node/server.js';
export { loadConfig } from './config';
export { createPortal } from './portal';
export { createLogger, RequestScope } from './logger';
export { observeRequest } from './http/request-log';
export { discardRefusedBody } from './http/refused-body';
export { runAdminCommand } from './console/admin-commands';
export { runMigrateCommand } from './console/migrate-command';
export { UnknownMigrationsError } from './db/migrate';
