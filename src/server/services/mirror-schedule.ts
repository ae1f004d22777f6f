/**
 * Background work that keeps the mirror filled: on start the provider's metadata is read, the sandbox
 * connects itself and (once) makes the demo customer, then a full sync runs, then one every
 * SYNC_INTERVAL_SECONDS.
 */
import { config } from '../config';
import { startProviderDiscovery } from '../provider/discovery';
import { connectSandbox } from '../provider/sandbox/connect';
import { createDemoCustomer } from './demo';
import { stopWatchingMirrorVersion, watchMirrorVersion } from './mirror-version';
import { readProviderTokens } from './provider-tokens';
import { stopSync, syncReceipts } from './sync';
import { SyncInterruptedError } from './sync-lease';

let lastReported = '';
let timer: NodeJS.Timeout | undefined;

/** Logs a failure once, not every interval while the provider stays down. */
function report(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  if (message === lastReported) return;
  lastReported = message;
  console.error(`Receipt sync failed: ${message}`);
}

async function prepareSandbox(): Promise<void> {
  if (config.provider !== 'sandbox') return;
  if (!(await readProviderTokens())?.refreshToken) await connectSandbox();
  if (config.demoUsers) await createDemoCustomer();
}

async function syncNow(full: boolean): Promise<void> {
  try {
    await syncReceipts({ full });
    lastReported = '';
  } catch (error) {
    // A shutdown's stop is no failure: the sync says itself where the next one picks up.
    if (!(error instanceof SyncInterruptedError)) report(error);
  }
}

export function startMirror(): void {
  startProviderDiscovery();
  watchMirrorVersion();
  const prepared = prepareSandbox().catch(report);
  void prepared.then(() => syncNow(true));
  // A scheduled sync waits for the start-up steps: none mirrors receipts before the demo customer exists.
  timer = setInterval(() => void prepared.then(() => syncNow(false)), config.syncIntervalSeconds * 1000).unref();
}

/** Shutdown: no further syncs; the one running finishes the page it is writing and stops. */
export async function stopMirror(): Promise<void> {
  clearInterval(timer);
  await stopSync();
  await stopWatchingMirrorVersion();
}
