/**
 * The Magaya SOAP client against the sandbox's Magaya mode over real HTTP, and against answers
 * recorded in Magaya's shape (tests/support/magaya).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AttachmentTooLargeError } from '~/server/provider/contract';
import { readWarehouseReceipt, type MagayaReceiptReading } from '~/server/provider/magaya/receipt';
import {
  LogEntry,
  MagayaSessions,
  SESSION_BUSY_WAITS_MS,
  WAREHOUSE_RECEIPT,
  type MagayaConnection,
} from '~/server/provider/magaya/session';
import {
  callSoap,
  MagayaError,
  soapEnvelope,
  soapInt,
  soapString,
} from '~/server/provider/magaya/soap';
import { textOf, type XmlElement } from '~/server/provider/magaya/xml';
import { SandboxMagaya, sandboxGuid, sandboxIdOfGuid } from '~/server/provider/sandbox/magaya';
import { SandboxAttachments } from '~/server/provider/sandbox/attachments';
import { SandboxStore } from '~/server/provider/sandbox/store';

const USERNAME = 'portal-api';
const PASSWORD = 'correct horse';
const RECEIPTS = 120;
const NOW = Date.parse('2026-12-01T12:00:00.000Z');
const YEARS_AGO = new Date(NOW - 3 * 365 * 86_400_000);

let now = NOW;
let store: SandboxStore;
let sandbox: SandboxMagaya;
let server: Server;
let url: string;
/** What the recorded-answer server sends next. */
let recorded: { status: number; body: string } = { status: 200, body: '' };
let recordedServer: Server;
let recordedUrl: string;

async function listen(
  handler: (
    body: string,
  ) => Promise<{ status: number; body: string }> | { status: number; body: string },
): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void Promise.resolve(handler(Buffer.concat(chunks).toString('utf8'))).then((answer) =>
        response
          .writeHead(answer.status, { 'Content-Type': 'text/xml; charset=utf-8' })
          .end(answer.body),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/Invoke?Handler=CSSoapService`,
  };
}

beforeAll(async () => {
  ({ server, url } = await listen((body) => sandbox.answer(body)));
  ({ server: recordedServer, url: recordedUrl } = await listen(() => recorded));
});

afterAll(async () => {
  await Promise.all(
    [server, recordedServer].map((each) => new Promise((resolve) => each?.close(resolve))),
  );
});

beforeEach(() => {
  now = NOW;
  store = new SandboxStore(7, RECEIPTS, NOW);
  sandbox = new SandboxMagaya({
    store: () => store,
    attachments: new SandboxAttachments(7),
    clock: { now: () => now },
    username: USERNAME,
    password: PASSWORD,
  });
});

const connection = (overrides: Partial<MagayaConnection> = {}): MagayaConnection => ({
  url,
  username: USERNAME,
  password: PASSWORD,
  timeoutMs: 30_000,
  ...overrides,
});

/** Sessions whose waits are recorded and end at once; `onPause` runs at each. */
function sessions(
  overrides: Partial<MagayaConnection> = {},
  onPause: (waits: number[]) => Promise<void> | void = () => undefined,
) {
  const waits: number[] = [];
  const client = new MagayaSessions({
    connection: connection(overrides),
    pause: async (ms) => {
      waits.push(ms);
      await onPause(waits);
    },
  });
  return { client, waits };
}

const ids = {
  receiptId: (guid: string) => sandboxIdOfGuid('receipt', guid) ?? -1,
  consigneeId: (guid: string) => sandboxIdOfGuid('consignee', guid) ?? -1,
};
const read = (element: XmlElement): MagayaReceiptReading =>
  readWarehouseReceipt(element, { ids, updatedAt: new Date(NOW).toISOString() });

/** A raw call, as another client of the same API user would make it. */
async function rawCall(method: string, parameters: Parameters<typeof soapEnvelope>[1]) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml' },
    body: soapEnvelope(method, parameters),
  });
  return { status: response.status, body: await response.text() };
}

describe('Magaya SOAP client against the sandbox', () => {
  it('when every receipt is read by date in one session, then each arrives once, mapped as the sandbox has it (lb and ft³ whatever unit it was sent in), and the session ends', async () => {
    const { client } = sessions();
    const readings: MagayaReceiptReading[] = [];
    await client.run((session) =>
      session.transactionsByDate(
        { type: WAREHOUSE_RECEIPT, start: YEARS_AGO, end: new Date(NOW), flags: 0, pageSize: 25 },
        'WarehouseReceipt',
        (element) => readings.push(read(element)),
      ),
    );
    expect(sandbox.sessionOpen).toBe(false);
    expect(sandbox.calls.get('StartSession')).toBe(1);
    expect(sandbox.calls.get('EndSession')).toBe(1);
    expect(sandbox.calls.get('GetNextTransbyDate')).toBe(Math.ceil(RECEIPTS / 25));
    const online = readings.flatMap((reading) =>
      reading.kind === 'receipt' ? [reading.receipt] : [],
    );
    const offline = readings.filter((reading) => reading.kind === 'offline');
    expect(online.length + offline.length).toBe(RECEIPTS);
    expect(new Set(online.map((receipt) => receipt.id)).size).toBe(online.length);
    expect(offline.length).toBeGreaterThan(0); // the sandbox's cancelled receipts are not online
    const metric = online.filter((receipt) => receipt.id % 4 === 0);
    expect(metric.length).toBeGreaterThan(0);
    for (const receipt of online) {
      const original = store.receipt(receipt.id)!;
      expect(receipt).toMatchObject({
        number: original.number,
        receivedDate: original.receivedDate,
        consigneeId: original.consigneeId,
        consigneeName: original.consigneeName,
        pieces: original.pieces,
        totalWeightValue: original.totalWeightValue,
        totalVolumeValue: original.totalVolumeValue,
        destination: original.destination,
        modeOfTransportation: original.modeOfTransportation,
        origin: original.origin,
      });
      expect(
        receipt.commodities.map((item) => [
          item.trackingNumber,
          item.pieces,
          item.totalWeightValue,
          item.totalVolumeValue,
        ]),
      ).toEqual(
        original.commodities.map((item) => [
          item.trackingNumber,
          item.pieces,
          item.totalWeightValue,
          item.totalVolumeValue,
        ]),
      );
    }
  });

  it('when the sandbox is asked with an old cookie, then it answers the same page again, so the client always sends the newest', async () => {
    const key = textOf(
      (await parsedAnswer('StartSession', {
        user: soapString(USERNAME),
        pass: soapString(PASSWORD),
      }))!,
      'access_key',
    );
    const first = await parsedAnswer('GetFirstTransbyDate', {
      access_key: soapString(key),
      type: soapString('WH'),
      start_date: soapString('2020-01-01'),
      end_date: soapString('2026-12-31'),
      flags: soapInt(0),
      record_quantity: soapInt(10),
      backwards_order: soapInt(0),
    });
    const cookie = textOf(first, 'cookie');
    const page = await parsedAnswer('GetNextTransbyDate', { cookie: soapString(cookie) });
    const again = await parsedAnswer('GetNextTransbyDate', { cookie: soapString(cookie) });
    expect(textOf(again, 'trans_list_xml')).toBe(textOf(page, 'trans_list_xml'));
    expect(textOf(page, 'cookie')).not.toBe(cookie);
    const next = await parsedAnswer('GetNextTransbyDate', {
      cookie: soapString(textOf(page, 'cookie')),
    });
    expect(textOf(next, 'trans_list_xml')).not.toBe(textOf(page, 'trans_list_xml'));
  });

  it('when backwards_order is sent as a boolean, then Magaya answers a SOAP Fault and the client says the answer was refused', async () => {
    const key = textOf(
      (await parsedAnswer('StartSession', {
        user: soapString(USERNAME),
        pass: soapString(PASSWORD),
      }))!,
      'access_key',
    );
    const body = soapEnvelope('GetFirstTransbyDate', {
      access_key: soapString(key),
      type: soapString('WH'),
      start_date: soapString('2026-01-01'),
      end_date: soapString('2026-12-31'),
      flags: soapInt(0),
      record_quantity: soapInt(10),
      backwards_order: soapInt(0),
    }).replace(
      '<backwards_order xsi:type="xsd:int">0</backwards_order>',
      '<backwards_order xsi:type="xsd:boolean">false</backwards_order>',
    );
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml' },
      body,
    });
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('backwards_order must be xsd:int');
    await expect(callSoap(connection(), 'NoSuchMethod', {})).rejects.toMatchObject({
      code: 'fault',
      kind: 'bad-response',
    });
  });

  it('when another session of the API user is open, then the client waits it out with backoff and then reads', async () => {
    const other = textOf(
      (await parsedAnswer('StartSession', {
        user: soapString(USERNAME),
        pass: soapString(PASSWORD),
      }))!,
      'access_key',
    );
    const { client, waits } = sessions({}, async (waited) => {
      if (waited.length === 2) await rawCall('EndSession', { access_key: soapString(other) });
    });
    const items = await client.run((session) =>
      session.queryLog({
        type: 'WH',
        start: new Date(NOW - 86_400_000),
        end: new Date(NOW),
        entryTypes: 7,
        flags: 0,
        sliceMs: 86_400_000,
      }),
    );
    expect(items).toEqual([]);
    expect(waits).toEqual(SESSION_BUSY_WAITS_MS.slice(0, 2));
    expect(sandbox.sessionOpen).toBe(false);
  });

  it('when the other session never ends, then the client reports the session busy and never reads an empty list', async () => {
    await rawCall('StartSession', { user: soapString(USERNAME), pass: soapString(PASSWORD) });
    const { client, waits } = sessions();
    let worked = false;
    const failure = await client
      .run(async () => {
        worked = true;
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MagayaError);
    expect(failure).toMatchObject({
      code: 'too_many_open_sessions',
      message: "Magaya's API user has another session open, and it did not end in time.",
    });
    expect(worked).toBe(false);
    expect(waits).toEqual([...SESSION_BUSY_WAITS_MS]);
  });

  it('when a session sits idle past Magaya’s time-out, then a new one may start', async () => {
    await rawCall('StartSession', { user: soapString(USERNAME), pass: soapString(PASSWORD) });
    now += 11 * 60_000;
    const { client, waits } = sessions();
    await client.run(async () => undefined);
    expect(waits).toEqual([]);
  });

  it('when the work fails, then the session is ended all the same and the next work gets one', async () => {
    const { client } = sessions();
    await expect(
      client.run(async () => {
        throw new Error('the sync failed');
      }),
    ).rejects.toThrow('the sync failed');
    expect(sandbox.sessionOpen).toBe(false);
    await expect(client.run(async (session) => session.accessKey.length)).resolves.toBeGreaterThan(
      0,
    );
  });

  it('when two pieces of work are asked for at once, then they run one after the other, each in its own session', async () => {
    const { client, waits } = sessions();
    const order: string[] = [];
    const work = (name: string) => async () => {
      order.push(`${name} starts`);
      await new Promise((resolve) => setImmediate(resolve));
      order.push(`${name} ends`);
    };
    await Promise.all([client.run(work('first')), client.run(work('second'))]);
    expect(order).toEqual(['first starts', 'first ends', 'second starts', 'second ends']);
    expect(waits).toEqual([]);
    expect(sandbox.calls.get('StartSession')).toBe(2);
  });

  it('when the user or password is wrong, or Magaya cannot be reached, then the error says so in words', async () => {
    await expect(
      sessions({ password: 'wrong' }).client.run(async () => undefined),
    ).rejects.toMatchObject({
      code: 'access_denied',
      kind: 'unauthorized',
      message: 'Magaya refused the user name or password.',
    });
    await expect(
      sessions({ url: 'http://127.0.0.1:9/Invoke?Handler=CSSoapService' }).client.run(
        async () => undefined,
      ),
    ).rejects.toMatchObject({
      code: 'unreachable',
      kind: 'unreachable',
      message: 'Magaya could not be reached.',
    });
  });

  it('when the change log is read in slices, then it lists the sandbox’s creations, editions and deletions by the bits asked for', async () => {
    const windows = [1, 2, 3, 4, 5, 6].map(() => {
      now += 60_000;
      return store.advance(now);
    });
    const { client } = sessions();
    const query = (entryTypes: number) =>
      client.run((session) =>
        session.queryLog({
          type: WAREHOUSE_RECEIPT,
          start: new Date(NOW),
          end: new Date(now + 1000),
          entryTypes,
          flags: 0,
          sliceMs: 120_000,
        }),
      );
    expect(
      windows.flatMap((window) => [...window.added, ...window.advanced]).length,
    ).toBeGreaterThan(6);
    const idsOf = (items: { guid: string }[]) =>
      new Set(items.map((item) => sandboxIdOfGuid('receipt', item.guid)));
    expect(idsOf(await query(LogEntry.Creation))).toEqual(
      new Set(windows.flatMap((window) => window.added)),
    );
    expect(idsOf(await query(LogEntry.Edition))).toEqual(
      new Set(windows.flatMap((window) => window.advanced)),
    );
    expect(idsOf(await query(LogEntry.Deletion))).toEqual(
      new Set(windows.flatMap((window) => window.deleted)),
    );
    expect(sandbox.calls.get('QueryLog')).toBe(3 * 4); // six minutes and a second in slices of two minutes
  });

  it('when one receipt is asked for, then it comes by GUID or number; one that is gone is null, not an error', async () => {
    const { client } = sessions();
    const id = store.samples().scannedPackages[0]!.receiptId;
    const [byGuid, byNumber, gone] = await client.run(async (session) => [
      await session.getTransaction(
        { type: WAREHOUSE_RECEIPT, flags: 0, number: sandboxGuid('receipt', id) },
        'WarehouseReceipt',
      ),
      await session.getTransaction(
        { type: WAREHOUSE_RECEIPT, flags: 0, number: `WR-${id}` },
        'WarehouseReceipt',
      ),
      await session.getTransaction(
        { type: WAREHOUSE_RECEIPT, flags: 0, number: sandboxGuid('receipt', 1) },
        'WarehouseReceipt',
      ),
    ]);
    expect(byGuid && read(byGuid)).toMatchObject({ guid: sandboxGuid('receipt', id) });
    expect(byNumber && textOf(byNumber, 'Number')).toBe(`WR-${id}`);
    expect(gone).toBeNull();
  });
});

describe('Magaya attachments against the sandbox', () => {
  it('when a receipt’s attachments are listed, then the internal one is left out, and a photo’s bytes arrive whole from its wrapped base64', async () => {
    const { client } = sessions();
    const id = store.samples().scannedPackages[0]!.receiptId;
    const number = sandboxGuid('receipt', id);
    const { listed, photo, tooLarge, unknown } = await client.run(async (session) => {
      const listed = (await session.listAttachments({ type: WAREHOUSE_RECEIPT, number }))!;
      const first = listed[0]!.attachment;
      return {
        listed,
        photo: await session.getAttachment(
          { type: WAREHOUSE_RECEIPT, number, identifier: first.id },
          20_000_000,
        ),
        tooLarge: await session
          .getAttachment({ type: WAREHOUSE_RECEIPT, number, identifier: first.id }, 100)
          .catch((error: unknown) => error),
        unknown: await session.listAttachments({
          type: WAREHOUSE_RECEIPT,
          number: sandboxGuid('receipt', 1),
        }),
      };
    });
    const expected = (await new SandboxAttachments(7).list(store, id))!;
    expect(listed.map((entry) => entry.attachment.id)).toEqual(
      expected.map((attachment) => attachment.id),
    );
    expect(listed.every((entry) => entry.ownerGuid === number)).toBe(true);
    expect(listed[0]!.attachment).toMatchObject({
      kind: 'photo',
      contentType: 'image/jpeg',
      size: expected[0]!.size,
    });
    expect(photo!.byteLength).toBe(expected[0]!.size);
    expect(Buffer.from(photo!).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(tooLarge).toBeInstanceOf(AttachmentTooLargeError);
    expect(unknown).toBeNull();
  });
});

/** An answer's MethodResponse element, read as a test reads it. */
async function parsedAnswer(
  method: string,
  parameters: Parameters<typeof soapEnvelope>[1],
): Promise<XmlElement> {
  const { parseXml, childOf } = await import('~/server/provider/magaya/xml');
  const { body } = await rawCall(method, parameters);
  return childOf(parseXml(body), 'Body')!.children[0]!;
}

describe('Magaya SOAP client against recorded answers', () => {
  const fixture = (name: string) =>
    readFileSync(new URL(`../support/magaya/${name}`, import.meta.url), 'utf8');

  it('when an answer carries a list as escaped text, then its receipts are read from it', async () => {
    recorded = { status: 200, body: fixture('get-next-trans-by-date.xml') };
    const elements: XmlElement[] = [];
    const values = await callSoap(
      { url: recordedUrl, timeoutMs: 30_000 },
      'GetNextTransbyDate',
      { cookie: soapString('c1') },
      {
        wanted: new Set(['WarehouseReceipt']),
        onElement: (element) => elements.push(element),
      },
    );
    expect(values.get('more_results')).toBe('0');
    expect(values.get('cookie')).toBe('AAAB-7731');
    expect(
      elements.map((element) => [
        element.attributes.GUID,
        textOf(element, 'Number'),
        textOf(element, 'Notes'),
      ]),
    ).toEqual([
      ['0f6c1a52-3d38-4c55-8d0c-1b5e3f0a9e11', '105001', 'Keep dry & upright <2 boxes>'],
      ['0f6c1a52-3d38-4c55-8d0c-1b5e3f0a9e12', '105002', ''],
    ]);
  });

  it('when Magaya answers an error code, a Fault, or something that is no SOAP, then each is a MagayaError', async () => {
    recorded = { status: 200, body: fixture('start-session-license-in-use.xml') };
    await expect(
      callSoap({ url: recordedUrl, timeoutMs: 30_000 }, 'StartSession', {}),
    ).rejects.toMatchObject({
      code: 'license_in_use',
      message: 'Magaya has no API licence free: every licence is in use.',
    });
    recorded = { status: 500, body: fixture('fault.xml') };
    await expect(
      callSoap({ url: recordedUrl, timeoutMs: 30_000 }, 'GetNextTransbyDate', {}),
    ).rejects.toMatchObject({ code: 'fault' });
    recorded = { status: 200, body: '<html><body>Maintenance</body></html>' };
    await expect(
      callSoap({ url: recordedUrl, timeoutMs: 30_000 }, 'StartSession', {}),
    ).rejects.toMatchObject({ code: 'bad_response' });
    recorded = { status: 200, body: '<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>' };
    await expect(
      callSoap({ url: recordedUrl, timeoutMs: 30_000 }, 'StartSession', {}),
    ).rejects.toMatchObject({ code: 'bad_response' });
  });
});
