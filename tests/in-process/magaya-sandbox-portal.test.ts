/** The portal's own sandbox answering as Magaya (SANDBOX_PROTOCOL=magaya) at /sandbox/Invoke, over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWarehouseReceipt } from '~/server/provider/magaya/receipt';
import { MagayaSessions, WAREHOUSE_RECEIPT } from '~/server/provider/magaya/session';
import { soapEnvelope, soapString } from '~/server/provider/magaya/soap';
import {
  SANDBOX_MAGAYA_PASSWORD,
  SANDBOX_MAGAYA_USERNAME,
  sandboxIdOfGuid,
} from '~/server/provider/sandbox/magaya';
import { allReceipts, eventually, signIn, waitForMirror } from '../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';

const RECEIPTS = 60;
const INVOKE = '/sandbox/Invoke?Handler=CSSoapService';

let magaya: InProcessPortal;
let contract: InProcessPortal;

beforeAll(async () => {
  [magaya, contract] = await Promise.all([
    // No background sync: this test's own client is the API user's one session.
    startInProcessPortal(
      { SANDBOX_PROTOCOL: 'magaya', SANDBOX_RECEIPTS: String(RECEIPTS) },
      { background: false },
    ),
    startInProcessPortal({ SANDBOX_RECEIPTS: '5' }),
  ]);
});

afterAll(async () => {
  await Promise.all([magaya?.stop(), contract?.stop()]);
});

describe('sandbox in Magaya mode', () => {
  it('when the Magaya client reads the sandbox by date, then it finds every receipt the sandbox has', async () => {
    const sessions = new MagayaSessions({
      connection: {
        url: `${magaya.url}${INVOKE}`,
        username: SANDBOX_MAGAYA_USERNAME,
        password: SANDBOX_MAGAYA_PASSWORD,
        timeoutMs: 30_000,
      },
      pause: () => Promise.reject(new Error('no session should be busy')),
    });
    const ids = new Set<number>();
    await sessions.run((session) =>
      session.transactionsByDate(
        {
          type: WAREHOUSE_RECEIPT,
          start: new Date(0),
          end: new Date(magaya.clock.now() + 86_400_000),
          flags: 0,
          pageSize: 20,
        },
        'WarehouseReceipt',
        (element) => {
          const reading = readWarehouseReceipt(element, {
            ids: {
              receiptId: (guid) => sandboxIdOfGuid('receipt', guid) ?? -1,
              consigneeId: (guid) => sandboxIdOfGuid('consignee', guid) ?? -1,
            },
            updatedAt: new Date().toISOString(),
          });
          if (reading.kind !== 'unidentified') ids.add(sandboxIdOfGuid('receipt', reading.guid)!);
        },
      ),
    );
    expect(ids.size).toBe(magaya.portal.sandbox!.store().size);
    expect(magaya.portal.sandbox!.magaya!.sessionOpen).toBe(false);
  });

  it('when the sandbox speaks the contract, then there is no Magaya endpoint', async () => {
    const response = await fetch(`${contract.url}${INVOKE}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml' },
      body: soapEnvelope('StartSession', {
        user: soapString(SANDBOX_MAGAYA_USERNAME),
        pass: soapString(SANDBOX_MAGAYA_PASSWORD),
      }),
    });
    expect(response.status).toBe(404);
  });
});

describe('the demo through Magaya', () => {
  it("when the sandbox portal starts in Magaya mode, then it reads itself as Magaya and the demo customer sees its consignees' receipts", async () => {
    const demo = await startInProcessPortal({
      SANDBOX_PROTOCOL: 'magaya',
      SANDBOX_RECEIPTS: '80',
      DEMO_USERS: 'true',
      DEMO_PASSWORD: 'demo-password-1',
    });
    try {
      // The demo customer takes consignees the receipts name: it is made once the first sync read them.
      await eventually(
        () => demo.output(),
        (output) => output.includes('Demo customer'),
      );
      const customer = await signIn(demo, { username: 'demo', password: 'demo-password-1' });
      await waitForMirror(customer);
      const receipts = await allReceipts(customer);
      expect(receipts.length).toBeGreaterThan(0);
      // Read through Magaya's calls, not the contract's.
      expect(demo.portal.sandbox!.magaya!.calls.get('GetNextTransbyDate')).toBeGreaterThan(0);
      const consignees = new Set(receipts.map((receipt) => receipt.consigneeName));
      expect(consignees.size).toBeLessThanOrEqual(3);
    } finally {
      await demo.stop();
    }
  });
});
