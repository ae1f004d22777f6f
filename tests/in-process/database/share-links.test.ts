/**
 * Share links: a customer makes a read-only link to one receipt in their scope, `/t/<token>`, which
 * anyone opens without signing in for 30 days. The page shows the status and its history, the cities,
 * pieces, weight and freshness, never names or tracking numbers; it is not for search engines, limited
 * per client address, and a link that does not work (unknown, revoked, expired, its owner disabled) is a
 * 404 in the visitor's language.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inLocale } from '~/server/locale';
import { formatCount, formatDate, formatWeight, statusLabel } from '~/shared/format';
import { ApiClient } from '../../support/api-client';
import {
  allReceipts,
  assignConsignees,
  createUser,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  waitForMirror,
} from '../../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';

const DEMO_PASSWORD = 'demo-password-1';
const DAY_MS = 86_400_000;

let portal: InProcessPortal;
let admin: ApiClient;
let demo: ApiClient;
let demoConsigneeIds: number[];
let own: Array<Record<string, any>>;
let others: Array<Record<string, any>>;
let addressCount = 0;

/** A client from an address of its own (the portal trusts X-Forwarded-For here), so each test's views count apart. */
function freshClient(): ApiClient {
  addressCount += 1;
  const client = new ApiClient(portal);
  const address = `198.51.100.${addressCount}`;
  const request = client.request.bind(client);
  client.request = (method, path, options = {}) =>
    request(method, path, {
      ...options,
      headers: { 'X-Forwarded-For': address, ...options.headers },
    });
  return client;
}

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
const tokenOf = (url: string) => new URL(url).pathname.replace('/t/', '');
const pathOf = (url: string) => new URL(url).pathname;

/** A customer of the demo's consignees, signed in. */
async function customerLikeDemo(name: string): Promise<{ id: number; client: ApiClient }> {
  const user = await createUser(admin, name);
  await assignConsignees(admin, user.id, demoConsigneeIds);
  return { id: user.id, client: await signIn(portal, user) };
}

/** A new link on purpose: it revokes the client's link to the receipt that still works. */
async function share(client: ApiClient, receiptId: number) {
  const response = await client.post(`/api/receipts/${receiptId}/share?replace=true`);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: number; url: string; expiresAt: string };
}

beforeAll(async () => {
  portal = await startInProcessPortal({
    SANDBOX_RECEIPTS: '120',
    SYNC_INTERVAL_SECONDS: '3600',
    DEMO_USERS: 'true',
    DEMO_PASSWORD,
    TRUST_PROXY: 'true',
    PUBLIC_URL: 'https://portal.example.com',
  });
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  demo = await signIn(portal, { username: 'demo', password: DEMO_PASSWORD });
  demoConsigneeIds = (
    await queryDatabase<{ consigneeId: number }>(
      portal,
      'SELECT a.consigneeId FROM consignee_assignments a JOIN users u ON u.id = a.userId WHERE u.username = ? ORDER BY a.consigneeId',
      ['demo'],
    )
  ).map((row) => Number(row.consigneeId));
  own = await allReceipts(demo);
  const ownIds = new Set(own.map((receipt) => receipt.id));
  others = (await allReceipts(admin)).filter((receipt) => !ownIds.has(receipt.id));
});

afterAll(async () => {
  await portal?.stop();
});

describe('making a share link', () => {
  it('answers 201 with the address once, keeps only its hash, and works for 30 days', async () => {
    const receipt = own[0]!;
    const before = portal.clock.now();
    const link = await share(demo, receipt.id);
    expect(Object.keys(link).sort()).toEqual(['expiresAt', 'id', 'url']);
    expect(link.url).toMatch(/^https:\/\/portal\.example\.com\/t\/[A-Za-z0-9_-]{43}$/);
    const expiresIn = Date.parse(link.expiresAt) - before;
    expect(expiresIn).toBeGreaterThanOrEqual(30 * DAY_MS - 1000);
    expect(expiresIn).toBeLessThanOrEqual(30 * DAY_MS + 5000);
    const [stored] = await queryDatabase<{ tokenHash: string; receiptId: number }>(
      portal,
      'SELECT tokenHash, receiptId FROM share_links WHERE id = ?',
      [link.id],
    );
    expect(stored!.tokenHash).toBe(createHash('sha256').update(tokenOf(link.url)).digest('hex'));
    expect(Number(stored!.receiptId)).toBe(receipt.id);
  });

  it("refuses a receipt outside the customer's consignees as not found, and anyone signed out", async () => {
    expectError(await demo.post(`/api/receipts/${others[0]!.id}/share`), 404, 'NOT_FOUND');
    expectError(await demo.post('/api/receipts/999999999/share'), 404, 'NOT_FOUND');
    expectError(
      await new ApiClient(portal).post(`/api/receipts/${own[0]!.id}/share`),
      401,
      'AUTHENTICATION_ERROR',
    );
  });

  it("makes a link from the receipt page's plain form and redirects to the page, which shows it once; another consignee's receipt is the page's 404", async () => {
    const owner = await customerLikeDemo('share-form');
    const receiptPath = `/receipts/${own[0]!.id}`;
    const form = {
      body: '',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': 'en' },
    };
    const posted = await owner.client.post(receiptPath, undefined, form);
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(receiptPath);
    const madeCookie = posted.headers
      .getSetCookie()
      .find((line) => line.startsWith('portal_share_link='))!
      .split(';')[0]!;
    const openPage = (cookie: string) =>
      fetch(`${portal.url}${receiptPath}`, {
        headers: { Cookie: cookie, 'Accept-Language': 'en' },
        redirect: 'manual',
      }).then((response) => response.text());
    const page = await openPage(`${owner.client.cookie}; ${madeCookie}`);
    const url = /value="(https:\/\/portal\.example\.com\/t\/[A-Za-z0-9_-]{43})"/.exec(page)?.[1];
    expect(url).toBeDefined();
    expect((await freshClient().get(pathOf(url!))).status).toBe(200);

    // A reload (a GET) shows no address, but that the link exists and when it was made.
    const reloaded = (await owner.client.get(receiptPath, { headers: { 'Accept-Language': 'en' } }))
      .body as string;
    expect(reloaded).not.toContain(url);
    expect(reloaded).toContain(
      escapeHtml(
        `You already shared this receipt: your link was made on ${inLocale('en', () => formatDate(portal.clock.now()))}.`,
      ),
    );
    expect(reloaded).toContain('Make a new link');

    // Posting the form again without asking for a new link makes none.
    expect((await owner.client.post(receiptPath, undefined, form)).status).toBe(303);
    const activeLinks = async () =>
      ((await owner.client.get('/api/shares')).body.data as unknown[]).length;
    expect(await activeLinks()).toBe(1);

    // A new link on purpose stops the old one.
    const replaced = await owner.client.post(receiptPath, undefined, {
      ...form,
      body: 'replace=true',
    });
    expect(replaced.status).toBe(303);
    expect(
      replaced.headers.getSetCookie().some((line) => line.startsWith('portal_share_link=')),
    ).toBe(true);
    expect((await freshClient().get(pathOf(url!))).status).toBe(404);
    expect(await activeLinks()).toBe(1);

    expect((await owner.client.post(`/receipts/${others[0]!.id}`, undefined, form)).status).toBe(
      404,
    );
  });

  it('keeps one link to a receipt per customer: another is a 409 saying when the first was made, unless it is made on purpose, which revokes the first', async () => {
    const owner = await customerLikeDemo('share-once');
    const first = await owner.client.post(`/api/receipts/${own[1]!.id}/share`);
    expect(first.status).toBe(201);
    const again = await owner.client.post(`/api/receipts/${own[1]!.id}/share`, undefined, {
      headers: { 'Accept-Language': 'nl' },
    });
    expectError(
      again,
      409,
      'CONFLICT',
      /^U hebt dit ontvangstbewijs al gedeeld: uw link is gemaakt op \d{2}-\d{2}-\d{4}\./,
    );
    expect((await freshClient().get(pathOf(first.body.data.url))).status).toBe(200);
    const second = await share(owner.client, own[1]!.id);
    expect((await freshClient().get(pathOf(first.body.data.url))).status).toBe(404);
    expect((await freshClient().get(pathOf(second.url))).status).toBe(200);
    // Another customer of the same receipt has a link of their own.
    const neighbour = await customerLikeDemo('share-once-neighbour');
    expect((await neighbour.client.post(`/api/receipts/${own[1]!.id}/share`)).status).toBe(201);
  });

  it('lets staff share any receipt', async () => {
    const link = await share(admin, others[0]!.id);
    expect((await freshClient().get(pathOf(link.url))).status).toBe(200);
  });
});

describe('the shared page', () => {
  it('shows the receipt number, the status and its history, the cities, pieces, weight and freshness; no names or tracking numbers; not for search engines', async () => {
    const receipt =
      own.find((candidate) =>
        candidate.commodities.some((commodity: any) => commodity.trackingNumber),
      ) ?? own[0]!;
    const details = (await demo.get(`/api/receipts/${receipt.id}`)).body.data;
    expect(details.history.length).toBeGreaterThan(0);
    const link = await share(demo, receipt.id);

    const response = await freshClient().get(pathOf(link.url), {
      headers: { 'Accept-Language': 'en' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-robots-tag')).toMatch(/noindex/);
    expect(response.headers.get('content-language')).toBe('en');
    const html = response.body as string;
    expect(html).toMatch(/<meta name="robots" content="noindex[^"]*"/);
    expect(html).toContain('Shipment status');
    expect(html).toMatch(new RegExp(`Receipt number</dt>\\s*<dd[^>]*>${details.number}</dd>`));
    inLocale('en', () => {
      expect(html).toContain(escapeHtml(statusLabel(details.status)));
      for (const entry of details.history)
        expect(html).toContain(escapeHtml(statusLabel(entry.status)));
      expect(html).toContain(escapeHtml(details.origin.name));
      expect(html).toContain(escapeHtml(details.destination));
      expect(html).toContain(formatCount(details.pieces));
      expect(html).toContain(formatWeight(details.totalWeightValue));
    });
    expect(html).toMatch(/Updated [^<]*(ago|just now)/);
    for (const secret of [details.shipperName, details.consigneeName]) {
      expect(html).not.toContain(escapeHtml(secret));
      expect(html).not.toContain(secret);
    }
    for (const commodity of details.commodities) {
      if (commodity.trackingNumber) expect(html).not.toContain(commodity.trackingNumber);
      if (commodity.description) expect(html).not.toContain(escapeHtml(commodity.description));
    }
    // No island, no React: as light as the sign-in page.
    expect(html).not.toContain('<astro-island');
  });

  it("is in the visitor's language, and ?lang= chooses it", async () => {
    const link = await share(demo, own[1]!.id);
    const dutch = await freshClient().get(pathOf(link.url), {
      headers: { 'Accept-Language': 'nl-NL,nl;q=0.9' },
    });
    expect(dutch.status).toBe(200);
    expect(dutch.body).toContain('Status van de zending');
    const byLink = await freshClient().get(`${pathOf(link.url)}?lang=nl`, {
      headers: { 'Accept-Language': 'en' },
    });
    expect(byLink.headers.get('content-language')).toBe('nl');
    expect(byLink.body).toContain('Status van de zending');
  });

  it('answers an unknown or malformed token with a 404 page in the visitor’s language, not for search engines', async () => {
    const unknown = await freshClient().get(`/t/${'A'.repeat(43)}`, {
      headers: { 'Accept-Language': 'en' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('This link no longer works');
    expect(unknown.headers.get('x-robots-tag')).toMatch(/noindex/);
    const malformed = await freshClient().get('/t/short?lang=nl');
    expect(malformed.status).toBe(404);
    expect(malformed.body).toContain('Deze link werkt niet meer');
  });

  it('limits the views per client address (60 per login window), with a 429 page', async () => {
    const link = await share(demo, own[2]!.id);
    const visitor = freshClient();
    for (let view = 0; view < 60; view += 1)
      expect((await visitor.get(pathOf(link.url))).status).toBe(200);
    const limited = await visitor.get(pathOf(link.url), { headers: { 'Accept-Language': 'en' } });
    expect(limited.status).toBe(429);
    expect(limited.body).toContain('Too many requests');
    expect(limited.body).not.toContain('Shipment status');
    // Unknown tokens count too: guessing is limited the same way.
    expect((await visitor.get(`/t/${'B'.repeat(43)}`)).status).toBe(429);
    // Another address is not affected.
    expect((await freshClient().get(pathOf(link.url))).status).toBe(200);
  });
});

describe('the list and revoking', () => {
  it("lists only the caller's active links, without addresses", async () => {
    const owner = await customerLikeDemo('lister');
    const neighbour = await customerLikeDemo('neighbour');
    const first = await share(owner.client, own[0]!.id);
    const second = await share(owner.client, own[1]!.id);
    const theirs = await share(neighbour.client, own[0]!.id);
    expect((await owner.client.delete(`/api/shares/${first.id}`)).status).toBe(200);

    const listed = await owner.client.get('/api/shares');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      {
        id: second.id,
        receiptId: own[1]!.id,
        receiptNumber: own[1]!.number,
        createdAt: expect.any(String),
        expiresAt: second.expiresAt,
      },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(tokenOf(second.url));
    expect(
      (await neighbour.client.get('/api/shares')).body.data.map((link: any) => link.id),
    ).toEqual([theirs.id]);
    expectError(await new ApiClient(portal).get('/api/shares'), 401, 'AUTHENTICATION_ERROR');
  });

  it('revokes a link: it stops working at once, and revoking again is a 404', async () => {
    const link = await share(demo, own[0]!.id);
    const visitor = freshClient();
    expect((await visitor.get(pathOf(link.url))).status).toBe(200);
    const revoked = await demo.delete(`/api/shares/${link.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({
      success: true,
      message: 'The share link has been revoked.',
    });
    const gone = await visitor.get(pathOf(link.url), { headers: { 'Accept-Language': 'en' } });
    expect(gone.status).toBe(404);
    expect(gone.body).toContain('This link no longer works');
    expectError(await demo.delete(`/api/shares/${link.id}`), 404, 'NOT_FOUND');
  });

  it("does not let another user revoke a link (404), nor an admin through the customer's call", async () => {
    const link = await share(demo, own[0]!.id);
    const stranger = await customerLikeDemo('stranger');
    expectError(await stranger.client.delete(`/api/shares/${link.id}`), 404, 'NOT_FOUND');
    expectError(await admin.delete(`/api/shares/${link.id}`), 404, 'NOT_FOUND');
    expect((await freshClient().get(pathOf(link.url))).status).toBe(200);
  });

  it("revokes through Profile Settings' plain form, which lists the link", async () => {
    const owner = await customerLikeDemo('profiler');
    const link = await share(owner.client, own[0]!.id);
    const profile = await owner.client.get('/profile', { headers: { 'Accept-Language': 'en' } });
    expect(profile.body).toContain('Shared links');
    expect(profile.body).toContain(`Receipt ${escapeHtml(own[0]!.number)}`);
    const form = await owner.client.post('/profile/shares/revoke', undefined, {
      body: `id=${link.id}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(303);
    expect((await freshClient().get(pathOf(link.url))).status).toBe(404);
    expect(
      (await owner.client.get('/profile', { headers: { 'Accept-Language': 'en' } })).body,
    ).toContain('You have no active share links.');
  });

  it("ends a disabled owner's links, and a deleted owner's", async () => {
    const leaver = await customerLikeDemo('leaver');
    const link = await share(leaver.client, own[0]!.id);
    expect((await freshClient().get(pathOf(link.url))).status).toBe(200);
    expect(
      (
        await admin.put(`/api/auth/users/${leaver.id}`, {
          username: 'leaver',
          role: 'viewer',
          isActive: false,
        })
      ).status,
    ).toBe(200);
    expect((await freshClient().get(pathOf(link.url))).status).toBe(404);

    const gone = await customerLikeDemo('gone');
    const goneLink = await share(gone.client, own[0]!.id);
    expect((await admin.delete(`/api/auth/users/${gone.id}`)).status).toBe(200);
    expect((await freshClient().get(pathOf(goneLink.url))).status).toBe(404);
    expect(
      await queryDatabase(portal, 'SELECT id FROM share_links WHERE userId = ?', [gone.id]),
    ).toEqual([]);
  });

  it('stops showing a receipt the owner no longer sees (their consignees changed)', async () => {
    const mover = await customerLikeDemo('mover');
    const link = await share(mover.client, own[0]!.id);
    expect((await freshClient().get(pathOf(link.url))).status).toBe(200);
    for (const consigneeId of demoConsigneeIds)
      expect(
        (await admin.delete(`/api/consignees/${consigneeId}/remove-user/${mover.id}`)).status,
      ).toBe(200);
    expect((await freshClient().get(pathOf(link.url))).status).toBe(404);
  });
});

describe('expiry', () => {
  it('works for 30 days, then the link is a 404 and leaves the list', async () => {
    const link = await share(demo, own[0]!.id);
    portal.clock.advance(29 * DAY_MS);
    expect((await freshClient().get(pathOf(link.url))).status).toBe(200);
    portal.clock.advance(DAY_MS + 60_000);
    const expired = await freshClient().get(pathOf(link.url), {
      headers: { 'Accept-Language': 'en' },
    });
    expect(expired.status).toBe(404);
    expect(expired.body).toContain('This link no longer works');
    const again = await signIn(portal, { username: 'demo', password: DEMO_PASSWORD });
    expect(
      (await again.get('/api/shares')).body.data.map((listed: any) => listed.id),
    ).not.toContain(link.id);
    // Housekeeping keeps them a day, then forgets them.
    portal.clock.advance(2 * DAY_MS);
    await portal.portal.keepHouse();
    expect(
      await queryDatabase(portal, 'SELECT id FROM share_links WHERE id = ?', [link.id]),
    ).toEqual([]);
  });
});
