/**
 * The receipt page GET /receipts/{id}, where the status e-mails link: the receipt and its
 * status history rendered on the server, for the receipt's owner only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inLocale } from '~/server/locale';
import { formatDateTime, statusLabel } from '~/shared/format';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import { CLOSED_PORT } from '../support/portal';
import { ApiClient } from '../support/api-client';
import { allReceipts, signIn, signedInAdmin, waitForMirror } from '../support/api-steps';
import { stallLimit } from '../support/test-pace';

const DEMO_PASSWORD = 'demo-password-1';
const DUTCH = { headers: { 'Accept-Language': 'nl-NL,nl;q=0.9' } };

let portal: InProcessPortal;
let downPortal: InProcessPortal;
let admin: ApiClient;
let demo: ApiClient;
let own: Array<Record<string, any>>;
let others: Array<Record<string, any>>;

beforeAll(async () => {
  [portal, downPortal] = await Promise.all([
    startInProcessPortal({
      SANDBOX_RECEIPTS: '150',
      SANDBOX_CONTROL: 'true',
      SYNC_INTERVAL_SECONDS: '1',
      SANDBOX_CHANGE_SECONDS: '86400',
      DEMO_USERS: 'true',
      DEMO_PASSWORD,
    }),
    // A provider address where nothing listens: the mirror is never filled.
    startInProcessPortal({
      PROVIDER: 'http',
      PROVIDER_URL: `http://127.0.0.1:${CLOSED_PORT}/provider`,
    }),
  ]);
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  demo = await signIn(portal, { username: 'demo', password: DEMO_PASSWORD });
  own = await allReceipts(demo);
  const ownIds = new Set(own.map((receipt) => receipt.id));
  others = (await allReceipts(admin)).filter((receipt) => !ownIds.has(receipt.id));
});

afterAll(async () => {
  await Promise.all([portal?.stop(), downPortal?.stop()]);
});

/** The page's timeline: each entry's text, top to bottom. */
function timelineOf(html: string, label = 'Status History'): string[] {
  const list = new RegExp(`<ol[^>]*aria-label="${label}"[^>]*>([\\s\\S]*?)</ol>`).exec(html);
  if (!list) return [];
  return [...list[1]!.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((item) =>
    item[1]!
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A receipt whose status the provider moved, once the mirror has recorded the move. */
async function receiptWithTwoStatuses(): Promise<{
  id: number;
  history: Array<{ status: string; at: string }>;
}> {
  const { advanced } = (await admin.post('/sandbox/control/advance')).body as {
    advanced: number[];
  };
  const deadline = Date.now() + stallLimit(20_000);
  while (Date.now() < deadline) {
    for (const id of advanced) {
      const details = (await admin.get(`/api/receipts/${id}`)).body.data;
      if (details?.history.length >= 2) return details;
    }
    await sleep(300);
  }
  throw new Error('no status change was recorded');
}

describe('the receipt page', () => {
  it('when the owner opens a receipt, then 200 with its facts and its status history', async () => {
    const receipt = own[0]!;
    const response = await demo.get(`/receipts/${receipt.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html: string = response.body;
    expect(html).toContain(`<title>Receipt ${receipt.number}`);
    for (const text of [receipt.shipperName, receipt.consigneeName, receipt.destination])
      expect(html).toContain(escapeHtml(text));
    expect(html).toContain('Status History');
    const { data } = (await demo.get(`/api/receipts/${receipt.id}`)).body;
    expect(timelineOf(html)).toEqual([
      `${statusLabel(receipt.status)} Current status ${formatDateTime(data.history[0].at)}`,
    ]);
    // No island: the page works without JavaScript.
    expect(html).not.toContain('<astro-island');
  });

  it('when a receipt has moved, then its timeline shows the newest status first', async () => {
    const { id, history } = await receiptWithTwoStatuses();
    const html: string = (await admin.get(`/receipts/${id}`)).body;
    const newestFirst = [...history].reverse();
    expect(timelineOf(html)).toEqual(
      newestFirst.map(
        (entry, index) =>
          `${statusLabel(entry.status)}${index === 0 ? ' Current status' : ''} ${formatDateTime(entry.at)}`,
      ),
    );
  });

  it('when the page is asked for in Dutch, then it is Dutch', async () => {
    const receipt = own[0]!;
    const html: string = (await demo.get(`/receipts/${receipt.id}`, DUTCH)).body;
    expect(html).toContain(`<title>Ontvangstbewijs ${receipt.number}`);
    // The Dutch label, built in Dutch for this expectation only: the portal in this process reads the same messages.
    const dutchStatus = inLocale('nl', () => statusLabel(receipt.status));
    expect(timelineOf(html, 'Statusverloop')).toEqual([
      expect.stringMatching(
        new RegExp(`^${dutchStatus} Huidige status \\d{2}-\\d{2}-\\d{4}, \\d{2}:\\d{2}$`),
      ),
    ]);
  });

  it.each([
    ['another consignee’s receipt', () => `/receipts/${others[0]!.id}`],
    ['an id no receipt has', () => '/receipts/999999999'],
    ['a malformed id', () => '/receipts/abc'],
  ])(
    'when a customer opens %s, then 404 with a clear message and a link back to the list',
    async (_case, path) => {
      const response = await demo.get(path());
      expect(response.status).toBe(404);
      const html: string = response.body;
      expect(html).toContain('Receipt not found');
      expect(html).toContain('This receipt does not exist or is not available for your account.');
      expect(html).toMatch(/<a[^>]*href="\/receipts"[^>]*>Back to receipts<\/a>/);
      expect(html).not.toContain(others[0]!.number);
    },
  );

  it('when a missing receipt is asked for in Dutch, then the 404 page is Dutch', async () => {
    const response = await demo.get('/receipts/abc', DUTCH);
    expect(response.status).toBe(404);
    expect(response.body).toContain('Ontvangstbewijs niet gevonden');
    expect(response.body).toContain('Terug naar de ontvangstbewijzen');
  });

  it('when the mirror has never been filled, then 503 with the "Server is Busy" text, not a failure page', async () => {
    const response = await (await signedInAdmin(downPortal)).get('/receipts/1');
    expect(response.status).toBe(503);
    expect(response.body).toContain('Server is Busy');
    expect(response.body).toMatch(/<a[^>]*href="\/receipts"[^>]*>Back to receipts<\/a>/);
  });

  it('when nobody is signed in, then the page sends them to sign in', async () => {
    const response = await new ApiClient(portal).get(`/receipts/${own[0]!.id}`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/login');
  });
});
