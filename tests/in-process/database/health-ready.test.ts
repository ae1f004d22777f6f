/**
 * GET /api/health/live and /api/health/ready: ready only once start-up is done, the database answers and
 * every migration is applied; the sync and the outbox are reported but a provider or SMTP outage never
 * makes the process unready.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../support/api-client';
import { enqueueJobs } from '~/server/services/outbox/outbox';
import { eventually, signedInAdmin } from '../../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp-server';
import { stallLimit } from '../../support/test-pace';

const running: InProcessPortal[] = [];
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await Promise.all(running.map((portal) => portal.stop()));
  await smtp?.stop();
});

const ready = (portal: InProcessPortal) => new ApiClient(portal).get('/api/health/ready');

describe('before and after start-up', () => {
  it('when the portal has not started yet, then live is 200 and ready is 503 naming the start-up; once started, ready is 200', async () => {
    const portal = await startInProcessPortal({}, { deferStart: true, background: false });
    running.push(portal);

    const live = await new ApiClient(portal).get('/api/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({
      success: true,
      data: { status: 'ok', checks: { process: { status: 'ok' } } },
    });

    const before = await ready(portal);
    expect(before.status).toBe(503);
    expect(before.body).toMatchObject({
      success: false,
      errorType: 'INTERNAL_ERROR',
      message: 'The portal is not ready to serve yet.',
      data: {
        status: 'fail',
        checks: {
          startup: { status: 'fail', state: 'starting' },
          database: { status: 'skipped' },
          migrations: { status: 'skipped' },
        },
      },
    });

    await portal.start();
    const after = await ready(portal);
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body).toMatchObject({
      success: true,
      data: {
        status: 'ok',
        checks: {
          startup: { status: 'ok', state: 'started' },
          database: { status: 'ok' },
          migrations: { status: 'ok', pending: 0 },
        },
      },
    });
    expect(Object.keys(after.body.data.checks).sort()).toEqual([
      'database',
      'migrations',
      'outbox',
      'startup',
      'sync',
    ]);
    expect(after.headers.get('set-cookie')).toBeNull();
  });
});

describe('outages that do not make a process unready', () => {
  let portal: InProcessPortal;
  let admin: ApiClient;

  beforeAll(async () => {
    // No scheduled sync: a sync under way when the outage starts would be joined by the test's and succeed.
    portal = await startInProcessPortal({
      SANDBOX_CONTROL: 'true',
      SANDBOX_RECEIPTS: '5',
      SMTP_URL: smtp.url,
      MAIL_RETRY_SECONDS: '600',
      SYNC_INTERVAL_SECONDS: '3600',
    });
    running.push(portal);
    admin = await signedInAdmin(portal);
    await eventually(
      () => ready(portal),
      (response) => response.body.data?.checks.sync.status === 'ok',
    );
  }, stallLimit(120_000));

  it('when the sandbox provider is down and a sync fails, then sync is "failing" and ready stays 200', async () => {
    // Joins the start's sync if it is still under way (its readiness is written before it ends), so the next is a sync of its own.
    expect((await admin.post('/api/sync')).status).toBe(200);
    expect((await admin.post('/sandbox/control/outage')).status).toBe(200);
    try {
      const response = await admin.post('/api/sync');
      expect(response.status).not.toBe(200);
      const answer = await ready(portal);
      expect(answer.status).toBe(200);
      expect(answer.body.data.checks.sync).toMatchObject({ status: 'failing' });
      expect(answer.body.data.checks.sync.lastErrorAt).toEqual(expect.any(String));
    } finally {
      await admin.post('/sandbox/control/recover');
    }
    await admin.post('/api/sync');
    expect((await ready(portal)).body.data.checks.sync.status).toBe('ok');
  });

  it('when the SMTP server refuses and an e-mail waits, then outbox is "backlog" and ready stays 200', async () => {
    smtp.refusing = true;
    try {
      // An invitation is an e-mail the outbox must send now.
      const invited = await admin.post('/api/auth/users', {
        username: 'waits',
        fullName: 'Waits',
        email: 'waits@example.com',
        role: 'viewer',
        invite: true,
      });
      expect(invited.status, JSON.stringify(invited.body)).toBe(201);
      const answer = await eventually(
        () => ready(portal),
        (response) => response.body.data?.checks.outbox.status === 'backlog',
      );
      expect(answer.status).toBe(200);
      expect(answer.body.data.checks.outbox.pending).toBeGreaterThan(0);
    } finally {
      smtp.refusing = false;
    }
  });

  it('when deliveries to another system wait for a retry, then the outbox is "backlog" and counts them as /metrics does', async () => {
    const metricsToken = 'metrics-token-for-the-readiness-test-0123';
    const quiet = await startInProcessPortal({ METRICS_TOKEN: metricsToken });
    running.push(quiet);
    // The other side is away: each attempt fails, and the job waits for its next.
    let attempts = 0;
    quiet.portal.outbox.handle('test.away', {
      async run() {
        attempts += 1;
        throw new Error('the other side is away');
      },
      async gaveUp() {},
    });
    await enqueueJobs(
      quiet.portal,
      Array.from({ length: 3 }, (_, index) => ({ kind: 'test.away', payload: { index } })),
    );
    await eventually(
      () => attempts,
      (count) => count >= 3,
    );
    await quiet.portal.outbox.idle();
    const metrics = await (
      await fetch(`${quiet.url}/metrics`, { headers: { Authorization: `Bearer ${metricsToken}` } })
    ).text();
    expect(metrics.split('\n').filter((line) => line.startsWith('portal_outbox_pending'))).toEqual([
      'portal_outbox_pending_messages 0',
      'portal_outbox_pending_jobs 3',
    ]);
    const answer = await ready(quiet);
    expect(answer.status).toBe(200);
    expect(answer.body.data.checks.outbox).toMatchObject({
      status: 'backlog',
      pending: 3,
      pendingJobs: 3,
    });
  });
});
