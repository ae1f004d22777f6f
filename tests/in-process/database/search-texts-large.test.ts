/**
 * Searches of one or two characters are answered from an index kept in memory, built from the search
 * texts read a range of ids at a time (services/receipt-order.ts): with more receipts than one range,
 * every range counts. Two characters in more than two code units (an emoji and a letter) are read from
 * the table instead. The portal reads 500 texts at a time, not 5,000: the same ranges on a tenth of the
 * receipts, which the test syncs and pages through in a tenth of the time.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { ApiClient } from '../../support/api-client';
import { allReceipts, signedInAdmin, waitForMirror } from '../../support/api-steps';
import { stallLimit } from '../../support/test-pace';

const TEXTS_PER_READ = 500;
/** More than four ranges, the last one short. */
const RECEIPTS = 4 * TEXTS_PER_READ + 150;

let portal: InProcessPortal;
let admin: ApiClient;
let everything: Array<Record<string, any>>;

beforeAll(async () => {
  portal = await startInProcessPortal(
    { SYNC_INTERVAL_SECONDS: '3600', SANDBOX_RECEIPTS: String(RECEIPTS) },
    { searchTextsPerRead: TEXTS_PER_READ },
  );
  admin = await signedInAdmin(portal);
  await waitForMirror(admin, 240_000);
  everything = await allReceipts(admin);
}, stallLimit(360_000));

afterAll(async () => {
  await portal?.stop();
});

// 'wr' is in every receipt's number: a receipt whose text a range read missed would be left out.
it.each([['wr'], ['9'], ['b.'], ['zq'], ['é'], ['📦'], ['a📦']])(
  'when the mirror holds more receipts than one read of search texts and someone searches %s, then exactly the receipts containing it come back',
  async (term) => {
    expect(everything.length).toBeGreaterThan(4 * TEXTS_PER_READ);
    const expected = everything.filter((receipt) =>
      [receipt.number, receipt.shipperName, receipt.consigneeName].some((field: string) =>
        field.toLowerCase().includes(term),
      ),
    );
    const found = await allReceipts(admin, `search=${encodeURIComponent(term)}`);
    expect(found.map((receipt) => receipt.id).sort()).toEqual(
      expected.map((receipt) => receipt.id).sort(),
    );
  },
  60_000,
);
