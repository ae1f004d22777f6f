/**
 * The outbox keeps status e-mails across a restart: a digest the SMTP server refused waits in the
 * database, is retried with growing waits, and goes out from the restarted portal once the server takes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type Portal } from '../support/portal';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server';
import {
  assignConsignees,
  createUser,
  eventually,
  queryDatabase,
  signIn,
  signedInAdmin,
  waitForMirror,
} from '../support/api-steps';

let portal: Portal;
let smtp: TestSmtpServer;
let env: Record<string, string>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  env = {
    SMTP_URL: smtp.url,
    MAIL_RETRY_SECONDS: '1',
    SANDBOX_RECEIPTS: '120',
    SANDBOX_CONTROL: 'true',
    SYNC_INTERVAL_SECONDS: '1',
    SANDBOX_CHANGE_SECONDS: '86400',
  };
  portal = await startPortal(env);
});

afterAll(async () => {
  await portal?.stop();
  await smtp?.stop();
});

type OutboxRow = {
  id: number;
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
  failedAt: string | null;
  nextAttemptAt: string;
};
const outbox = () =>
  queryDatabase<OutboxRow>(
    portal,
    'SELECT id, attempts, lastError, sentAt, failedAt, nextAttemptAt FROM outbox ORDER BY id',
  );

describe('the outbox across a restart', () => {
  it('when the SMTP server refuses and the portal restarts, then the waiting digest is sent by the new process', async () => {
    const admin = await signedInAdmin(portal);
    await waitForMirror(admin);
    await admin.post('/api/consignees/import');
    const consigneeIds = (
      (await admin.get('/api/consignees')).body.data as Array<{ id: number }>
    ).map((consignee) => consignee.id);
    const customer = await createUser(admin, 'herstart');
    await assignConsignees(admin, customer.id, consigneeIds);
    expect(
      (
        await (
          await signIn(portal, customer)
        ).put('/api/auth/profile/preferences', { statusEmails: true })
      ).status,
    ).toBe(200);

    smtp.refusing = true;
    await admin.post('/sandbox/control/advance');
    // Refused again and again, each wait longer than the one before (1 s, 2 s, …).
    const [refused] = await eventually(
      outbox,
      (rows) => rows.length === 1 && rows[0]!.attempts >= 2,
      60_000,
    );
    expect(refused!.sentAt).toBeNull();
    expect(refused!.failedAt).toBeNull();
    expect(refused!.lastError).toMatch(/451/);

    await portal.stop({ keepDir: true });
    smtp.refusing = false;
    const received = smtp.messages.length;
    portal = await startPortal(env, { dir: portal.dir });

    const [sent] = await eventually(
      outbox,
      (rows) => rows[0]?.sentAt !== null && rows[0]?.sentAt !== undefined,
      60_000,
    );
    expect(sent!.id).toBe(refused!.id);
    expect(sent!.sentAt).not.toBeNull();
    expect(smtp.messages[received]!.text).toContain('The status of these receipts has changed:');
    // Every row went out once: the restarted sandbox starts from its first state again, so the new
    // process may queue a digest of its own for statuses that moved back.
    const rows = await eventually(outbox, (all) => all.every((row) => row.sentAt !== null), 60_000);
    expect(smtp.messages.length - received).toBe(rows.length);
  });
});
