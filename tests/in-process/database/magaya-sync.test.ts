/**
 * PROVIDER=magaya's sync against the sandbox's Magaya mode over real HTTP: the first full read in one
 * session, later syncs by the change log (with a deletion), a busy API user waited out, a failed sync
 * that changes nothing, and sessions that always end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { soapEnvelope, soapString } from '~/server/provider/magaya/soap';
import {
  SANDBOX_MAGAYA_PASSWORD,
  SANDBOX_MAGAYA_USERNAME,
  sandboxGuid,
} from '~/server/provider/sandbox/magaya';
import { ApiClient } from '../../support/api-client';
import { eventually, queryDatabase, signedInAdmin } from '../../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { advanceUntilDeletion } from '../../support/sandbox-steps';

const RECEIPTS = 120;
const INVOKE = '/sandbox/Invoke?Handler=CSSoapService';

let portal: InProcessPortal;
let sandbox: ApiClient;

beforeAll(async () => {
  portal = await startInProcessPortal(
    {
      SANDBOX_PROTOCOL: 'magaya',
      SANDBOX_RECEIPTS: String(RECEIPTS),
      SANDBOX_CONTROL: 'true',
      SANDBOX_CHANGE_SECONDS: '86400',
    },
    // The test runs each sync itself.
    { background: false },
  );
  sandbox = new ApiClient(portal);
});

afterAll(async () => {
  await portal?.stop();
});

const magaya = () => portal.portal.sandbox!.magaya!;
const calls = (method: string) => magaya().calls.get(method) ?? 0;

/** The sandbox's receipts customers may see (its Cancelled ones Magaya sends offline), by GUID. */
function onlineSandboxReceipts() {
  const store = portal.portal.sandbox!.currentStore();
  const receipts = store
    .receivedBetween(0, Number.MAX_SAFE_INTEGER, false)
    .map((id) => store.receipt(id)!);
  return new Map(
    receipts
      .filter((receipt) => receipt.status !== 'Cancelled')
      .map((receipt) => [sandboxGuid('receipt', receipt.id), receipt]),
  );
}

/** The mirror's receipts by their Magaya GUID, through the portal's GUID map. */
async function mirrorByGuid() {
  const rows = await queryDatabase<{
    guid: string;
    id: number;
    number: string;
    status: string;
    totalWeightValue: number;
  }>(
    portal,
    'SELECT m."guid", r."id", r."number", r."status", r."totalWeightValue" FROM "receipts" r JOIN "magaya_receipts" m ON m."id" = r."id"',
  );
  return new Map(rows.map((row) => [row.guid, row]));
}

const receiptCount = async () =>
  Number(
    (
      await queryDatabase<{ count: number }>(portal, 'SELECT COUNT(*) AS "count" FROM "receipts"')
    )[0]!.count,
  );

/** Every session the portal started has ended: each StartSession that opened one had its EndSession. */
function expectSessionsEnded() {
  expect(magaya().sessionOpen).toBe(false);
}

async function post(method: string, parameters: Record<string, ReturnType<typeof soapString>>) {
  const response = await fetch(`${portal.url}${INVOKE}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml' },
    body: soapEnvelope(method, parameters),
  });
  return response.text();
}

describe('PROVIDER=magaya sync (SANDBOX_PROTOCOL=magaya)', () => {
  it('when the portal syncs for the first time, then it reads every online receipt by date in one session, converted to lb, with ids that stay', async () => {
    const result = await portal.portal.syncRuns.syncReceipts();
    expect(result.full).toBe(true);
    expect(calls('StartSession')).toBe(1);
    expect(calls('EndSession')).toBe(1);
    expect(calls('GetNextTransbyDate')).toBeGreaterThan(0);
    expectSessionsEnded();

    const expected = onlineSandboxReceipts();
    const mirror = await mirrorByGuid();
    expect([...mirror.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [guid, receipt] of expected) {
      const row = mirror.get(guid)!;
      expect(row.number).toBe(receipt.number);
      // Every fourth sandbox receipt comes in kg: the mirror holds lb, as the sandbox's own figure.
      expect(Number(row.totalWeightValue)).toBeCloseTo(receipt.totalWeightValue, 1);
    }

    // A full re-read finds nothing changed: no receipt written, every id as it was.
    const again = await portal.portal.syncRuns.syncReceipts({ full: true });
    expect(again).toMatchObject({ full: true, written: 0, deleted: 0 });
    const reread = await mirrorByGuid();
    for (const [guid, row] of mirror) expect(reread.get(guid)?.id).toBe(row.id);
    expectSessionsEnded();
  });

  it('when Magaya logs changes and a deletion, then the next sync reads only those receipts and removes the deleted one', async () => {
    const before = await mirrorByGuid();
    const change = await advanceUntilDeletion(sandbox);
    const fullReads = calls('GetFirstTransbyDate');
    const fetchesBefore = calls('GetTransaction');

    const result = await portal.portal.syncRuns.syncReceipts();
    expect(result.full).toBe(false);
    expect(calls('GetFirstTransbyDate')).toBe(fullReads);
    const logged = new Set(
      [...change.advanced, ...change.added].filter((id) => !change.deleted.includes(id)),
    );
    expect(calls('GetTransaction') - fetchesBefore).toBeLessThanOrEqual(logged.size);
    expectSessionsEnded();

    const mirror = await mirrorByGuid();
    const expected = onlineSandboxReceipts();
    expect([...mirror.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const id of change.deleted) expect(mirror.has(sandboxGuid('receipt', id))).toBe(false);
    // The deleted receipts, and any the sandbox cancelled (Magaya then sends it offline), are gone.
    expect(result.deleted).toBe([...before.keys()].filter((guid) => !expected.has(guid)).length);
    for (const [guid, row] of mirror)
      if (before.has(guid)) expect(row.id).toBe(before.get(guid)!.id);
    for (const id of change.added)
      if (expected.has(sandboxGuid('receipt', id)))
        expect(mirror.has(sandboxGuid('receipt', id))).toBe(true);
  });

  it('when another session of the API user is open, then the sync waits for it to end instead of reading an empty list', async () => {
    const count = await receiptCount();
    const blocker = /<access_key[^>]*>([^<]+)</.exec(
      await post('StartSession', {
        user: soapString(SANDBOX_MAGAYA_USERNAME),
        pass: soapString(SANDBOX_MAGAYA_PASSWORD),
      }),
    )![1]!;
    const starts = calls('StartSession');
    const sync = portal.portal.syncRuns.syncReceipts({ full: true });
    // The portal was told the user is busy at least once, and is waiting before it asks again.
    await eventually(
      () => calls('StartSession'),
      (seen) => seen >= starts + 1,
    );
    expect(magaya().sessionOpen).toBe(true);
    await post('EndSession', { access_key: soapString(blocker) });

    const result = await sync;
    expect(result.full).toBe(true);
    expect(calls('StartSession')).toBeGreaterThan(starts + 1);
    expect(await receiptCount()).toBe(count);
    expect([...(await mirrorByGuid()).keys()].sort()).toEqual(
      [...onlineSandboxReceipts().keys()].sort(),
    );
    expectSessionsEnded();
  });

  it('when Magaya cannot be reached, then the sync changes no receipt and its status says why', async () => {
    const before = JSON.stringify([...(await mirrorByGuid()).entries()].sort());
    await advanceUntilDeletion(sandbox);
    expect((await sandbox.post('/sandbox/control/outage')).status).toBe(200);
    try {
      await expect(portal.portal.syncRuns.syncReceipts()).rejects.toThrow(
        'Magaya could not be reached.',
      );
    } finally {
      await sandbox.post('/sandbox/control/recover');
    }
    expect(JSON.stringify([...(await mirrorByGuid()).entries()].sort())).toBe(before);
    const admin = await signedInAdmin(portal);
    const status = await admin.get('/api/sync');
    expect(status.body.data).toMatchObject({ lastError: 'Magaya could not be reached.' });

    // Once it answers again, the changes the failed sync missed come with the next.
    await portal.portal.syncRuns.syncReceipts();
    expect([...(await mirrorByGuid()).keys()].sort()).toEqual(
      [...onlineSandboxReceipts().keys()].sort(),
    );
    expectSessionsEnded();
  });

  it("when a receipt's photos and documents are opened, then they come from Magaya without the internal ones, and a photo's bytes arrive whole", async () => {
    const [guid, row] = [...(await mirrorByGuid()).entries()][0]!;
    const store = portal.portal.sandbox!.currentStore();
    const sandboxId = Number(guid.slice(-12));
    const expected = (await portal.portal.sandbox!.attachments.list(store, sandboxId))!;
    const admin = await signedInAdmin(portal);
    const listed = await admin.get(`/api/receipts/${row.id}/attachments`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.map((attachment: { fileName: string }) => attachment.fileName)).toEqual(
      expected.map((attachment) => attachment.fileName),
    );
    expect(JSON.stringify(listed.body)).not.toContain('Cost sheet');
    const photo = listed.body.data.find(
      (attachment: { kind: string }) => attachment.kind === 'photo',
    );
    const response = await fetch(`${portal.url}${photo.url}`, {
      headers: { Cookie: admin.cookie!, Origin: portal.url },
    });
    expect(response.status).toBe(200);
    const file = await portal.portal.sandbox!.attachments.file(
      store,
      expected.find((attachment) => attachment.fileName === photo.fileName)!.id,
    );
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(file!.bytes))).toBe(true);
    expectSessionsEnded();
  });

  it("when a tracking number is looked up, then the mirror's packages answer, as Magaya's package scans are not asked", async () => {
    const [row] = await queryDatabase<{ trackingNumber: string; receiptId: number }>(
      portal,
      'SELECT "trackingNumber", "receiptId" FROM "packages" WHERE "trackingNumber" IS NOT NULL ORDER BY "id" LIMIT 1',
    );
    const admin = await signedInAdmin(portal);
    const calls = [...magaya().calls.values()].reduce((sum, count) => sum + count, 0);
    const found = await admin.get(
      `/api/package-tracker/search?trackingNumber=${encodeURIComponent(row!.trackingNumber)}`,
    );
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.data).toContainEqual(
      expect.objectContaining({ tracking_number: row!.trackingNumber, arrival_id: row!.receiptId }),
    );
    expect([...magaya().calls.values()].reduce((sum, count) => sum + count, 0)).toBe(calls);
  });

  it('when the portal stops during a full read, then its session is ended', async () => {
    // The read's first page is held until the stop is under way: on a busy machine, or a quick one,
    // the whole read could otherwise end before the stop comes.
    const sandbox = magaya();
    const answer = sandbox.answer.bind(sandbox);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    sandbox.answer = async (body) => {
      if (body.includes('GetNextTransbyDate')) {
        held = true;
        await released;
      }
      return answer(body);
    };
    const sync = portal.portal.syncRuns.syncReceipts({ full: true });
    sync.catch(() => {});
    await eventually(
      async () => held,
      (holding) => holding,
    );
    // The portal's own stop (SIGTERM's), with its server still answering as the sandbox.
    const stopped = portal.portal.stop();
    release();
    await stopped;
    await expect(sync).rejects.toThrow();
    await eventually(
      () => magaya().sessionOpen,
      (open) => !open,
    );
  });
});
