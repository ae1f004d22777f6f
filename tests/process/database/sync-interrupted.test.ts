/**
 * A sync stopped by a shutdown is no success, in its own process nor in another that joined it:
 * process B, which asked for "Sync now" while A's sync ran, carries the sync on itself once A stops,
 * and answers the outcome of that. Both processes reach the provider, a third portal's sandbox, over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type Portal } from '../../support/portal';
import { eventually, queryDatabase, signedInAdmin } from '../../support/api-steps';
import { connect } from '../../support/sandbox-steps';
import { stallLimit } from '../../support/test-pace';

/** Enough receipts that a full pass is still running when the signal comes. */
const RECEIPTS = 20_000;

let provider: Portal;
let portalA: Portal;
let portalB: Portal;

beforeAll(async () => {
  provider = await startPortal({
    SANDBOX_RECEIPTS: String(RECEIPTS),
    SYNC_INTERVAL_SECONDS: '3600',
    SANDBOX_CHANGE_SECONDS: '86400',
  });
  const sandbox = `${provider.url}/sandbox`;
  // Their own syncs wait for a test's "Sync now": the first start's sync fails without tokens.
  const env = {
    PROVIDER: 'http',
    PROVIDER_URL: sandbox,
    PROVIDER_ISSUER: sandbox,
    SYNC_INTERVAL_SECONDS: '3600',
  };
  portalA = await startPortal(env);
  portalB = await startPortal(env, { alongside: portalA });
  const tokens = await connect(provider);
  const stored = await (await signedInAdmin(portalA)).post('/api/tokens/update', tokens);
  expect(stored.status, JSON.stringify(stored.body)).toBe(200);
});

afterAll(async () => {
  await portalB?.stop();
  await portalA?.stop();
  await provider?.stop();
});

const receiptCount = async () =>
  (await queryDatabase<{ count: number }>(portalA, 'SELECT count(*) AS count FROM receipts'))[0]!
    .count;

describe('a sync stopped by a shutdown', () => {
  it(
    'when process A stops during a sync that process B joined, then A says so, and B carries the sync to its end and answers that outcome',
    async () => {
      const [adminA, adminB] = await Promise.all([signedInAdmin(portalA), signedInAdmin(portalB)]);
      const inA = adminA.post('/api/sync');
      await eventually(receiptCount, (count) => count > 0, 60_000);
      const inB = adminB.post('/api/sync');
      // B waits for A's sync: the lease is A's.
      await eventually(receiptCount, (count) => count >= 1_000, 60_000);
      expect(await receiptCount(), 'the pass is still running').toBeLessThan(RECEIPTS);

      process.kill(portalA.pid, 'SIGTERM');
      const answerA = await inA;
      expect(answerA.status).toBe(503);
      expect(answerA.body).toMatchObject({
        success: false,
        errorType: 'EXTERNAL_API_ERROR',
        message: expect.stringMatching(/^The sync was stopped because the portal is shutting down/),
      });
      expect(await portalA.exited).toBe(0);
      const afterSignal = portalA.output().split('SIGTERM received')[1]!;
      expect(afterSignal).toMatch(
        /sync stopped for the shutdown after \d+ receipts \(\d+ written\); the next sync starts the full pass over/,
      );
      expect(afterSignal).not.toContain('Receipt sync failed');

      const answerB = await inB;
      expect(answerB.status, JSON.stringify(answerB.body)).toBe(200);
      // B's own full pass: it wrote what A had not, and its answer is a success that is recorded.
      expect(answerB.body.data).toMatchObject({ full: true, deleted: 0 });
      expect(answerB.body.data.written).toBeGreaterThan(0);
      expect(answerB.body.data.written).toBeLessThan(RECEIPTS);
      expect(await receiptCount()).toBe(RECEIPTS);
      const [state] = await queryDatabase<{ lastSuccessAt: string | null; lastWritten: number }>(
        portalA,
        'SELECT "lastSuccessAt", "lastWritten" FROM sync_state',
      );
      expect(state?.lastSuccessAt).not.toBeNull();
      expect(state?.lastWritten).toBe(answerB.body.data.written);
    },
    stallLimit(240_000),
  );
});
