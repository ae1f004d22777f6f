/**
 * Pre-alerts, on both databases: a customer announces a package for one of their consignees (JSON, or
 * a multipart form with the invoice, checked by its bytes), within the shared rules and their scope; the
 * portal tells the sandbox provider through the outbox, the sandbox's warehouse receives the package in
 * a later change window, and the next sync links the pre-alert to that receipt and tells the customers
 * in their digest (real SMTP). The admin sees the stale pre-alerts and the receipts that came without
 * one, and matches or unmatches by hand, audited, within the same consignee rule. A provider outage
 * delays the forwarding and loses nothing.
 */
import { open, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../support/api-client';
import {
  assignConsignees,
  createUser,
  eventually,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  waitForMirror,
} from '../../support/api-steps';
import { pngImage } from '../../support/images';
import { holdRowLock } from '../../support/held-transaction';
import {
  startInProcessPortal,
  startSyncEnded,
  type InProcessPortal,
} from '../../support/in-process';
import { matchArrivedPackages } from '~/server/services/prealerts';
import {
  download,
  pdfFile,
  programPretendingToBePdf,
  sendPrealertForm,
  uniqueTrackingNumber,
  validPrealert,
} from '../../support/prealert-steps';
import { control } from '../../support/sandbox-steps';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp-server';
import { stallLimit } from '../../support/test-pace';

const DEMO_PASSWORD = 'demo-password-1';
const DAY_MS = 86_400_000;

let portal: InProcessPortal;
let smtp: TestSmtpServer;
let admin: ApiClient;
let demo: ApiClient;
let demoConsigneeIds: number[];
let other: ApiClient;
let otherUser: { username: string; password: string };
let otherConsigneeId: number;

const invoiceDir = () => path.join(portal.dir, 'uploads', 'prealerts');
const filesInInvoiceDir = async () =>
  (await readdir(invoiceDir()).catch(() => [] as string[])).sort();
const prealertCount = async () =>
  Number(
    (await queryDatabase<{ count: number }>(portal, 'SELECT COUNT(*) AS count FROM prealerts'))[0]!
      .count,
  );

async function create(client: ApiClient, fields: Record<string, string | number | boolean>) {
  const response = await client.post('/api/prealerts', fields);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as Record<string, any>;
}

/** The jobs of the provider's forwarding, newest last. */
const forwardJobs = () =>
  queryDatabase<{
    id: number;
    payload: string;
    attempts: number;
    doneAt: string | null;
    failedAt: string | null;
    lastError: string | null;
    orderingKey: string | null;
  }>(
    portal,
    "SELECT id, payload, attempts, doneAt, failedAt, lastError, orderingKey FROM outbox_jobs WHERE kind = 'provider.prealert' ORDER BY id",
  );
const jobsOf = async (prealertId: number) =>
  (await forwardJobs()).filter((job) => JSON.parse(job.payload).prealertId === prealertId);

/** The receipts the mirror holds with a package of this tracking number (as normalised). */
const receiptsWithPackage = async (trackingNumber: string) =>
  (
    await queryDatabase<{ receiptId: number }>(
      portal,
      'SELECT receiptId FROM packages WHERE trackingKey = ?',
      [trackingNumber],
    )
  ).map((row) => Number(row.receiptId));

/** One change window of the sandbox, then a sync: what a portal's schedule does every interval. */
async function nextWindowAndSync(): Promise<{ added: number[] }> {
  const window = await control(portal, 'advance');
  expect(window.status).toBe(200);
  await portal.portal.syncRuns.syncReceipts();
  return window.body;
}

/** Moves the portal's clock, which the sandbox's windows follow too. */
const advanceClock = (ms: number) => portal.clock.advance(ms);

beforeAll(async () => {
  smtp = await startSmtpServer();
  portal = await startInProcessPortal({
    SANDBOX_RECEIPTS: '150',
    SANDBOX_CONTROL: 'true',
    // Syncs and windows only when a test says: one at start, then by hand.
    SYNC_INTERVAL_SECONDS: '3600',
    SANDBOX_CHANGE_SECONDS: '864000',
    DEMO_USERS: 'true',
    DEMO_PASSWORD,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Freight Portal <status@portal.test>',
  });
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  await startSyncEnded(portal);
  demo = await signIn(portal, { username: 'demo', password: DEMO_PASSWORD });
  demoConsigneeIds = (
    await queryDatabase<{ consigneeId: number }>(
      portal,
      'SELECT a.consigneeId FROM consignee_assignments a JOIN users u ON u.id = a.userId WHERE u.username = ? ORDER BY a.consigneeId',
      ['demo'],
    )
  ).map((row) => Number(row.consigneeId));
  const consignees = (await admin.get('/api/consignees')).body.data as Array<{ id: number }>;
  otherConsigneeId = consignees
    .map((consignee) => consignee.id)
    .find((id) => !demoConsigneeIds.includes(id))!;
  const created = await createUser(admin, 'othercustomer');
  otherUser = created;
  await assignConsignees(admin, created.id, [otherConsigneeId]);
  other = await signIn(portal, otherUser);
}, stallLimit(180_000));

afterAll(async () => {
  await portal?.stop();
  await smtp?.stop();
});

describe('creating a pre-alert', () => {
  it('as JSON: 201 with the normalised tracking number, the value in dollars, Expected; stored in cents and told to the provider', async () => {
    const number = uniqueTrackingNumber('1Z');
    const typed = `${number.slice(0, 4).toLowerCase()} ${number.slice(4, 8)}-${number.slice(8)}`;
    const response = await demo.post(
      '/api/prealerts',
      validPrealert(demoConsigneeIds[0]!, { trackingNumber: typed, declaredValue: 19.99 }),
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ success: true, message: 'Pre-alert saved' });
    const prealert = response.body.data;
    expect(prealert).toMatchObject({
      status: 'expected',
      carrier: 'ups',
      trackingNumber: number,
      shipper: 'Amazon.com',
      declaredValue: 19.99,
      consigneeId: demoConsigneeIds[0],
      receiptId: null,
      receiptNumber: null,
      hasInvoice: false,
      invoice: null,
    });
    expect(prealert.consigneeName).not.toBe('');
    const [row] = await queryDatabase<{ declaredValueCents: number; trackingNumber: string }>(
      portal,
      'SELECT declaredValueCents, trackingNumber FROM prealerts WHERE id = ?',
      [prealert.id],
    );
    expect(row).toEqual({ declaredValueCents: 1999, trackingNumber: number });
    await portal.portal.outbox.idle();
    const [job] = await jobsOf(prealert.id);
    expect(job).toMatchObject({ attempts: 0, failedAt: null, lastError: null });
    expect(job!.doneAt).not.toBeNull();
    expect((await demo.get(`/api/prealerts/${prealert.id}`)).body.data).toEqual(prealert);
  });

  it('as a multipart form with a PDF invoice: kept under UPLOADS_DIR and downloaded as an attachment, never sniffed', async () => {
    const invoice = pdfFile('Amazon order 113-55.pdf');
    const response = await sendPrealertForm(
      demo,
      'POST',
      '/api/prealerts',
      validPrealert(demoConsigneeIds[1]!, { declaredValue: '120,50' }),
      invoice,
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const prealert = response.body.data;
    expect(prealert).toMatchObject({
      declaredValue: 120.5,
      hasInvoice: true,
      invoice: {
        fileName: 'Amazon order 113-55.pdf',
        contentType: 'application/pdf',
        size: invoice.bytes.length,
      },
    });
    const [stored] = await queryDatabase<{ invoiceFileName: string }>(
      portal,
      'SELECT invoiceFileName FROM prealerts WHERE id = ?',
      [prealert.id],
    );
    expect(stored!.invoiceFileName).toMatch(/^[0-9a-f]{32}\.pdf$/);
    expect(await readFile(path.join(invoiceDir(), stored!.invoiceFileName))).toEqual(invoice.bytes);

    const file = await download(demo, `/api/prealerts/${prealert.id}/invoice`);
    expect(file.status).toBe(200);
    expect(file.bytes).toEqual(invoice.bytes);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="invoice-${prealert.id}.pdf"; filename*=UTF-8''invoice-${prealert.id}.pdf`,
    );
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('cache-control')).toBe('private, no-store');
  });

  it('takes a PNG invoice too (JPEG and WebP are alike), whatever name it has', async () => {
    const response = await sendPrealertForm(
      demo,
      'POST',
      '/api/prealerts',
      validPrealert(demoConsigneeIds[0]!),
      {
        bytes: pngImage(),
        name: 'scan',
        type: 'application/octet-stream',
      },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.data.invoice).toMatchObject({
      fileName: 'scan',
      contentType: 'image/png',
    });
    expect(
      (await download(demo, `/api/prealerts/${response.body.data.id}/invoice`)).headers.get(
        'content-type',
      ),
    ).toBe('image/png');
  });

  it('when a PDF is uploaded under a name that runs as a program, then it downloads as invoice-<id>.pdf; the name is only shown', async () => {
    const uploaded = pdfFile('invoice.hta');
    const response = await sendPrealertForm(
      demo,
      'POST',
      '/api/prealerts',
      validPrealert(demoConsigneeIds[0]!),
      uploaded,
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const { id } = response.body.data;
    expect(response.body.data.invoice).toMatchObject({
      fileName: 'invoice.hta',
      contentType: 'application/pdf',
    });
    for (const reader of [demo, admin]) {
      const file = await download(reader, `/api/prealerts/${id}/invoice`);
      expect(file.headers.get('content-disposition')).toBe(
        `attachment; filename="invoice-${id}.pdf"; filename*=UTF-8''invoice-${id}.pdf`,
      );
      expect(file.headers.get('content-type')).toBe('application/pdf');
    }
  });

  it('without an invoice in a form (the file input left empty) is a pre-alert without one', async () => {
    const form = new FormData();
    for (const [name, value] of Object.entries(validPrealert(demoConsigneeIds[0]!)))
      form.append(name, String(value));
    form.append('invoice', new Blob([], { type: 'application/octet-stream' }), '');
    const encoded = new Response(form);
    const response = await fetch(`${portal.url}/api/prealerts`, {
      method: 'POST',
      headers: {
        Origin: portal.url,
        Cookie: demo.cookie!,
        'Content-Type': encoded.headers.get('content-type')!,
      },
      body: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(response.status).toBe(201);
    expect((await response.json()).data).toMatchObject({ hasInvoice: false, invoice: null });
  });
});

describe('validation: 400 naming the field, nothing stored, no file left behind', () => {
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['no carrier', { carrier: '' }, 'carrier', 'Choose the carrier'],
    [
      'an unknown carrier',
      { carrier: 'pigeon' },
      'carrier',
      'The carrier must be one of ups, fedex, usps, dhl, amazon, other',
    ],
    [
      'no tracking number',
      { trackingNumber: ' - ' },
      'trackingNumber',
      'Enter the tracking number',
    ],
    [
      'a short tracking number',
      { trackingNumber: '1Z-99' },
      'trackingNumber',
      'A tracking number has at least 8 letters and digits',
    ],
    [
      'a tracking number with other characters',
      { trackingNumber: '1Z999/AA1#01' },
      'trackingNumber',
      'A tracking number has only letters and digits (spaces and dashes are left out)',
    ],
    [
      'a long tracking number',
      { trackingNumber: '1'.repeat(41) },
      'trackingNumber',
      'A tracking number has at most 40 letters and digits',
    ],
    ['no shipper', { shipper: '  ' }, 'shipper', 'Enter the store or shipper'],
    [
      'a long shipper',
      { shipper: 'S'.repeat(101) },
      'shipper',
      'The store or shipper can be at most 100 characters',
    ],
    ['no description', { description: '' }, 'description', 'Describe what is in the package'],
    [
      'a long description',
      { description: 'D'.repeat(301) },
      'description',
      'The description can be at most 300 characters',
    ],
    [
      'a description with a control character',
      { description: 'Shoes\u0000' },
      'description',
      'This text contains characters that cannot be shown; please type it again',
    ],
    ['no value', { declaredValue: '' }, 'declaredValue', 'Enter the declared value in US dollars'],
    [
      'a value of three decimals',
      { declaredValue: 12.345 },
      'declaredValue',
      'The declared value can have at most two decimals (cents), such as 1,299.99',
    ],
    [
      'a value with misplaced thousands separators',
      { declaredValue: '1,23,4.50' },
      'declaredValue',
      'Check the separators: write the declared value as 1,299.00 or 1299.00',
    ],
    [
      'a value of nothing',
      { declaredValue: 0 },
      'declaredValue',
      'The declared value must be more than zero',
    ],
    [
      'a value too large',
      { declaredValue: 1_000_000 },
      'declaredValue',
      'The declared value can be at most $999,999.99',
    ],
    ['no consignee', { consigneeId: '' }, 'consigneeId', 'Choose the consignee'],
    [
      'an unknown consignee',
      { consigneeId: 987654 },
      'consigneeId',
      'Choose one of your own consignees',
    ],
  ];

  it.each(cases)('%s', async (_name, change, field, message) => {
    const before = await prealertCount();
    const response = await demo.post(
      '/api/prealerts',
      validPrealert(demoConsigneeIds[0]!, change as Record<string, string | number>),
    );
    expectError(response, 400, 'VALIDATION_ERROR', message);
    expect(response.body.details).toContainEqual({ field, message });
    expect(await prealertCount()).toBe(before);
  });

  it("another customer's consignee: the same refusal as an unknown one, nothing stored", async () => {
    const before = await prealertCount();
    const response = await demo.post('/api/prealerts', validPrealert(otherConsigneeId));
    expectError(response, 400, 'VALIDATION_ERROR', 'Choose one of your own consignees');
    expect(response.body.details).toEqual([
      { field: 'consigneeId', message: 'Choose one of your own consignees' },
    ]);
    expect(await prealertCount()).toBe(before);
  });

  it("in the customer's language", async () => {
    const response = await demo.post(
      '/api/prealerts',
      validPrealert(demoConsigneeIds[0]!, { declaredValue: 'veel' }),
      {
        headers: { 'Accept-Language': 'nl' },
      },
    );
    expectError(
      response,
      400,
      'VALIDATION_ERROR',
      'Vul de aangegeven waarde in als bedrag in Amerikaanse dollars, zoals 49,99',
    );
  });

  it('a program named invoice.pdf: refused by its bytes, with the invoice form’s message, no row and no file', async () => {
    const [rows, files] = [await prealertCount(), await filesInInvoiceDir()];
    const response = await sendPrealertForm(
      demo,
      'POST',
      '/api/prealerts',
      validPrealert(demoConsigneeIds[0]!),
      programPretendingToBePdf(),
    );
    expectError(
      response,
      400,
      'VALIDATION_ERROR',
      'The invoice must be a PDF, JPEG, PNG or WebP file',
    );
    expect(await prealertCount()).toBe(rows);
    expect(await filesInInvoiceDir()).toEqual(files);
  });

  it('an invoice over 5 MB: 413, no row and no file', async () => {
    const [rows, files] = [await prealertCount(), await filesInInvoiceDir()];
    const response = await sendPrealertForm(
      demo,
      'POST',
      '/api/prealerts',
      validPrealert(demoConsigneeIds[0]!),
      pdfFile('big.pdf', 5 * 1024 * 1024 + 1),
    );
    expectError(response, 413, 'PAYLOAD_TOO_LARGE', 'The invoice can be at most 5MB');
    expect(await prealertCount()).toBe(rows);
    expect(await filesInInvoiceDir()).toEqual(files);
  });

  it('a good invoice with a bad field, or for a consignee not the customer’s: no row, and the invoice is not kept', async () => {
    const [rows, files] = [await prealertCount(), await filesInInvoiceDir()];
    const badField = await sendPrealertForm(
      demo,
      'POST',
      '/api/prealerts',
      validPrealert(demoConsigneeIds[0]!, { shipper: '' }),
      pdfFile(),
    );
    expectError(badField, 400, 'VALIDATION_ERROR', 'Enter the store or shipper');
    const notTheirs = await sendPrealertForm(
      demo,
      'POST',
      '/api/prealerts',
      validPrealert(otherConsigneeId),
      pdfFile(),
    );
    expectError(notTheirs, 400, 'VALIDATION_ERROR', 'Choose one of your own consignees');
    expect(await prealertCount()).toBe(rows);
    expect(await filesInInvoiceDir()).toEqual(files);
  });

  it('the same package twice for one consignee: 409, and its invoice is not kept', async () => {
    const first = await create(demo, validPrealert(demoConsigneeIds[0]!));
    const files = await filesInInvoiceDir();
    const again = await sendPrealertForm(
      demo,
      'POST',
      '/api/prealerts',
      validPrealert(demoConsigneeIds[0]!, { trackingNumber: first.trackingNumber }),
      pdfFile(),
    );
    expectError(
      again,
      409,
      'CONFLICT',
      `You already pre-alerted the package ${first.trackingNumber} for this consignee`,
    );
    expect(await filesInInvoiceDir()).toEqual(files);
  });
});

describe('scope', () => {
  it("a customer lists, reads and downloads only their own consignees' pre-alerts; others' ids answer 404", async () => {
    const theirs = (
      await sendPrealertForm(
        demo,
        'POST',
        '/api/prealerts',
        validPrealert(demoConsigneeIds[2]!),
        pdfFile(),
      )
    ).body.data;
    const own = await create(other, validPrealert(otherConsigneeId));
    const listed = await other.get('/api/prealerts?limit=100');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((prealert: any) => prealert.id)).toEqual([own.id]);
    expect(listed.body.pagination).toMatchObject({
      currentPage: 1,
      itemsPerPage: 100,
      totalItems: 1,
      totalPages: 1,
    });
    expectError(
      await other.get(`/api/prealerts/${theirs.id}`),
      404,
      'NOT_FOUND',
      'Pre-alert not found',
    );
    expectError(
      await other.get(`/api/prealerts/${theirs.id}/invoice`),
      404,
      'NOT_FOUND',
      'Pre-alert not found',
    );
    expectError(
      await other.put(`/api/prealerts/${theirs.id}`, validPrealert(otherConsigneeId)),
      404,
      'NOT_FOUND',
    );
    expectError(await other.delete(`/api/prealerts/${theirs.id}`), 404, 'NOT_FOUND');
    expect((await demo.get(`/api/prealerts/${theirs.id}`)).status).toBe(200);
    const demoIds = (await demo.get('/api/prealerts?limit=100')).body.data.map(
      (prealert: any) => prealert.consigneeId,
    );
    expect(new Set(demoIds)).toEqual(
      new Set(demoConsigneeIds.filter((id) => demoIds.includes(id))),
    );
    expect(demoIds).not.toContain(otherConsigneeId);
  });

  it('staff read every pre-alert and its invoice but make none; nobody signed out does anything', async () => {
    const theirs = (
      await sendPrealertForm(
        demo,
        'POST',
        '/api/prealerts',
        validPrealert(demoConsigneeIds[0]!),
        pdfFile(),
      )
    ).body.data;
    expect((await admin.get(`/api/prealerts/${theirs.id}`)).status).toBe(200);
    expect((await download(admin, `/api/prealerts/${theirs.id}/invoice`)).status).toBe(200);
    expectError(
      await admin.post('/api/prealerts', validPrealert(demoConsigneeIds[0]!)),
      403,
      'FORBIDDEN',
      'Pre-alerts are made by customers, for their own consignees',
    );
    expectError(await admin.delete(`/api/prealerts/${theirs.id}`), 403, 'FORBIDDEN');
    const anonymous = new ApiClient(portal);
    expectError(await anonymous.get('/api/prealerts'), 401, 'AUTHENTICATION_ERROR');
    expectError(
      await anonymous.get(`/api/prealerts/${theirs.id}/invoice`),
      401,
      'AUTHENTICATION_ERROR',
    );
    expectError(
      await anonymous.post('/api/prealerts', validPrealert(demoConsigneeIds[0]!)),
      401,
      'AUTHENTICATION_ERROR',
    );
  });

  it('a customer no longer assigned to a consignee no longer sees its pre-alerts', async () => {
    const leaver = await createUser(admin, 'prealertleaver');
    await assignConsignees(admin, leaver.id, [demoConsigneeIds[0]!]);
    const client = await signIn(portal, leaver);
    const made = await create(client, validPrealert(demoConsigneeIds[0]!));
    expect((await client.get(`/api/prealerts/${made.id}`)).status).toBe(200);
    expect(
      (await admin.delete(`/api/consignees/${demoConsigneeIds[0]}/remove-user/${leaver.id}`))
        .status,
    ).toBe(200);
    expectError(await client.get(`/api/prealerts/${made.id}`), 404, 'NOT_FOUND');
    // The pre-alert is the consignee's: its other customers still see it.
    expect((await demo.get(`/api/prealerts/${made.id}`)).status).toBe(200);
  });
});

describe('editing and deleting while Expected', () => {
  it('changes every field as sent and keeps the invoice; a new invoice replaces the file; removeInvoice drops it', async () => {
    const made = (
      await sendPrealertForm(
        demo,
        'POST',
        '/api/prealerts',
        validPrealert(demoConsigneeIds[0]!),
        pdfFile('first.pdf'),
      )
    ).body.data;
    const [{ invoiceFileName: firstFile }] = (await queryDatabase<{ invoiceFileName: string }>(
      portal,
      'SELECT invoiceFileName FROM prealerts WHERE id = ?',
      [made.id],
    )) as [{ invoiceFileName: string }];
    const changed = await demo.put(
      `/api/prealerts/${made.id}`,
      validPrealert(demoConsigneeIds[1]!, {
        carrier: 'fedex',
        description: 'Two pairs of shoes',
        declaredValue: '75',
      }),
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      message: 'Pre-alert updated',
      data: {
        carrier: 'fedex',
        consigneeId: demoConsigneeIds[1],
        declaredValue: 75,
        hasInvoice: true,
      },
    });
    expect(changed.body.data.invoice.fileName).toBe('first.pdf');

    const replaced = await sendPrealertForm(
      demo,
      'PUT',
      `/api/prealerts/${made.id}`,
      validPrealert(demoConsigneeIds[1]!),
      {
        bytes: pngImage(),
        name: 'second.png',
        type: 'image/png',
      },
    );
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.data.invoice).toMatchObject({
      fileName: 'second.png',
      contentType: 'image/png',
    });
    expect(await filesInInvoiceDir()).not.toContain(firstFile);

    const removed = await demo.put(
      `/api/prealerts/${made.id}`,
      validPrealert(demoConsigneeIds[1]!, { removeInvoice: true }),
    );
    expect(removed.body.data).toMatchObject({ hasInvoice: false, invoice: null });
    expectError(
      await demo.get(`/api/prealerts/${made.id}/invoice`),
      404,
      'NOT_FOUND',
      'This pre-alert has no invoice on file',
    );
    // Each change is told to the provider.
    await portal.portal.outbox.idle();
    expect((await jobsOf(made.id)).length).toBe(4);
  });

  it('deletes one with its invoice; deleting again is a 404', async () => {
    const made = (
      await sendPrealertForm(
        demo,
        'POST',
        '/api/prealerts',
        validPrealert(demoConsigneeIds[0]!),
        pdfFile(),
      )
    ).body.data;
    const files = await filesInInvoiceDir();
    const deleted = await demo.delete(`/api/prealerts/${made.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, data: null, message: 'Pre-alert deleted' });
    expect((await filesInInvoiceDir()).length).toBe(files.length - 1);
    expectError(await demo.get(`/api/prealerts/${made.id}`), 404, 'NOT_FOUND');
    expectError(await demo.delete(`/api/prealerts/${made.id}`), 404, 'NOT_FOUND');
  });
});

/** A receipt of `consigneeId` with a tracked package, from the mirror. */
async function trackedReceiptOf(
  consigneeId: number,
): Promise<{ id: number; number: string; trackingNumber: string }> {
  const [row] = await queryDatabase<{ id: number; number: string; trackingNumber: string }>(
    portal,
    `SELECT r.id, r.number, p.trackingNumber FROM receipts r JOIN packages p ON p.receiptId = r.id
      WHERE r.consigneeId = ? AND p.trackingNumber IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM prealerts a WHERE a.trackingNumber = p.trackingKey)
      ORDER BY r.id LIMIT 1`,
    [consigneeId],
  );
  return { ...row!, id: Number(row!.id) };
}

describe('matching', () => {
  let englishMail: TestSmtpServer['messages'];
  const to = (mail: ParsedMail) =>
    (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address;

  beforeAll(async () => {
    englishMail = [];
    for (const [name, locale] of [
      ['arrivalen', 'en'],
      ['arrivalnl', 'nl'],
    ] as const) {
      const user = await createUser(admin, name);
      await assignConsignees(admin, user.id, demoConsigneeIds);
      const client = await signIn(portal, user);
      expect(
        (await client.put('/api/auth/profile/preferences', { locale, statusEmails: true })).status,
      ).toBe(200);
    }
  });

  it('forwards a new pre-alert to the provider; a window later its warehouse receives the package, and the next sync links them and tells the customers', async () => {
    const prealert = (
      await sendPrealertForm(
        demo,
        'POST',
        '/api/prealerts',
        validPrealert(demoConsigneeIds[0]!, { shipper: 'Best Buy' }),
        pdfFile(),
      )
    ).body.data;
    await portal.portal.outbox.idle();
    expect((await jobsOf(prealert.id))[0]!.doneAt).not.toBeNull();
    const mailsBefore = smtp.messages.length;

    const { added } = await nextWindowAndSync();
    const [receiptId] = await receiptsWithPackage(prealert.trackingNumber);
    expect(added).toContain(receiptId);
    const received = (await demo.get(`/api/prealerts/${prealert.id}`)).body.data;
    expect(received).toMatchObject({
      status: 'received',
      receiptId,
      receiptNumber: `WR-${receiptId}`,
    });
    expect(received.matchedAt).not.toBeNull();

    // The receipt shows the pre-alert, with its invoice; the package's number came as a label prints it.
    const receipt = (await demo.get(`/api/receipts/${receiptId}`)).body.data;
    expect(receipt.commodities[0].trackingNumber).toContain(' ');
    expect(receipt.prealerts).toEqual([
      {
        id: prealert.id,
        carrier: 'ups',
        trackingNumber: prealert.trackingNumber,
        shipper: 'Best Buy',
        description: prealert.description,
        declaredValue: 49.99,
        hasInvoice: true,
        invoice: prealert.invoice,
      },
    ]);

    const mails = await eventually(
      () =>
        smtp.messages
          .slice(mailsBefore)
          .filter((mail) => mail.text?.includes(prealert.trackingNumber)),
      (found) => found.length === 2,
    );
    englishMail = mails.filter((mail) => to(mail) === 'arrivalen@example.com');
    const dutch = mails.find((mail) => to(mail) === 'arrivalnl@example.com')!;
    expect(englishMail[0]!.text).toContain(
      'These pre-alerted packages arrived at the Miami warehouse:',
    );
    expect(englishMail[0]!.text).toContain(
      `Package ${prealert.trackingNumber} from Best Buy: receipt WR-${receiptId}`,
    );
    expect(englishMail[0]!.text).toContain(`/receipts/${receiptId}?lang=en`);
    expect(dutch.text).toContain(
      'Deze vooraangemelde pakketten zijn aangekomen in het magazijn in Miami:',
    );
    expect(dutch.text).toContain(
      `Pakket ${prealert.trackingNumber} van Best Buy: ontvangstbewijs WR-${receiptId}`,
    );

    // Received: no longer changed or deleted.
    expectError(
      await demo.put(`/api/prealerts/${prealert.id}`, validPrealert(demoConsigneeIds[0]!)),
      409,
      'CONFLICT',
      /has arrived/,
    );
    expectError(await demo.delete(`/api/prealerts/${prealert.id}`), 409, 'CONFLICT');
    // Another consignee's customer does not see the receipt, nor the pre-alert through it.
    expectError(await other.get(`/api/receipts/${receiptId}`), 404, 'NOT_FOUND');
  });

  it('links at once a pre-alert made after its package came (however its number is written), and tells the provider nothing', async () => {
    const receipt = await trackedReceiptOf(demoConsigneeIds[0]!);
    const typed = `${receipt.trackingNumber.slice(0, 3)}-${receipt.trackingNumber.slice(3).toLowerCase()}`;
    const prealert = await create(
      demo,
      validPrealert(demoConsigneeIds[0]!, { trackingNumber: typed }),
    );
    expect(prealert).toMatchObject({
      status: 'received',
      receiptId: receipt.id,
      receiptNumber: receipt.number,
    });
    expect(await jobsOf(prealert.id)).toEqual([]);
  });

  it("links only within the consignee: another consignee's pre-alert of the same number stays Expected, for the admin", async () => {
    const receipt = await trackedReceiptOf(demoConsigneeIds[0]!);
    const mismatched = await create(
      other,
      validPrealert(otherConsigneeId, { trackingNumber: receipt.trackingNumber }),
    );
    expect(mismatched).toMatchObject({ status: 'expected', receiptId: null });

    // The same through the sync: a package pre-alerted for two consignees arrives for one of them.
    const number = uniqueTrackingNumber();
    expect((await control(portal, 'withhold-prealerts')).status).toBe(200);
    advanceClock(10 * 60_000);
    const theirs = await create(other, validPrealert(otherConsigneeId, { trackingNumber: number }));
    await portal.portal.outbox.idle();
    expect((await control(portal, 'offer-prealerts')).status).toBe(200);
    advanceClock(10 * 60_000);
    const ours = await create(
      demo,
      validPrealert(demoConsigneeIds[1]!, { trackingNumber: number }),
    );
    await portal.portal.outbox.idle();
    await nextWindowAndSync();
    expect((await demo.get(`/api/prealerts/${ours.id}`)).body.data.status).toBe('received');
    expect((await other.get(`/api/prealerts/${theirs.id}`)).body.data).toMatchObject({
      status: 'expected',
      receiptId: null,
    });
  });

  it('tells the provider nothing while it does not offer pre-alerts: the job is done, no package comes', async () => {
    expect((await control(portal, 'withhold-prealerts')).status).toBe(200);
    advanceClock(10 * 60_000);
    const prealert = await create(demo, validPrealert(demoConsigneeIds[0]!));
    await portal.portal.outbox.idle();
    expect((await jobsOf(prealert.id))[0]).toMatchObject({ attempts: 0, lastError: null });
    expect((await control(portal, 'offer-prealerts')).status).toBe(200);
    advanceClock(10 * 60_000);
    await nextWindowAndSync();
    expect(await receiptsWithPackage(prealert.trackingNumber)).toEqual([]);
  });

  it('withdraws a deleted pre-alert at the provider: its package never comes', async () => {
    const prealert = await create(demo, validPrealert(demoConsigneeIds[0]!));
    await portal.portal.outbox.idle();
    expect((await demo.delete(`/api/prealerts/${prealert.id}`)).status).toBe(200);
    await portal.portal.outbox.idle();
    const jobs = await jobsOf(prealert.id);
    expect(jobs.map((job) => [job.doneAt !== null, job.lastError])).toEqual([
      [true, null],
      [true, null],
    ]);
    // One ordering key per pre-alert: the withdrawal never overtakes the save.
    expect(jobs.map((job) => job.orderingKey)).toEqual([
      `prealert:${prealert.id}`,
      `prealert:${prealert.id}`,
    ]);
    await nextWindowAndSync();
    expect(await receiptsWithPackage(prealert.trackingNumber)).toEqual([]);
  });

  it('sends the changed pre-alert on an edit: the package that comes has the new number', async () => {
    const prealert = await create(demo, validPrealert(demoConsigneeIds[0]!));
    await portal.portal.outbox.idle();
    const corrected = uniqueTrackingNumber();
    expect(
      (
        await demo.put(
          `/api/prealerts/${prealert.id}`,
          validPrealert(demoConsigneeIds[0]!, { trackingNumber: corrected }),
        )
      ).status,
    ).toBe(200);
    await portal.portal.outbox.idle();
    await nextWindowAndSync();
    expect(await receiptsWithPackage(prealert.trackingNumber)).toEqual([]);
    expect((await demo.get(`/api/prealerts/${prealert.id}`)).body.data).toMatchObject({
      status: 'received',
      trackingNumber: corrected,
    });
  });
});

describe('a provider outage', () => {
  it('keeps the forwarding and retries it later: once the provider is back the package comes and is linked', async () => {
    expect((await control(portal, 'outage')).status).toBe(200);
    let prealert: Record<string, any>;
    try {
      prealert = await create(demo, validPrealert(demoConsigneeIds[2]!));
      await portal.portal.outbox.idle();
      const [failed] = await jobsOf(prealert.id);
      expect(failed).toMatchObject({ attempts: 1, doneAt: null, failedAt: null });
      expect(failed!.lastError).toMatch(/503/);
      // Not before its wait.
      expect(await portal.portal.outbox.runDueJobs()).toBe(0);
    } finally {
      expect((await control(portal, 'recover')).status).toBe(200);
    }
    advanceClock(61_000);
    await portal.portal.outbox.runDueJobs();
    const [done] = await jobsOf(prealert.id);
    expect(done).toMatchObject({ attempts: 1, failedAt: null });
    expect(done!.doneAt).not.toBeNull();
    await nextWindowAndSync();
    expect((await demo.get(`/api/prealerts/${prealert.id}`)).body.data.status).toBe('received');
  });
});

describe("the admin's views", () => {
  it('lists receipts that came without a pre-alert, newest first, recent ones only', async () => {
    const response = await admin.get('/api/admin/prealerts?state=unmatched-receipts&limit=100');
    expect(response.status).toBe(200);
    const listed = response.body.data as Array<{
      id: number;
      receivedDate: string;
      trackingNumbers: string[];
    }>;
    expect(listed.length).toBeGreaterThan(0);
    const linked = new Set(
      (
        await queryDatabase<{ receiptId: number }>(
          portal,
          'SELECT receiptId FROM prealerts WHERE receiptId IS NOT NULL',
        )
      ).map((row) => Number(row.receiptId)),
    );
    expect(listed.filter((receipt) => linked.has(receipt.id))).toEqual([]);
    const since = portal.clock.now() - 30 * DAY_MS;
    expect(listed.every((receipt) => Date.parse(receipt.receivedDate) >= since)).toBe(true);
    const dates = listed.map((receipt) => Date.parse(receipt.receivedDate));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(response.body.pagination.itemsPerPage).toBe(100);
  });

  it('matches by hand within the consignee, audited, and unmatches', async () => {
    const prealert = await create(other, validPrealert(otherConsigneeId));
    const theirReceipt = (
      await queryDatabase<{ id: number; number: string }>(
        portal,
        'SELECT id, number FROM receipts WHERE consigneeId = ? ORDER BY id LIMIT 1',
        [otherConsigneeId],
      )
    )[0]!;
    const foreignReceipt = await trackedReceiptOf(demoConsigneeIds[0]!);

    expectError(
      await admin.post(`/api/admin/prealerts/${prealert.id}/match`, {
        receiptId: foreignReceipt.id,
      }),
      409,
      'CONFLICT',
      `Receipt ${foreignReceipt.number} is for another consignee: a pre-alert can only be matched to a receipt of its own consignee`,
    );
    expectError(
      await admin.post(`/api/admin/prealerts/${prealert.id}/match`, { receiptId: 999999999 }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await admin.post(`/api/admin/prealerts/${prealert.id}/match`, { receiptId: 'WR-1' }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await admin.post('/api/admin/prealerts/999999/match', { receiptId: Number(theirReceipt.id) }),
      404,
      'NOT_FOUND',
      'Pre-alert not found',
    );

    const matched = await admin.post(`/api/admin/prealerts/${prealert.id}/match`, {
      receiptId: Number(theirReceipt.id),
    });
    expect(matched.status, JSON.stringify(matched.body)).toBe(200);
    expect(matched.body).toMatchObject({
      message: `Pre-alert matched to receipt ${theirReceipt.number}`,
      data: { status: 'received', receiptId: Number(theirReceipt.id), createdBy: 'othercustomer' },
    });
    expectError(
      await admin.post(`/api/admin/prealerts/${prealert.id}/match`, {
        receiptId: Number(theirReceipt.id),
      }),
      409,
      'CONFLICT',
    );
    expect(
      (await other.get(`/api/receipts/${theirReceipt.id}`)).body.data.prealerts.map(
        (shown: any) => shown.id,
      ),
    ).toEqual([prealert.id]);
    const matches = await admin.get('/api/admin/prealerts?state=matched&limit=100');
    expect(matches.body.data.map((listed: any) => listed.id)).toContain(prealert.id);

    const unmatched = await admin.delete(`/api/admin/prealerts/${prealert.id}/match`);
    expect(unmatched.status).toBe(200);
    expect(unmatched.body).toMatchObject({
      message: 'The pre-alert is no longer matched: it is expected again',
      data: { status: 'expected', receiptId: null },
    });
    expectError(
      await admin.delete(`/api/admin/prealerts/${prealert.id}/match`),
      409,
      'CONFLICT',
      'This pre-alert is not matched to a receipt',
    );

    const audit = (await admin.get('/api/audit?limit=5')).body.data as Array<{
      action: string;
      target: string;
      detail: string;
      actorName: string;
    }>;
    expect(
      audit
        .slice(0, 2)
        .map(({ action, target, detail, actorName }) => ({ action, target, detail, actorName })),
    ).toEqual([
      {
        action: 'prealert.unmatched',
        target: `pre-alert ${prealert.id} (${prealert.trackingNumber})`,
        detail: `Receipt: "${theirReceipt.number}"; Consignee: ${otherConsigneeId}; Made by: "othercustomer"`,
        actorName: 'admin',
      },
      {
        action: 'prealert.matched',
        target: `pre-alert ${prealert.id} (${prealert.trackingNumber})`,
        detail: `Receipt: "${theirReceipt.number}"; Consignee: ${otherConsigneeId}; Made by: "othercustomer"`,
        actorName: 'admin',
      },
    ]);
  });

  it('unmatches an arrived pre-alert: expected again, and the sync does not link it to that receipt again', async () => {
    const prealert = await create(demo, validPrealert(demoConsigneeIds[0]!));
    await portal.portal.outbox.idle();
    await nextWindowAndSync();
    const { receiptId } = (await demo.get(`/api/prealerts/${prealert.id}`)).body.data;
    expect(receiptId).not.toBeNull();
    // The sync's link told the provider too: nothing waits for that package any more.
    expect(await jobsOf(prealert.id)).toHaveLength(2);
    expect((await admin.delete(`/api/admin/prealerts/${prealert.id}/match`)).status).toBe(200);
    // Expected again: the provider is told to wait for it.
    expect(await jobsOf(prealert.id)).toHaveLength(3);
    // The customer's edit does not link it to the declined receipt either.
    const { trackingNumber } = (await demo.get(`/api/prealerts/${prealert.id}`)).body.data;
    expect(
      (
        await demo.put(
          `/api/prealerts/${prealert.id}`,
          validPrealert(demoConsigneeIds[0]!, { trackingNumber }),
        )
      ).status,
    ).toBe(200);
    expect((await demo.get(`/api/prealerts/${prealert.id}`)).body.data).toMatchObject({
      status: 'expected',
      receiptId: null,
    });
    // As the sync writes that receipt again (a status change): the declined receipt is left alone.
    const { db } = portal.portal;
    const arrivals = await db.sequelize.transaction((transaction) =>
      matchArrivedPackages(
        portal.portal,
        [
          {
            id: receiptId,
            number: `WR-${receiptId}`,
            consigneeId: demoConsigneeIds[0]!,
            trackingKeys: [prealert.trackingNumber],
          },
        ],
        transaction,
      ),
    );
    expect(arrivals).toEqual([]);
    expect((await demo.get(`/api/prealerts/${prealert.id}`)).body.data).toMatchObject({
      status: 'expected',
      receiptId: null,
    });
    // The admin may still link them by hand.
    expect(
      (await admin.post(`/api/admin/prealerts/${prealert.id}/match`, { receiptId })).status,
    ).toBe(200);
  });

  it('is for admins: an admin-viewer reads the lists but matches nothing, a customer neither', async () => {
    const viewer = await signIn(portal, await createUser(admin, 'prealertstaff', 'admin-viewer'));
    expect((await viewer.get('/api/admin/prealerts?state=stale')).status).toBe(200);
    expectError(
      await viewer.post('/api/admin/prealerts/1/match', { receiptId: 1 }),
      403,
      'FORBIDDEN',
    );
    expectError(await viewer.delete('/api/admin/prealerts/1/match'), 403, 'FORBIDDEN');
    expectError(await demo.get('/api/admin/prealerts'), 403, 'FORBIDDEN');
    expectError(
      await demo.post('/api/admin/prealerts/1/match', { receiptId: 1 }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await admin.get('/api/admin/prealerts?state=lost'),
      400,
      'VALIDATION_ERROR',
      'state must be one of stale, unmatched-receipts, matched',
    );
  });

  it(`lists the pre-alerts still expected after PREALERT_STALE_DAYS (14), oldest first`, async () => {
    const staleIds = async () =>
      (await admin.get('/api/admin/prealerts?state=stale&limit=100')).body.data.map(
        (prealert: any) => prealert.id,
      ) as number[];
    const waiting = await create(demo, validPrealert(demoConsigneeIds[0]!));
    expect(await staleIds()).not.toContain(waiting.id);
    advanceClock(14 * DAY_MS + 60_000);
    // Two weeks on, the sessions have ended: everyone signs in again.
    admin = await signedInAdmin(portal);
    demo = await signIn(portal, { username: 'demo', password: DEMO_PASSWORD });
    other = await signIn(portal, otherUser);
    const fresh = await create(demo, validPrealert(demoConsigneeIds[0]!));
    const stale = (await admin.get('/api/admin/prealerts?state=stale&limit=100')).body
      .data as Array<{
      id: number;
      status: string;
      createdAt: string;
      createdBy: string;
    }>;
    expect(stale.map((prealert) => prealert.id)).toContain(waiting.id);
    expect(stale.map((prealert) => prealert.id)).not.toContain(fresh.id);
    expect(stale.every((prealert) => prealert.status === 'expected')).toBe(true);
    expect(stale.find((prealert) => prealert.id === waiting.id)!.createdBy).toBe('demo');
    const created = stale.map((prealert) => Date.parse(prealert.createdAt));
    expect(created).toEqual([...created].sort((a, b) => a - b));
  });
});

describe('the pages, without JavaScript', () => {
  const english = { 'Accept-Language': 'en' };

  it("the customer's list shows each pre-alert with its status, its receipt once received, and its invoice", async () => {
    const waiting = (
      await sendPrealertForm(
        demo,
        'POST',
        '/api/prealerts',
        validPrealert(demoConsigneeIds[0]!),
        pdfFile('receipt.pdf'),
      )
    ).body.data;
    const page = await demo.get('/prealerts', { headers: english });
    expect(page.status).toBe(200);
    const html = page.body as string;
    expect(html).toContain('Your pre-alerts');
    expect(html).toContain(waiting.trackingNumber);
    expect(html).toContain(`href="/api/prealerts/${waiting.id}/invoice"`);
    expect(html).toContain(`href="/prealerts/${waiting.id}/edit"`);
    expect(html).toContain(`action="/prealerts/${waiting.id}/delete"`);
    expect(html).toContain('Expected');
    expect(html).not.toContain('<astro-island');

    const arrived = await trackedReceiptOf(demoConsigneeIds[2]!);
    const received = await create(
      demo,
      validPrealert(demoConsigneeIds[2]!, { trackingNumber: arrived.trackingNumber }),
    );
    const now = (await demo.get('/prealerts', { headers: english })).body as string;
    expect(now).toContain(`href="/receipts/${arrived.id}"`);
    expect(now).toContain(`Arrived on receipt ${arrived.number}`);
    // Received: neither edited nor deleted.
    expect(now).not.toContain(`href="/prealerts/${received.id}/edit"`);
  });

  it('makes a pre-alert from the plain form: a refusal shows what was typed beside its problems, in Dutch; a success goes to the list', async () => {
    const fields = validPrealert(demoConsigneeIds[0]!, { declaredValue: '12,345', shipper: '' });
    const refused = await sendPrealertForm(demo, 'POST', '/prealerts/new', fields, pdfFile(), {
      'Accept-Language': 'nl',
    });
    expect(refused.status).toBe(400);
    const html = refused.body as string;
    expect(html).toContain('Verbeter de gemarkeerde velden hieronder.');
    expect(html).toContain('Vul de winkel of afzender in');
    expect(html).toContain(
      'De aangegeven waarde kan hoogstens twee decimalen (centen) hebben, zoals 1.299,99',
    );
    expect(html).toContain(`value="${fields.trackingNumber}"`);
    expect(html).toContain('value="12,345"');

    const made = await sendPrealertForm(
      demo,
      'POST',
      '/prealerts/new',
      validPrealert(demoConsigneeIds[0]!, { declaredValue: '12,34' }),
      pdfFile(),
    );
    expect(made.status).toBe(303);
    expect(made.headers.get('location')).toBe('/prealerts?done=created');
    const list = (await demo.get('/prealerts?done=created', { headers: english })).body as string;
    expect(list).toContain('Pre-alert saved. We will let you know when the package arrives.');
  });

  it('edits one from its page, and deletes one after asking', async () => {
    const made = await create(demo, validPrealert(demoConsigneeIds[0]!, { declaredValue: 5 }));
    const form = await demo.get(`/prealerts/${made.id}/edit`, {
      headers: { 'Accept-Language': 'nl' },
    });
    expect(form.status).toBe(200);
    expect(form.body).toContain('value="5,00"');
    const saved = await sendPrealertForm(
      demo,
      'POST',
      `/prealerts/${made.id}/edit`,
      validPrealert(demoConsigneeIds[0]!, {
        trackingNumber: made.trackingNumber,
        declaredValue: '6',
      }),
      null,
    );
    expect(saved.status).toBe(303);
    expect((await demo.get(`/api/prealerts/${made.id}`)).body.data.declaredValue).toBe(6);
    expect((await other.get(`/prealerts/${made.id}/edit`)).status).toBe(404);

    const deleted = await demo.post(`/prealerts/${made.id}/delete`, undefined, {
      body: '',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get('location')).toBe('/prealerts?done=deleted');
    expectError(await demo.get(`/api/prealerts/${made.id}`), 404, 'NOT_FOUND');
    const again = await demo.post(`/prealerts/${made.id}/delete`, undefined, {
      body: '',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(again.headers.get('location')).toBe('/prealerts?done=not-deleted');
  });

  it("shows a receipt's pre-alert and its invoice on the receipt's page", async () => {
    const prealert = (
      await sendPrealertForm(
        demo,
        'POST',
        '/api/prealerts',
        validPrealert(demoConsigneeIds[1]!, { shipper: 'Walmart' }),
        pdfFile(),
      )
    ).body.data;
    await portal.portal.outbox.idle();
    await nextWindowAndSync();
    const { receiptId } = (await demo.get(`/api/prealerts/${prealert.id}`)).body.data;
    const page = (await demo.get(`/receipts/${receiptId}`, { headers: english })).body as string;
    expect(page).toContain('Pre-alerted by the customer');
    expect(page).toContain('Walmart');
    expect(page).toContain('Invoice on file');
    expect(page).toContain(`href="/api/prealerts/${prealert.id}/invoice"`);
  });

  it("sends staff to the admin's page, which an admin-viewer reads without its forms; the admin matches by its form", async () => {
    expect((await admin.get('/prealerts')).status).toBe(302);
    const page = await admin.get('/admin/prealerts?state=unmatched-receipts', { headers: english });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Receipts without a pre-alert');
    // Two weeks on (the stale list's test), the stale pre-alerts offer their consignees' recent receipts.
    const stale = await admin.get('/admin/prealerts', { headers: english });
    expect(stale.status).toBe(200);
    expect(stale.body).toContain('Expected for over 14 days');
    expect(stale.body).toContain('Match to receipt');
    const viewer = await signIn(portal, await createUser(admin, 'prealertreader', 'admin-viewer'));
    expect((await demo.get('/admin/prealerts')).status).toBe(302);

    const prealert = await create(other, validPrealert(otherConsigneeId));
    const receipt = (
      await queryDatabase<{ id: number }>(
        portal,
        'SELECT id FROM receipts WHERE consigneeId = ? AND id NOT IN (SELECT receiptId FROM prealerts WHERE receiptId IS NOT NULL) ORDER BY id LIMIT 1',
        [otherConsigneeId],
      )
    )[0]!;
    const matched = await admin.post('/admin/prealerts?state=stale', undefined, {
      body: `action=match&prealertId=${prealert.id}&receiptId=${receipt.id}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(matched.status).toBe(303);
    expect(matched.headers.get('location')).toBe('/admin/prealerts?state=stale&done=matched');
    expect((await other.get(`/api/prealerts/${prealert.id}`)).body.data.status).toBe('received');
    const matches = await admin.get('/admin/prealerts?state=matched', { headers: english });
    expect(matches.body).toContain(
      `aria-label="Unmatch the pre-alert ${prealert.trackingNumber} from receipt WR-${receipt.id}"`,
    );
    const read = await viewer.get('/admin/prealerts?state=matched', { headers: english });
    expect(read.status).toBe(200);
    expect(read.body).toContain(prealert.trackingNumber);
    expect(read.body).not.toContain('name="action"');
    const refused = await viewer.post('/admin/prealerts', undefined, {
      body: `action=unmatch&prealertId=${prealert.id}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(refused.status).toBe(403);
  });
});

describe('limits: what one account can store and send', () => {
  it('70 writes at once within the window: 60 are made and 10 refused with 429; then 100 waiting pre-alerts are the most, and deleting one makes room', async () => {
    const busy = await createUser(admin, 'busycustomer');
    await assignConsignees(admin, busy.id, [otherConsigneeId]);
    const client = await signIn(portal, busy);
    const rowsOfBusy = async () =>
      Number(
        (
          await queryDatabase<{ count: number }>(
            portal,
            'SELECT COUNT(*) AS count FROM prealerts WHERE userId = ?',
            [busy.id],
          )
        )[0]!.count,
      );
    const createAtOnce = (count: number, headers: Record<string, string> = {}) =>
      Promise.all(
        Array.from({ length: count }, () =>
          client.post('/api/prealerts', validPrealert(otherConsigneeId), { headers }),
        ),
      );

    const burst = await createAtOnce(70);
    const made = burst
      .filter((response) => response.status === 201)
      .map((response) => response.body.data.id as number);
    expect(made).toHaveLength(60);
    for (const refused of burst.filter((response) => response.status !== 201)) {
      expectError(
        refused,
        429,
        'RATE_LIMITED',
        'You have added or changed many pre-alerts in a short time. Please try again in a few minutes.',
      );
    }
    // An edit is a write too.
    expectError(
      await client.put(`/api/prealerts/${made[0]}`, validPrealert(otherConsigneeId)),
      429,
      'RATE_LIMITED',
    );
    expect(await rowsOfBusy()).toBe(60);

    // The window (LOGIN_WINDOW_SECONDS, 15 minutes) passes; two at once cannot both take the 100th place.
    advanceClock(15 * 60_000 + 1);
    const second = await createAtOnce(50, { 'Accept-Language': 'nl' });
    expect(second.filter((response) => response.status === 201)).toHaveLength(40);
    for (const refused of second.filter((response) => response.status !== 201)) {
      expectError(
        refused,
        409,
        'CONFLICT',
        'U hebt 100 vooraanmeldingen die nog op hun pakket wachten, het maximum. Verwijder eerst een vooraanmelding die u niet meer verwacht.',
      );
    }
    expect(await rowsOfBusy()).toBe(100);

    expect((await client.delete(`/api/prealerts/${made[0]}`)).status).toBe(200);
    await create(client, validPrealert(otherConsigneeId));
    expect(await rowsOfBusy()).toBe(100);
    // Another customer is not held back by this one's limits.
    await create(other, validPrealert(otherConsigneeId));
  });
});

describe('changes at the same moment', () => {
  const invoiceOf = async (id: number) =>
    (
      await queryDatabase<{ invoiceFileName: string | null }>(
        portal,
        'SELECT invoiceFileName FROM prealerts WHERE id = ?',
        [id],
      )
    )[0]?.invoiceFileName;

  it('two edits that each bring an invoice leave only the file of the one stored last, on PostgreSQL too', async () => {
    const made = (
      await sendPrealertForm(
        demo,
        'POST',
        '/api/prealerts',
        validPrealert(demoConsigneeIds[0]!),
        pdfFile('first.pdf'),
      )
    ).body.data;
    const before = await filesInInvoiceDir();
    const first = await invoiceOf(made.id);
    // Another change holds the pre-alert: both edits meet it, then go on together.
    const held = await holdRowLock(portal, 'prealerts', made.id);
    const racing = ['second.pdf', 'third.pdf'].map((name) =>
      sendPrealertForm(
        demo,
        'PUT',
        `/api/prealerts/${made.id}`,
        validPrealert(demoConsigneeIds[0]!),
        pdfFile(name),
      ),
    );
    await held.untilBlocked(2, racing);
    await held.release();
    expect((await Promise.all(racing)).map((response) => response.status)).toEqual([200, 200]);
    const after = await filesInInvoiceDir();
    expect(after).not.toContain(first);
    expect(after.filter((name) => !before.includes(name))).toEqual([await invoiceOf(made.id)]);
  });

  it('an edit that brings an invoice and a deletion at once leave no file behind, on PostgreSQL too', async () => {
    const made = (
      await sendPrealertForm(
        demo,
        'POST',
        '/api/prealerts',
        validPrealert(demoConsigneeIds[0]!),
        pdfFile(),
      )
    ).body.data;
    const first = await invoiceOf(made.id);
    const before = await filesInInvoiceDir();
    const held = await holdRowLock(portal, 'prealerts', made.id);
    // The edit waits first, so it goes first once the pre-alert is free.
    const edit = sendPrealertForm(
      demo,
      'PUT',
      `/api/prealerts/${made.id}`,
      validPrealert(demoConsigneeIds[0]!),
      pdfFile('new.pdf'),
    );
    await held.untilBlocked(1, [edit]);
    const deletion = demo.delete(`/api/prealerts/${made.id}`);
    await held.untilBlocked(2, [edit, deletion]);
    await held.release();
    await edit;
    expect((await deletion).status).toBe(200);
    expect(await invoiceOf(made.id)).toBeUndefined();
    const after = await filesInInvoiceDir();
    expect(after).not.toContain(first);
    expect(after.filter((name) => !before.includes(name))).toEqual([]);
  });

  it('closes the invoice file when its size cannot be read', async () => {
    const made = (
      await sendPrealertForm(
        demo,
        'POST',
        '/api/prealerts',
        validPrealert(demoConsigneeIds[0]!),
        pdfFile(),
      )
    ).body.data;
    const probe = await open(import.meta.filename);
    const handles = Object.getPrototypeOf(probe) as { stat(): Promise<unknown> };
    await probe.close();
    // The disk fails between opening the file and reading its size.
    const stat = vi
      .spyOn(handles, 'stat')
      .mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, fstat'), { code: 'EIO' }));
    try {
      expect((await demo.get(`/api/prealerts/${made.id}/invoice`)).status).toBe(500);
      // A closed handle has no descriptor any more.
      expect((stat.mock.contexts[0] as { fd: number }).fd).toBe(-1);
    } finally {
      stat.mockRestore();
    }
  });
});

describe('housekeeping', () => {
  it('removes the invoice files no pre-alert names once they are an hour old; the named ones and younger ones stay', async () => {
    const made = (
      await sendPrealertForm(
        demo,
        'POST',
        '/api/prealerts',
        validPrealert(demoConsigneeIds[0]!),
        pdfFile(),
      )
    ).body.data;
    const named = (
      await queryDatabase<{ invoiceFileName: string }>(
        portal,
        'SELECT invoiceFileName FROM prealerts WHERE id = ?',
        [made.id],
      )
    )[0]!.invoiceFileName;
    // As the portal's clock tells time: an upload whose request died long ago, and one under way.
    const secondsAgo = (seconds: number) => (portal.clock.now() - seconds * 1000) / 1000;
    for (const [name, age] of [
      ['left-behind.pdf', 2 * 3600],
      ['.incoming-0123456789abcdef', 2 * 3600],
      ['just-uploaded.pdf', 30 * 60],
    ] as const) {
      await writeFile(path.join(invoiceDir(), name), 'bytes');
      await utimes(path.join(invoiceDir(), name), secondsAgo(age), secondsAgo(age));
    }
    await utimes(path.join(invoiceDir(), named), secondsAgo(2 * 3600), secondsAgo(2 * 3600));
    await portal.portal.keepHouse();
    const files = await filesInInvoiceDir();
    expect(files).not.toContain('left-behind.pdf');
    expect(files).not.toContain('.incoming-0123456789abcdef');
    expect(files).toContain('just-uploaded.pdf');
    expect(files).toContain(named);
    expect((await download(demo, `/api/prealerts/${made.id}/invoice`)).status).toBe(200);
  });
});
