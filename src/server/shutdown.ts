/**
 * A clean stop (SIGTERM/SIGINT, handled in server.mjs): the sync and the outbox stop at a safe point,
 * and the database is closed once the last request in flight is answered.
 */
import { sequelize } from './db';
import { stopMirror } from './services/mirror-schedule';
import { stopOutbox } from './services/outbox';

/** Where server.mjs, outside the bundle, finds the shutdown: Astro's entry exports only its handler. */
const SHUTDOWN_HOOK = Symbol.for('freight-portal.shutdown');

async function shutdownPortal(requestsDone: Promise<void>): Promise<void> {
  await Promise.all([stopMirror(), stopOutbox(), requestsDone]);
  await sequelize.close();
}

export function offerShutdown(): void {
  (globalThis as Record<symbol, unknown>)[SHUTDOWN_HOOK] = shutdownPortal;
}
