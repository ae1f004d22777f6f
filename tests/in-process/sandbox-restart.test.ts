/**
 * The sandbox across a restart: its data is a function of the time since its first start, kept beside
 * the database with the pre-alerts it was told of, so a portal restarted on the same folder finds the
 * receipts added since and the packages it received, and its next full sync removes nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryDatabase, signedInAdmin, signIn, waitForMirror } from '../support/api-steps';
import type { ApiClient } from '../support/api-client';
import { startInProcessPortal, startSyncEnded, type InProcessPortal } from '../support/in-process';
import { validPrealert } from '../support/prealert-steps';

const DEMO_PASSWORD = 'demo-password-1';
const WINDOW_MS = 60_000;
const ENV = {
  SANDBOX_CONTROL: 'true',
  SANDBOX_RECEIPTS: '40',
  SANDBOX_CHANGE_SECONDS: '60',
  SYNC_INTERVAL_SECONDS: '3600',
  // Every sync is a full one, which removes what the provider no longer lists.
  SYNC_FULL_INTERVAL_SECONDS: '1',
  DEMO_USERS: 'true',
  DEMO_PASSWORD,
};

let first: InProcessPortal;
let restarted: InProcessPortal | undefined;

beforeAll(async () => {
  first = await startInProcessPortal(ENV);
}, 60_000);

afterAll(async () => {
  await restarted?.stop();
  if (!restarted) await first?.stop();
});

/** A full sync now: its answer says how many receipts it removed. */
async function fullSync(admin: ApiClient): Promise<{ deleted: number }> {
  const response = await admin.post('/api/sync');
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

const receiptIds = async (portal: InProcessPortal) =>
  (await queryDatabase<{ id: number }>(portal, 'SELECT id FROM receipts ORDER BY id')).map((row) =>
    Number(row.id),
  );

it('carries on where it was after a restart: the receipts added since the start and a received pre-alert stay, and the sync removes nothing', async () => {
  const admin = await signedInAdmin(first);
  await waitForMirror(admin);
  await startSyncEnded(first);
  const demo = await signIn(first, { username: 'demo', password: DEMO_PASSWORD });
  const consigneeId = Number(
    (
      await queryDatabase<{ consigneeId: number }>(
        first,
        'SELECT consigneeId FROM consignee_assignments LIMIT 1',
      )
    )[0]!.consigneeId,
  );
  const prealert = await demo.post('/api/prealerts', validPrealert(consigneeId));
  expect(prealert.status, JSON.stringify(prealert.body)).toBe(201);
  await first.portal.outbox.idle();

  // Twelve windows pass: receipts are added, moved and removed, and the warehouse receives the package.
  first.clock.advance(12 * WINDOW_MS);
  await fullSync(admin);
  const before = await receiptIds(first);
  expect(before.length).toBeGreaterThan(40);
  const received = (await demo.get(`/api/prealerts/${prealert.body.data.id}`)).body.data;
  expect(received.status).toBe('received');
  const opened = await demo.get(`/api/receipts/${received.receiptId}`);
  expect(opened.status).toBe(200);

  await first.stop({ keepDir: true });
  restarted = await startInProcessPortal(ENV, { dir: first.dir, deferStart: true });
  restarted.clock.advance(first.clock.now() - restarted.clock.now());
  await restarted.start();

  const adminAgain = await signedInAdmin(restarted);
  expect(await fullSync(adminAgain)).toMatchObject({ full: true, deleted: 0 });
  expect(await receiptIds(restarted)).toEqual(before);
  const demoAgain = await signIn(restarted, { username: 'demo', password: DEMO_PASSWORD });
  expect((await demoAgain.get(`/api/prealerts/${prealert.body.data.id}`)).body.data).toMatchObject({
    status: 'received',
    receiptId: received.receiptId,
  });
  expect((await demoAgain.get(`/api/receipts/${received.receiptId}`)).status).toBe(200);
});
