/**
 * What the audit trail records beyond the admins' actions: the ways into an account (reset requests and
 * resets by link, invitations accepted, one's own password changes, two-factor setups, sign-ins the
 * limit refused), what customers open to others or send out (share links, pre-alerts, webhook tests),
 * audit exports, and each API token's first use of a day. And the limits on share links.
 */
import { parse } from 'csv-parse/sync';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../support/api-client';
import {
  allReceipts,
  createUser,
  databaseDate,
  eventually,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  waitForMirror,
  writeDatabase,
} from '../../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { validPrealert } from '../../support/prealert-steps';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp-server';

const DEMO_PASSWORD = 'demo-password-1';
const DAY_MS = 86_400_000;

let portal: InProcessPortal;
let smtp: TestSmtpServer;
let admin: ApiClient;
let demo: ApiClient;
let demoId: number;
let demoConsigneeIds: number[];

beforeAll(async () => {
  smtp = await startSmtpServer();
  portal = await startInProcessPortal({
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://portal.example.com',
    SANDBOX_RECEIPTS: '60',
    SYNC_INTERVAL_SECONDS: '3600',
    DEMO_USERS: 'true',
    DEMO_PASSWORD,
    LOGIN_MAX_ATTEMPTS: '3',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    // The clock moves by days: the test's sessions must outlast that.
    SESSION_IDLE_MINUTES: '100000',
    SESSION_MAX_HOURS: '10000',
  });
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  demo = await signIn(portal, { username: 'demo', password: DEMO_PASSWORD });
  demoId = (await demo.get('/api/auth/profile')).body.data.user.id;
  demoConsigneeIds = (
    await queryDatabase<{ consigneeId: number }>(
      portal,
      'SELECT consigneeId FROM consignee_assignments WHERE userId = ? ORDER BY consigneeId',
      [demoId],
    )
  ).map((row) => Number(row.consigneeId));
}, 60_000);

afterAll(async () => {
  await portal?.stop();
  await smtp?.stop();
});

type Entry = {
  actorId: number | null;
  actorName: string;
  action: string;
  target: string | null;
  detail: string | null;
};
const entries = (action: string) =>
  queryDatabase<Entry>(
    portal,
    'SELECT actorId, actorName, action, target, detail FROM audit_entries WHERE action = ? ORDER BY id',
    [action],
  );

/** The detail of each entry of `action` as the API answers it, and as the CSV export has it, in a language. */
async function shownDetails(
  action: string,
  language: 'en' | 'nl',
): Promise<{ api: Array<string | null>; csv: string[] }> {
  const headers = { 'Accept-Language': language };
  const listed = await admin.request('GET', `/api/audit?action=${action}&limit=100`, { headers });
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  const exported = await fetch(`${portal.url}/api/audit/export?action=${action}`, {
    headers: { ...headers, Cookie: admin.cookie! },
  });
  expect(exported.status).toBe(200);
  const rows: string[][] = parse((await exported.text()).replace(/^\uFEFF/, ''));
  return {
    api: listed.body.data.map((entry: { detail: string | null }) => entry.detail),
    csv: rows.slice(1).map((row) => row[5]!),
  };
}

/** An entry as stored by another version of the portal. */
async function insertEntry(action: string, detail: string): Promise<void> {
  const columns = 'at, actorId, actorName, action, target, clientAddress, detail';
  await writeDatabase(
    portal,
    `INSERT INTO audit_entries (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [databaseDate(new Date(portal.clock.now())), null, 'unknown user', action, null, null, detail],
  );
}

async function mailTo(address: string, subject: string): Promise<ParsedMail> {
  const [mail] = await eventually(
    () =>
      smtp.messages.filter(
        (found) =>
          found.to &&
          !Array.isArray(found.to) &&
          found.to.text === address &&
          found.subject === subject,
      ),
    (found) => found.length > 0,
  );
  return mail!;
}

describe('the ways into an account', () => {
  it('records a reset asked for and done by link, under the account, never under a name the asker typed', async () => {
    const user = await createUser(admin, 'auditreset');
    await new ApiClient(portal).post('/api/auth/password/forgot', { login: user.username });
    await portal.portal.afterAnswer.settled();
    const mail = await mailTo('auditreset@example.com', 'Freight Portal: choose a new password');
    const token = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1]!;
    expect(await entries('password.reset-requested')).toContainEqual(
      expect.objectContaining({
        actorId: null,
        actorName: 'unknown user',
        target: 'user auditreset',
        detail: JSON.stringify({ outcome: 'link sent' }),
      }),
    );
    expect(
      (
        await new ApiClient(portal).post('/api/auth/password/reset', {
          token,
          newPassword: 'audited-reset-1',
        })
      ).status,
    ).toBe(200);
    expect(await entries('password.reset-by-link')).toContainEqual(
      expect.objectContaining({
        actorId: user.id,
        actorName: 'auditreset',
        target: 'user auditreset',
      }),
    );
  });

  it('records an invitation accepted, one’s own password change and a two-factor setup started', async () => {
    const created = await admin.post('/api/auth/users', {
      username: 'auditinvite',
      email: 'auditinvite@example.com',
      role: 'viewer',
      invite: true,
    });
    const id = created.body.data.user.id;
    const mail = await mailTo('auditinvite@example.com', 'Freight Portal: your invitation');
    const token = /\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1]!;
    expect(
      (
        await new ApiClient(portal).post('/api/auth/invitations/accept', {
          token,
          newPassword: 'invited-1',
        })
      ).status,
    ).toBe(200);
    expect(await entries('user.invitation-accepted')).toContainEqual(
      expect.objectContaining({
        actorId: id,
        actorName: 'auditinvite',
        target: 'user auditinvite',
      }),
    );

    const client = await signIn(portal, { username: 'auditinvite', password: 'invited-1' });
    expect(
      (
        await client.post('/api/auth/change-password', {
          currentPassword: 'invited-1',
          newPassword: 'invited-2',
        })
      ).status,
    ).toBe(200);
    expect(await entries('password.changed')).toContainEqual(
      expect.objectContaining({ actorId: id, target: 'user auditinvite' }),
    );
    expect((await client.post('/api/auth/2fa/setup')).status).toBe(200);
    expect(await entries('two-factor.setup-started')).toContainEqual(
      expect.objectContaining({ actorId: id, target: 'user auditinvite' }),
    );
  });

  it('records a sign-in the login limit refused with 429', async () => {
    const user = await createUser(admin, 'auditlimited');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(
        (
          await new ApiClient(portal).post('/api/auth/login', {
            username: user.username,
            password: `wrong-${attempt}`,
          })
        ).status,
      ).toBe(401);
    }
    expectError(
      await new ApiClient(portal).post('/api/auth/login', {
        username: user.username,
        password: user.password,
      }),
      429,
      'RATE_LIMITED',
    );
    expect(await entries('sign-in.limited')).toContainEqual(
      expect.objectContaining({ actorId: user.id, actorName: 'auditlimited' }),
    );
  });
});

describe('what customers open to others or send out', () => {
  it('records share links made and revoked, pre-alerts made, changed and withdrawn, and webhook tests', async () => {
    const [receipt] = await allReceipts(demo);
    const shared = await demo.post(`/api/receipts/${receipt!.id}/share`);
    expect(shared.status).toBe(201);
    expect((await demo.delete(`/api/shares/${shared.body.data.id}`)).status).toBe(200);
    expect(await entries('share-link.created')).toContainEqual(
      expect.objectContaining({ actorId: demoId, target: `receipt ${receipt!.number}` }),
    );
    expect(await entries('share-link.revoked')).toContainEqual(
      expect.objectContaining({ actorId: demoId, target: `share link ${shared.body.data.id}` }),
    );

    const fields = validPrealert(demoConsigneeIds[0]!);
    const made = await demo.post('/api/prealerts', fields);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { id } = made.body.data;
    expect(
      (await demo.put(`/api/prealerts/${id}`, { ...fields, shipper: 'Another shop' })).status,
    ).toBe(200);
    expect((await demo.delete(`/api/prealerts/${id}`)).status).toBe(200);
    for (const action of ['prealert.created', 'prealert.updated', 'prealert.deleted']) {
      expect(await entries(action)).toContainEqual(
        expect.objectContaining({
          actorId: demoId,
          target: `pre-alert ${id} (${made.body.data.trackingNumber})`,
        }),
      );
    }

    const webhook = await demo.post('/api/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['receipt.created'],
    });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
    expect((await demo.post(`/api/webhooks/${webhook.body.data.id}/test`)).status).toBe(202);
    expect(await entries('webhook.test-sent')).toContainEqual(
      expect.objectContaining({ actorId: demoId, target: `webhook ${webhook.body.data.id}` }),
    );
  });
});

describe('strangers’ input', () => {
  it('when a made-up username fails to sign in, then the actor is "unknown user" and the name only a bounded value of the detail', async () => {
    const madeUp = `nobody"; admin signed in ${'x'.repeat(200)}`;
    expect(
      (
        await new ApiClient(portal).post('/api/auth/login', {
          username: madeUp,
          password: 'whatever-1',
        })
      ).status,
    ).toBeGreaterThanOrEqual(400);
    const refused = await new ApiClient(portal).post('/api/auth/login', {
      username: 'made-up-name',
      password: 'whatever-1',
    });
    expect(refused.status).toBe(401);
    const failed = await entries('sign-in.failed');
    expect(failed.some((entry) => entry.actorName === 'made-up-name')).toBe(false);
    const entry = failed.find((found) => found.detail?.includes('made-up-name'));
    expect(entry).toMatchObject({ actorId: null, actorName: 'unknown user' });
    expect(JSON.parse(entry!.detail!)).toEqual({
      reason: 'no such account',
      attemptedUsername: 'made-up-name',
    });
  });

  it('when a stranger’s name holds quotes, control and direction characters, then the screen and the export show it quoted and escaped', async () => {
    // The sign-in form refuses such names; a detail holds text from elsewhere too, and a newer version's fields.
    const madeUp = `evil"; Reason: wrong password\u0007\u202e`;
    await insertEntry(
      'sign-in.failed',
      JSON.stringify({
        reason: 'no such account',
        attemptedUsername: madeUp,
        note: 'a "newer" field',
      }),
    );
    const escaped = `"evil\\"; Reason: wrong password\\u0007\\u202e"`;
    const english = `Reason: no such account; Username tried: ${escaped}; note: "a \\"newer\\" field"`;
    expect(await shownDetails('sign-in.failed', 'en')).toEqual({
      api: expect.arrayContaining([english]),
      csv: expect.arrayContaining([english]),
    });
    const dutch = `Reden: account bestaat niet; Geprobeerde gebruikersnaam: ${escaped}; note: "a \\"newer\\" field"`;
    expect((await shownDetails('sign-in.failed', 'nl')).api).toContain(dutch);
  });

  it('when a token’s name reads like more detail, then its entry keeps the name a value of its own, shown quoted in its own field', async () => {
    const created = await demo.post('/api/auth/tokens', {
      name: 'erp "x", 365 days',
      expiresInDays: 30,
    });
    expect(created.status).toBe(201);
    const { prefix } = created.body.data;
    const [entry] = (await entries('api-token.created')).filter((found) =>
      found.detail?.includes(prefix),
    );
    expect(JSON.parse(entry!.detail!)).toEqual({ prefix, name: 'erp "x", 365 days', days: 30 });
    const english = `Token starts with: "${prefix}"; Name: "erp \\"x\\", 365 days"; Valid for (days): 30`;
    expect(await shownDetails('api-token.created', 'en')).toEqual({
      api: expect.arrayContaining([english]),
      csv: expect.arrayContaining([english]),
    });
    const dutch = `Token begint met: "${prefix}"; Naam: "erp \\"x\\", 365 days"; Geldig (dagen): 30`;
    expect(await shownDetails('api-token.created', 'nl')).toEqual({
      api: expect.arrayContaining([dutch]),
      csv: expect.arrayContaining([dutch]),
    });
  });

  it('when an entry was written by an older version in words, then the screen and the export show its words as they were', async () => {
    const words = ['role: viewer', '{ not JSON, "but" words }'];
    for (const detail of words) await insertEntry('user.deleted', detail);
    for (const language of ['en', 'nl'] as const) {
      const { api, csv } = await shownDetails('user.deleted', language);
      expect(api).toEqual(expect.arrayContaining(words));
      expect(csv).toEqual(expect.arrayContaining(words));
    }
  });
});

describe('exports and API tokens', () => {
  it('records an audit export with its filters', async () => {
    const response = await admin.request('GET', '/api/audit/export?action=sign-in.failed');
    expect(response.status).toBe(200);
    expect(await entries('audit.exported')).toContainEqual(
      expect.objectContaining({
        actorName: 'admin',
        detail: JSON.stringify({ action: 'sign-in.failed' }),
      }),
    );
  });

  it('records the first use of each API token in a day, once', async () => {
    const created = await demo.post('/api/auth/tokens', { name: 'erp', expiresInDays: 30 });
    const { token, id } = created.body.data;
    const read = () =>
      new ApiClient(portal).request('GET', '/api/receipts', {
        origin: null,
        headers: { Authorization: `Bearer ${token}` },
      });
    const used = async () =>
      (await entries('api-token.used')).filter((entry) => entry.detail?.includes('"erp"'));
    await Promise.all([read(), read(), read()]);
    expect(await used()).toEqual([
      expect.objectContaining({ actorId: demoId, actorName: 'demo', target: 'user demo' }),
    ]);
    portal.clock.advance(DAY_MS);
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);
    expect(await used()).toHaveLength(2);
    expect(id).toBeGreaterThan(0);
  });
});

describe('share links', () => {
  it('are limited to 20 made per window and 50 working at once', async () => {
    // One working link per receipt: each share is of another receipt, so the sharer sees all of them (an admin-viewer).
    const user = await createUser(admin, 'sharer', 'admin-viewer');
    const client = await signIn(portal, user);
    const receipts = await allReceipts(client);
    expect(receipts.length).toBeGreaterThan(52);
    let next = 0;
    const share = () => client.post(`/api/receipts/${receipts[next++]!.id}/share`);
    for (let made = 0; made < 20; made += 1) expect((await share()).status).toBe(201);
    expectError(
      await share(),
      429,
      'RATE_LIMITED',
      'You made many share links in a short time. Please try again in a few minutes.',
    );
    portal.clock.advance(16 * 60_000);
    for (let made = 0; made < 20; made += 1) expect((await share()).status).toBe(201);
    portal.clock.advance(16 * 60_000);
    for (let made = 0; made < 10; made += 1) expect((await share()).status).toBe(201);
    expectError(
      await share(),
      409,
      'CONFLICT',
      'You already have 50 working share links, the most allowed. Revoke one you no longer need in Profile Settings first.',
    );
    const [link] = (await client.get('/api/shares')).body.data;
    expect((await client.delete(`/api/shares/${link.id}`)).status).toBe(200);
    expect((await share()).status).toBe(201);
  });
});
