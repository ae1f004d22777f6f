/**
 * A receipt's photos and documents: the list mirrored from the provider when the receipt is opened (and
 * again once the receipt changed or the list aged), the bytes fetched on the first view and kept in
 * UPLOADS_DIR (the next view does not reach the provider, and concurrent first views fetch once), a
 * photo's WebP thumbnail (at most 15 KB) and larger view, the customer's scope on every call, share
 * links without any of it, and a provider outage: what was fetched still shows, the rest says why not.
 * A third-party provider without attachments shows none; one that sends too much, or a decompression
 * bomb as a photo, is refused.
 */
import { createHash } from 'node:crypto';
import { open, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ATTACHMENT_LIST_MAX_AGE_MS } from '~/server/services/attachments/attachments';
import { ApiClient } from '../../support/api-client';
import {
  allReceipts,
  assignConsignees,
  createUser,
  eventually,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  waitForMirror,
  writeDatabase,
  databaseDate,
} from '../../support/api-steps';
import { cameraPhoto, largePng } from '../../support/images';
import { holdTransaction } from '../../support/held-transaction';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { type OidcAttachment, type OidcServer } from '../../support/oidc-server';
import { connectAtServer, startPortalAtOidcServer } from '../../support/oidc-steps';
import { stallLimit } from '../../support/test-pace';

const DEMO_PASSWORD = 'demo-password-1';
const SUMMARY_FIELDS = [
  'contentType',
  'fileName',
  'id',
  'kind',
  'largeUrl',
  'size',
  'thumbnailUrl',
  'url',
];

let portal: InProcessPortal;
let admin: ApiClient;
let demo: ApiClient;
let own: Array<Record<string, any>>;
let others: Array<Record<string, any>>;

interface Download {
  status: number;
  headers: Headers;
  bytes: Buffer;
  body: any;
}

/** A GET as the client's browser makes it, keeping the answer's bytes as they came. */
async function download(
  client: ApiClient,
  url: string,
  headers: Record<string, string> = {},
): Promise<Download> {
  const response = await fetch(`${client.portal.url}${url}`, {
    headers: { ...(client.cookie && { Cookie: client.cookie }), ...headers },
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  let body: unknown = null;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    // Bytes, not an envelope.
  }
  return { status: response.status, headers: response.headers, bytes, body };
}

/** The portal's calls to its provider of one operation so far (its own metric, every outcome). */
async function providerCalls(of: InProcessPortal, operation: string): Promise<number> {
  const metric = of.portal.metrics.registry.getSingleMetric('portal_provider_calls_total')!;
  const { values } = await metric.get();
  return values
    .filter((value) => value.labels.operation === operation)
    .reduce((sum, value) => sum + value.value, 0);
}

async function listOf(client: ApiClient, receiptId: number) {
  const response = await client.get(`/api/receipts/${receiptId}/attachments`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as {
    success: true;
    data: Array<Record<string, any>>;
    meta: { checkedAt: string; stale: boolean };
  };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const storedFiles = async (of: InProcessPortal) =>
  (await readdir(path.join(of.dir, 'uploads', 'attachments')).catch(() => [] as string[])).sort();
const sandboxFile = async (receiptId: number, index: number) => {
  const listed = await portal.portal.sandbox!.attachments.list(
    portal.portal.sandbox!.store(),
    receiptId,
  );
  return portal.portal.sandbox!.attachments.file(
    portal.portal.sandbox!.store(),
    listed![index]!.id,
  );
};

/** Own receipts for each test, so that one test's fetches are not another's. */
const pick = (() => {
  const taken = new Set<number>();
  return (from: Array<Record<string, any>>, matches: (receipt: Record<string, any>) => boolean) => {
    const found = from.find((receipt) => !taken.has(receipt.id) && matches(receipt));
    if (!found) throw new Error('no such receipt in the sandbox');
    taken.add(found.id);
    return found;
  };
})();
const delivered = (receipt: Record<string, any>) =>
  receipt.status === 'Delivered' && receipt.commodities.length >= 2;
const withPackages = (receipt: Record<string, any>) => receipt.commodities.length >= 1;

beforeAll(async () => {
  portal = await startInProcessPortal({
    SANDBOX_RECEIPTS: '160',
    SYNC_INTERVAL_SECONDS: '3600',
    DEMO_USERS: 'true',
    DEMO_PASSWORD,
    SANDBOX_CONTROL: 'true',
  });
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  demo = await signIn(portal, { username: 'demo', password: DEMO_PASSWORD });
  own = await allReceipts(demo);
  const ownIds = new Set(own.map((receipt) => receipt.id));
  others = (await allReceipts(admin)).filter((receipt) => !ownIds.has(receipt.id));
});

afterAll(async () => {
  await portal?.stop();
});

describe('the list', () => {
  it("mirrors the provider's list when the receipt is opened: a photo per package with its previews, and the proof of delivery", async () => {
    const receipt = pick(own, delivered);
    const calls = await providerCalls(portal, 'list-attachments');
    const { data, meta } = await listOf(demo, receipt.id);
    expect(await providerCalls(portal, 'list-attachments')).toBe(calls + 1);
    expect(meta.stale).toBe(false);
    const listed = (await portal.portal.sandbox!.attachments.list(
      portal.portal.sandbox!.store(),
      receipt.id,
    ))!;
    expect(data).toHaveLength(receipt.commodities.length + 1);
    for (const [index, attachment] of data.entries()) {
      expect(Object.keys(attachment).sort()).toEqual(SUMMARY_FIELDS);
      const url = `/api/attachments/${attachment.id}`;
      expect(attachment).toMatchObject({
        fileName: listed[index]!.fileName,
        contentType: listed[index]!.contentType,
        size: listed[index]!.size,
        url,
      });
    }
    const photos = data.slice(0, -1);
    for (const photo of photos) {
      expect(photo).toMatchObject({
        kind: 'photo',
        contentType: 'image/jpeg',
        thumbnailUrl: `${photo.url}?size=thumb`,
        largeUrl: `${photo.url}?size=large`,
      });
    }
    expect(data.at(-1)).toMatchObject({
      kind: 'pod',
      contentType: 'application/pdf',
      fileName: `${receipt.number}-proof-of-delivery.pdf`,
      thumbnailUrl: null,
      largeUrl: null,
    });
    const rows = await queryDatabase<{ receiptId: number; providerId: string }>(
      portal,
      'SELECT receiptId, providerId FROM receipt_attachments WHERE receiptId = ? ORDER BY position',
      [receipt.id],
    );
    expect(rows.map((row) => row.providerId)).toEqual(listed.map((attachment) => attachment.id));
  });

  it('answers again from the mirror; asks the provider once the list aged or the receipt changed, keeping the ids', async () => {
    const receipt = pick(own, withPackages);
    const first = await listOf(demo, receipt.id);
    const calls = await providerCalls(portal, 'list-attachments');
    expect((await listOf(demo, receipt.id)).data).toEqual(first.data);
    expect(await providerCalls(portal, 'list-attachments')).toBe(calls);

    portal.clock.advance(ATTACHMENT_LIST_MAX_AGE_MS + 1000);
    const aged = await listOf(demo, receipt.id);
    expect(await providerCalls(portal, 'list-attachments')).toBe(calls + 1);
    expect(aged.data).toEqual(first.data);
    expect(Date.parse(aged.meta.checkedAt)).toBeGreaterThan(Date.parse(first.meta.checkedAt));

    // A sync brought a newer version of the receipt.
    const [stored] = await queryDatabase<{ providerUpdatedAt: string }>(
      portal,
      'SELECT providerUpdatedAt FROM receipts WHERE id = ?',
      [receipt.id],
    );
    const newer = new Date(new Date(stored!.providerUpdatedAt).getTime() + 60_000);
    expect(
      await writeDatabase(portal, 'UPDATE receipts SET providerUpdatedAt = ? WHERE id = ?', [
        databaseDate(newer),
        receipt.id,
      ]),
    ).toBe(1);
    expect((await listOf(demo, receipt.id)).data).toEqual(first.data);
    expect(await providerCalls(portal, 'list-attachments')).toBe(calls + 2);
    expect((await listOf(demo, receipt.id)).data).toEqual(first.data);
    expect(await providerCalls(portal, 'list-attachments')).toBe(calls + 2);
  });

  it('asks the provider once for a receipt many open at the same moment', async () => {
    const receipt = pick(own, withPackages);
    const calls = await providerCalls(portal, 'list-attachments');
    const answers = await Promise.all(Array.from({ length: 5 }, () => listOf(demo, receipt.id)));
    expect(await providerCalls(portal, 'list-attachments')).toBe(calls + 1);
    for (const answer of answers) expect(answer.data).toEqual(answers[0]!.data);
  });

  it('shows an empty list for a receipt without packages that is not delivered', async () => {
    const receipt = pick(
      [...own, ...others],
      (candidate) => candidate.commodities.length === 0 && candidate.status !== 'Delivered',
    );
    expect((await listOf(admin, receipt.id)).data).toEqual([]);
  });
});

describe('the files', () => {
  it('fetches a photo once, on its first view, and keeps it in UPLOADS_DIR: the thumbnail, the larger view and the original come from there', async () => {
    const receipt = pick(own, withPackages);
    const [photo] = (await listOf(demo, receipt.id)).data;
    const before = await storedFiles(portal);
    const calls = await providerCalls(portal, 'get-attachment');

    const thumb = await download(demo, photo!.thumbnailUrl);
    expect(thumb.status, thumb.bytes.toString().slice(0, 300)).toBe(200);
    expect(await providerCalls(portal, 'get-attachment')).toBe(calls + 1);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect(thumb.headers.get('x-content-type-options')).toBe('nosniff');
    expect(thumb.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(thumb.headers.get('content-disposition')).toMatch(
      /^inline; filename="WR-\d+-package-1-thumb\.webp"/,
    );
    expect(thumb.headers.get('etag')).toMatch(/^"[0-9a-f]{32}-thumb"$/);
    expect(Number(thumb.headers.get('content-length'))).toBe(thumb.bytes.length);
    expect(thumb.bytes.length).toBeLessThanOrEqual(15 * 1024);
    expect(await sharp(thumb.bytes).metadata()).toMatchObject({
      format: 'webp',
      width: 320,
      height: 240,
    });
    const added = (await storedFiles(portal)).filter((name) => !before.includes(name));
    expect(added).toEqual([
      expect.stringMatching(/^[0-9a-f]{32}-large\.webp$/),
      expect.stringMatching(/^[0-9a-f]{32}-thumb\.webp$/),
      expect.stringMatching(/^[0-9a-f]{32}\.jpg$/),
    ]);

    const large = await download(demo, photo!.largeUrl);
    expect(large.status).toBe(200);
    expect(await sharp(large.bytes).metadata()).toMatchObject({
      format: 'webp',
      width: 1280,
      height: 960,
    });
    expect((await sharp(large.bytes).metadata()).exif).toBeUndefined();

    const original = await download(demo, photo!.url);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('image/jpeg');
    expect(original.headers.get('content-disposition')).toMatch(
      /^inline; filename="WR-\d+-package-1\.jpg"/,
    );
    expect(sha256(original.bytes)).toBe(sha256((await sandboxFile(receipt.id, 0))!.bytes));
    expect(await providerCalls(portal, 'get-attachment')).toBe(calls + 1);

    // The browser asks whether its copy is still good: it is, and nothing is sent again.
    const again = await download(demo, photo!.thumbnailUrl, {
      'If-None-Match': thumb.headers.get('etag')!,
    });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(await providerCalls(portal, 'get-attachment')).toBe(calls + 1);
  });

  it('fetches a file once for views that come at the same moment', async () => {
    const receipt = pick(own, withPackages);
    const [photo] = (await listOf(demo, receipt.id)).data;
    const calls = await providerCalls(portal, 'get-attachment');
    const views = await Promise.all([
      ...Array.from({ length: 4 }, () => download(demo, photo!.thumbnailUrl)),
      download(admin, photo!.largeUrl),
      download(demo, photo!.url),
    ]);
    expect(views.map((view) => view.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await providerCalls(portal, 'get-attachment')).toBe(calls + 1);
    expect(new Set(views.slice(0, 4).map((view) => sha256(view.bytes))).size).toBe(1);
  });

  it('keeps every thumbnail of a receipt within 15 KB, 320 px wide, WebP', async ({ annotate }) => {
    const receipt = pick(own, (candidate) => candidate.commodities.length >= 3);
    const { data } = await listOf(demo, receipt.id);
    const sizes: number[] = [];
    for (const photo of data.filter((attachment) => attachment.kind === 'photo')) {
      const thumb = await download(demo, photo.thumbnailUrl);
      expect(thumb.status).toBe(200);
      expect(await sharp(thumb.bytes).metadata()).toMatchObject({
        format: 'webp',
        width: 320,
        height: 240,
      });
      sizes.push(thumb.bytes.length);
    }
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(15 * 1024);
    await annotate(
      `thumbnails of ${receipt.number}: ${sizes.map((size) => `${size} B`).join(', ')}`,
    );
  });

  it('sends the proof of delivery as a download under its file name, a PDF', async () => {
    const receipt = pick(own, delivered);
    const pod = (await listOf(demo, receipt.id)).data.find(
      (attachment) => attachment.kind === 'pod',
    )!;
    const file = await download(demo, pod.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="${receipt.number}-proof-of-delivery.pdf"; filename*=UTF-8''${receipt.number}-proof-of-delivery.pdf`,
    );
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(file.bytes.length).toBe(pod.size);
    expectError(
      await download(demo, `${pod.url}?size=thumb`, { 'Accept-Language': 'en' }),
      404,
      'NOT_FOUND',
      'There is no preview of this file: download it instead.',
    );
    expectError(await download(demo, `${pod.url}?size=huge`), 400, 'VALIDATION_ERROR');
  });
});

describe('the receipt page', () => {
  const escapeHtml = (text: string) =>
    text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');

  it('shows the thumbnails, lazily and with their size, each linking to its larger view, and the documents to download, in Dutch too', async () => {
    const receipt = pick(own, delivered);
    const page = await demo.get(`/receipts/${receipt.id}`, {
      headers: { 'Accept-Language': 'en' },
    });
    expect(page.status).toBe(200);
    const html = page.body as string;
    const { data } = await listOf(demo, receipt.id);
    expect(html).toContain('Photos and documents');
    for (const [index, photo] of data
      .filter((attachment) => attachment.kind === 'photo')
      .entries()) {
      const alt = `Package photo ${index + 1} of ${receipt.commodities.length}, receipt ${receipt.number}`;
      expect(html).toMatch(
        new RegExp(
          `<a href="${escapeHtml(photo.largeUrl).replace('?', '\\?')}"[^>]*><img src="${escapeHtml(photo.thumbnailUrl).replace('?', '\\?')}" alt="${alt}" width="160" height="120" loading="lazy"`,
        ),
      );
    }
    const pod = data.find((attachment) => attachment.kind === 'pod')!;
    expect(html).toContain(`href="${pod.url}" download="${pod.fileName}"`);
    expect(html).toContain(`aria-label="Download ${pod.fileName}"`);
    expect(html).toContain('Proof of delivery · ');

    const dutch = await demo.get(`/receipts/${receipt.id}`, {
      headers: { 'Accept-Language': 'nl' },
    });
    expect(dutch.body).toContain('Foto&#39;s en documenten');
    expect(dutch.body).toContain(`aria-label="${pod.fileName} downloaden"`);
    expect(dutch.body).toContain('Afleverbewijs · ');
  });

  it('still shows the receipt, with a clear message in place of its photos and documents, while the provider is down', async () => {
    const receipt = pick(own, withPackages);
    expect((await admin.post('/sandbox/control/outage')).status).toBe(200);
    try {
      const page = await demo.get(`/receipts/${receipt.id}`, {
        headers: { 'Accept-Language': 'en' },
      });
      expect(page.status).toBe(200);
      expect(page.body).toContain(escapeHtml(receipt.number));
      expect(page.body).toContain(
        escapeHtml(
          "Photos and documents can't be loaded right now: the logistics provider can't be reached. Please try again later.",
        ),
      );
    } finally {
      expect((await admin.post('/sandbox/control/recover')).status).toBe(200);
    }
  });
});

describe('scope', () => {
  it("answers a customer 404 for another consignee's receipt and its files, list and bytes alike; the admin sees them", async () => {
    const theirs = pick(others, withPackages);
    expectError(await demo.get(`/api/receipts/${theirs.id}/attachments`), 404, 'NOT_FOUND');
    const { data } = await listOf(admin, theirs.id);
    const [photo] = data;
    for (const url of [photo!.url, photo!.thumbnailUrl, photo!.largeUrl]) {
      expectError(
        await download(demo, url, { 'Accept-Language': 'en' }),
        404,
        'NOT_FOUND',
        'Attachment not found',
      );
      expect((await download(admin, url)).status).toBe(200);
    }
    for (const url of [
      '/api/attachments/999999999',
      '/api/attachments/abc',
      '/api/receipts/999999999/attachments',
    ])
      expectError(await download(demo, url), 404, 'NOT_FOUND');
  });

  it('answers a customer without consignees 404, and anyone signed out 401', async () => {
    const receipt = pick(own, withPackages);
    const [photo] = (await listOf(demo, receipt.id)).data;
    const loner = await signIn(portal, await createUser(admin, 'loner'));
    expectError(await loner.get(`/api/receipts/${receipt.id}/attachments`), 404, 'NOT_FOUND');
    expect((await download(loner, photo!.thumbnailUrl)).status).toBe(404);
    const stranger = new ApiClient(portal);
    expectError(
      await stranger.get(`/api/receipts/${receipt.id}/attachments`),
      401,
      'AUTHENTICATION_ERROR',
    );
    expect((await download(stranger, photo!.thumbnailUrl)).status).toBe(401);
    // Given the consignee, the same customer sees them.
    const consignee = await queryDatabase<{ consigneeId: number }>(
      portal,
      'SELECT consigneeId FROM receipts WHERE id = ?',
      [receipt.id],
    );
    await assignConsignees(admin, (await loner.get('/api/auth/profile')).body.data.user.id, [
      Number(consignee[0]!.consigneeId),
    ]);
    expect((await download(loner, photo!.thumbnailUrl)).status).toBe(200);
  });

  it('never shows attachments on a share link', async () => {
    const receipt = pick(own, delivered);
    const { data } = await listOf(demo, receipt.id);
    const link = (await demo.post(`/api/receipts/${receipt.id}/share`)).body.data as {
      url: string;
    };
    const page = await new ApiClient(portal).get(new URL(link.url).pathname, {
      headers: { 'Accept-Language': 'en' },
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Shipment status');
    for (const text of [
      '/api/attachments',
      'Photos and documents',
      ...data.map((attachment) => attachment.fileName),
    ])
      expect(page.body).not.toContain(text);
  });
});

describe('a provider outage', () => {
  it('still shows what was fetched before, list and bytes; what never was says why, without a 500', async () => {
    const receipt = pick(own, (candidate) => candidate.commodities.length >= 2);
    const neverListed = pick(own, withPackages);
    const { data } = await listOf(demo, receipt.id);
    const [seen, unseen] = data;
    expect((await download(demo, seen!.thumbnailUrl)).status).toBe(200);
    const original = await download(demo, seen!.url);

    expect((await admin.post('/sandbox/control/outage')).status).toBe(200);
    try {
      portal.clock.advance(ATTACHMENT_LIST_MAX_AGE_MS + 1000);
      const stale = await demo.get(`/api/receipts/${receipt.id}/attachments`, {
        headers: { 'Accept-Language': 'en' },
      });
      expect(stale.status).toBe(200);
      expect(stale.body.data).toEqual(data);
      expect(stale.body.meta.stale).toBe(true);
      expect((await download(demo, seen!.thumbnailUrl)).status).toBe(200);
      expect((await download(demo, seen!.largeUrl)).status).toBe(200);
      expect(sha256((await download(demo, seen!.url)).bytes)).toBe(sha256(original.bytes));

      const notFetched = await download(demo, unseen!.thumbnailUrl, { 'Accept-Language': 'en' });
      expectError(
        notFetched,
        503,
        'EXTERNAL_API_ERROR',
        "This file hasn't been fetched yet, and the logistics provider can't be reached right now. Please try again later.",
      );
      expect(notFetched.headers.get('retry-after')).toBe('60');
      expectError(
        await demo.get(`/api/receipts/${neverListed.id}/attachments`, {
          headers: { 'Accept-Language': 'nl' },
        }),
        503,
        'EXTERNAL_API_ERROR',
        "Foto's en documenten kunnen nu niet worden geladen: het logistieke systeem is niet bereikbaar. Probeer het later opnieuw.",
      );
    } finally {
      expect((await admin.post('/sandbox/control/recover')).status).toBe(200);
    }
    expect((await download(demo, unseen!.thumbnailUrl)).status).toBe(200);
    expect((await listOf(demo, neverListed.id)).meta.stale).toBe(false);
  });
});

describe('housekeeping', () => {
  it("removes the attachments of a receipt the mirror no longer has, rows and files; others' stay", async () => {
    const [gone, kept] = [pick(own, withPackages), pick(own, withPackages)];
    for (const receipt of [gone, kept]) {
      const [photo] = (await listOf(demo, receipt.id)).data;
      expect((await download(demo, photo!.thumbnailUrl)).status).toBe(200);
    }
    const before = await storedFiles(portal);
    const rowsOf = (receiptId: number) =>
      queryDatabase(portal, 'SELECT id FROM receipt_attachments WHERE receiptId = ?', [receiptId]);
    const keptRows = await rowsOf(kept.id);
    // As a full sync does with a receipt the provider deleted.
    await writeDatabase(portal, 'DELETE FROM packages WHERE receiptId = ?', [gone.id]);
    await writeDatabase(portal, 'DELETE FROM receipts WHERE id = ?', [gone.id]);
    await portal.portal.keepHouse();
    expect(await rowsOf(gone.id)).toEqual([]);
    expect(
      await queryDatabase(
        portal,
        'SELECT receiptId FROM receipt_attachment_lists WHERE receiptId = ?',
        [gone.id],
      ),
    ).toEqual([]);
    expect(await rowsOf(kept.id)).toEqual(keptRows);
    const after = await storedFiles(portal);
    expect(before.length - after.length).toBe(3);
    expect(after.every((name) => before.includes(name))).toBe(true);
  });

  it('removes the file of a first view that records it while the receipt’s attachments are being removed, on PostgreSQL too', async () => {
    const gone = pick(own, withPackages);
    const [photo] = (await listOf(demo, gone.id)).data;
    await writeDatabase(portal, 'DELETE FROM packages WHERE receiptId = ?', [gone.id]);
    await writeDatabase(portal, 'DELETE FROM receipts WHERE id = ?', [gone.id]);
    // A first view has stored its file and records it in a transaction not yet committed when housekeeping starts.
    const late = 'late-first-view.jpg';
    await writeFile(path.join(portal.dir, 'uploads', 'attachments', late), 'bytes');
    const held = await holdTransaction(portal, async (transaction) => {
      await portal.portal.db.models.ReceiptAttachment.update(
        { storedName: late },
        { where: { id: photo!.id }, transaction },
      );
    });
    const housekeeping = portal.portal.keepHouse();
    await held.untilBlocked(1, [housekeeping]);
    await held.release();
    await housekeeping;
    expect(
      await queryDatabase(portal, 'SELECT id FROM receipt_attachments WHERE receiptId = ?', [
        gone.id,
      ]),
    ).toEqual([]);
    expect(await storedFiles(portal)).not.toContain(late);
  });
});

describe('a failing disk', () => {
  it('closes the file when its size cannot be read', async () => {
    const receipt = pick(own, withPackages);
    const [photo] = (await listOf(demo, receipt.id)).data;
    expect((await download(demo, photo!.url)).status).toBe(200);
    const probe = await open(import.meta.filename);
    const handles = Object.getPrototypeOf(probe) as { stat(): Promise<unknown> };
    await probe.close();
    const stat = vi
      .spyOn(handles, 'stat')
      .mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, fstat'), { code: 'EIO' }));
    try {
      expect((await download(demo, photo!.url)).status).toBe(500);
      // A closed handle has no descriptor any more.
      expect((stat.mock.contexts[0] as { fd: number }).fd).toBe(-1);
    } finally {
      stat.mockRestore();
    }
  });
});

describe('a third-party provider', () => {
  let server: OidcServer;
  let other: InProcessPortal;
  let otherAdmin: ApiClient;
  const CLIENT_SECRET = 'attachments-client-secret';
  const receiptBase = {
    number: 'WR-7001',
    receivedDate: '2026-11-18T15:20:00.000Z',
    shipperName: 'Amazon.com Services LLC',
    consigneeId: 501,
    consigneeName: 'Paramaribo Trading N.V.',
    pieces: 1,
    totalWeightValue: 2,
    totalVolumeValue: 0.2,
    destination: 'Paramaribo, Suriname',
    status: 'Received at MIA warehouse',
    modeOfTransportation: '40 - Air',
    origin: { name: 'Miami, FL' },
    commodities: [],
    updatedAt: '2026-11-18T15:20:00.000Z',
  };
  const file = (
    id: string,
    kind: string,
    fileName: string,
    contentType: string,
    bytes: Buffer,
    chunked = false,
  ): OidcAttachment => ({
    listed: {
      id,
      kind,
      fileName,
      contentType,
      size: bytes.length,
      createdAt: '2026-11-18T15:30:00.000Z',
    },
    bytes,
    chunked,
  });

  const understated = (attachment: OidcAttachment): OidcAttachment => ({
    ...attachment,
    listed: { ...attachment.listed, size: 1_000 },
  });

  beforeAll(async () => {
    const photo = await cameraPhoto({ width: 3000, height: 2000, orientation: 6 });
    const huge = Buffer.alloc(20 * 1024 * 1024 + 1, 7);
    ({ server, portal: other } = await startPortalAtOidcServer(
      {
        clientSecret: CLIENT_SECRET,
        accessTokenSeconds: 3600,
        data: {
          consignees: [{ id: 501, name: 'Paramaribo Trading N.V.' }],
          receipts: [
            { ...receiptBase, id: 7001 },
            { ...receiptBase, id: 7002, number: 'WR-7002' },
          ],
          attachments: {
            7001: [
              file('camera', 'photo', 'IMG_2041.JPG', 'image/jpeg', photo),
              file('bomb', 'photo', 'bomb.png', 'image/png', await largePng(15_000, 15_000)),
              file('huge', 'invoice', 'huge.pdf', 'application/pdf', huge),
              // Listed as smaller than they are: one says its length as it is sent, the other does not.
              understated(
                file('huge-chunked', 'other', 'huge.bin', 'application/octet-stream', huge, true),
              ),
              file(
                'html',
                'scan',
                '../../etc/in\u0007voice.html',
                'TEXT/HTML',
                Buffer.from('<!doctype html><script>alert(1)</script>'),
              ),
              understated(
                file('huge-declared', 'invoice', 'declared.pdf', 'application/pdf', huge),
              ),
            ],
          },
        },
      },
      {},
      // A view waits 3 s for a list here, not 10 s: one test holds the provider's lists back.
      { background: false, attachmentListWaitMs: 3_000 },
    ));
    otherAdmin = await signedInAdmin(other);
    await connectAtServer(other, otherAdmin);
    expect((await otherAdmin.post('/api/sync')).status).toBe(200);
  }, stallLimit(120_000));

  afterAll(async () => {
    await other?.stop();
    await server?.stop();
  });

  it('shows no attachments for a receipt its provider lists none for (its list is a 404)', async () => {
    expect((await listOf(otherAdmin, 7002)).data).toEqual([]);
  });

  it("turns a camera's photo upright into previews without its metadata, and keeps unknown kinds and odd names safe", async ({
    annotate,
  }) => {
    const { data } = await listOf(otherAdmin, 7001);
    expect(
      data.map((attachment) => [attachment.kind, attachment.fileName, attachment.contentType]),
    ).toEqual([
      ['photo', 'IMG_2041.JPG', 'image/jpeg'],
      ['photo', 'bomb.png', 'image/png'],
      ['invoice', 'huge.pdf', 'application/pdf'],
      ['other', 'huge.bin', 'application/octet-stream'],
      ['other', 'invoice.html', 'text/html'],
      ['invoice', 'declared.pdf', 'application/pdf'],
    ]);
    const thumb = await download(otherAdmin, data[0]!.thumbnailUrl);
    expect(thumb.status).toBe(200);
    expect(thumb.bytes.length).toBeLessThanOrEqual(15 * 1024);
    const metadata = await sharp(thumb.bytes).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 213, height: 320 });
    expect(metadata.exif).toBeUndefined();
    await annotate(`a noisy 3000 × 2000 camera photo's thumbnail: ${thumb.bytes.length} B`);

    const page = await download(otherAdmin, data[4]!.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('application/octet-stream');
    expect(page.headers.get('content-disposition')).toMatch(
      /^attachment; filename="invoice\.html"/,
    );
  });

  it('offers a decompression bomb sent as a photo as a download, never decoded', async () => {
    const { data } = await listOf(otherAdmin, 7001);
    const bomb = data[1]!;
    expectError(await download(otherAdmin, bomb.thumbnailUrl), 404, 'NOT_FOUND');
    const original = await download(otherAdmin, bomb.url);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect((await listOf(otherAdmin, 7001)).data[1]).toMatchObject({
      thumbnailUrl: null,
      largeUrl: null,
    });
  });

  it('answers without waiting for a provider that holds its list back: with the list it had, or saying why; the receipt page shows the rest; the list comes in afterwards', async () => {
    server.changeReceipts([{ ...receiptBase, id: 7003, number: 'WR-7003' }]);
    expect((await otherAdmin.post('/api/sync')).status).toBe(200);
    const before = await listOf(otherAdmin, 7001);
    const callsBefore = await providerCalls(other, 'list-attachments');
    const release = server.holdAttachmentLists();
    try {
      other.clock.advance(ATTACHMENT_LIST_MAX_AGE_MS + 1000);
      // Each waits the portal's time for a list (3 s here), not the provider's 30 s; at once, as three people would.
      const [listed, neverListed, page] = await Promise.all([
        otherAdmin.get('/api/receipts/7001/attachments'),
        otherAdmin.get('/api/receipts/7003/attachments', { headers: { 'Accept-Language': 'nl' } }),
        download(otherAdmin, '/receipts/7003', { 'Accept-Language': 'en' }),
      ]);
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual(before.data);
      expect(listed.body.meta.stale).toBe(true);
      expectError(
        neverListed,
        503,
        'EXTERNAL_API_ERROR',
        "Foto's en documenten kunnen nu niet worden geladen: het logistieke systeem is niet bereikbaar. Probeer het later opnieuw.",
      );
      expect(page.status).toBe(200);
      const html = page.bytes.toString('utf8');
      expect(html).toContain('WR-7003');
      expect(html).toContain('Photos and documents can&#39;t be loaded right now');
    } finally {
      release();
    }
    // The two lists asked for meanwhile arrive after the answers and are kept: the next views ask the provider nothing.
    await eventually(
      () => providerCalls(other, 'list-attachments'),
      (calls) => calls === callsBefore + 2,
    );
    expect(await listOf(otherAdmin, 7003)).toMatchObject({ data: [], meta: { stale: false } });
    expect((await listOf(otherAdmin, 7001)).meta.stale).toBe(false);
    expect(await providerCalls(other, 'list-attachments')).toBe(callsBefore + 2);
  });

  it('refuses a file over 20 MB, whether its list, its length or only its bytes say so, and keeps nothing of it', async () => {
    const { data } = await listOf(otherAdmin, 7001);
    const refused = (attachment: Record<string, any>) =>
      download(otherAdmin, attachment.url, { 'Accept-Language': 'en' }).then((answer) =>
        expectError(
          answer,
          502,
          'EXTERNAL_API_ERROR',
          'The file is larger than 20MB, more than the portal accepts.',
        ),
      );
    // Listed as over 20 MB: refused without asking the provider for it.
    const downloads = await providerCalls(other, 'get-attachment');
    await refused(data[2]!);
    expect(await providerCalls(other, 'get-attachment')).toBe(downloads);
    // Listed as less: refused by the length it is sent with, or as its bytes pass 20 MB.
    await refused(data[5]!);
    await refused(data[3]!);
    expect(await providerCalls(other, 'get-attachment')).toBe(downloads + 2);
    expect((await storedFiles(other)).filter((name) => name.startsWith('.incoming'))).toEqual([]);
    expect(
      await queryDatabase(
        other,
        'SELECT storedName FROM receipt_attachments WHERE providerId IN (?, ?, ?)',
        ['huge', 'huge-chunked', 'huge-declared'],
      ),
    ).toEqual([{ storedName: null }, { storedName: null }, { storedName: null }]);
  });
});
