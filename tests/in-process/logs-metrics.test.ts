/**
 * The log and the metrics as an operator reads them: at the most talkative level, the whole log of a
 * sign-in, saved provider tokens, an OAuth2 connect and a password reset through a real SMTP server
 * holds none of their secrets; each request has one line with its id, route pattern, status, time and
 * size; GET /metrics answers Prometheus with its bearer token only.
 */
import { randomUUID } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { createUser, eventually, signIn, signedInAdmin, tokenOf } from '../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import { ADMIN_PASSWORD } from '../support/portal';
import { decide } from '../support/sandbox-steps';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server';

const METRICS_TOKEN = 'metrics-token-for-the-test-0123456789';
/** A JWT anywhere (header and payload both start with `{"`), and the sandbox's refresh token shape. */
const JWT_SHAPE = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/;
const REFRESH_SHAPE = /[\w-]{43}\.[0-9a-z]{5,8}\.[\w-]{43}/;

let portal: InProcessPortal;
let withoutMetrics: InProcessPortal;
let smtp: TestSmtpServer;
let admin: ApiClient;
/** Every secret the flows below handle: none may reach the log. */
const secrets = new Map<string, string>();

type LogLine = Record<string, any>;
const logLines = (): LogLine[] =>
  portal
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

const linkToken = (mail: ParsedMail) => {
  const match = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
  if (!match) throw new Error(`no reset link in: ${mail.text}`);
  return match[1]!;
};

beforeAll(async () => {
  smtp = await startSmtpServer();
  [portal, withoutMetrics] = await Promise.all([
    startInProcessPortal({
      LOG_LEVEL: 'trace',
      SMTP_URL: smtp.url,
      TRUST_PROXY: 'true',
      METRICS_TOKEN,
      SANDBOX_RECEIPTS: '5',
    }),
    startInProcessPortal({ SANDBOX_RECEIPTS: '5' }),
  ]);
  secrets.set('admin password', ADMIN_PASSWORD);

  // A sign-in that fails, then one that works.
  expect(
    (
      await new ApiClient(portal).post('/api/auth/login', {
        username: 'admin',
        password: 'not-the-password',
      })
    ).status,
  ).toBe(401);
  secrets.set('wrong password', 'not-the-password');
  admin = await signedInAdmin(portal);
  secrets.set('session cookie', tokenOf(admin));

  // Provider tokens saved by hand.
  const manual = {
    accessToken: `manual-access-${randomUUID()}`,
    refreshToken: `manual-refresh-${randomUUID()}`,
  };
  const saved = await admin.post('/api/tokens/update', manual);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  secrets.set('manual access token', manual.accessToken);
  secrets.set('manual refresh token', manual.refreshToken);

  // An OAuth2 connect with the sandbox: the code and state travel in the callback's query.
  const started = await admin.post('/api/tokens/oauth/authorize');
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const authorizationUrl = new URL(started.body.data.authorizationUrl);
  const consent = await decide(portal, authorizationUrl.searchParams, 'authorize');
  const callback = new URL(consent.headers.get('location')!);
  secrets.set('authorization code', callback.searchParams.get('code')!);
  secrets.set('state', callback.searchParams.get('state')!);
  expect((await admin.get(callback.pathname + callback.search)).status).toBe(200);
  expect((await admin.get('/api/tokens/status')).body.data).toMatchObject({
    hasAccessToken: true,
    source: 'oauth2',
  });

  // A forgotten password, reset with the link from the e-mail.
  const user = await createUser(admin, 'forgetful');
  secrets.set('user password', user.password);
  expect(
    (await new ApiClient(portal).post('/api/auth/password/forgot', { login: 'forgetful' })).status,
  ).toBe(202);
  const mails = await eventually(
    () => smtp.messages.filter((mail) => mail.text?.includes('/reset-password/')),
    (found) => found.length > 0,
  );
  const resetToken = linkToken(mails[0]!);
  secrets.set('reset token', resetToken);
  expect((await new ApiClient(portal).get(`/reset-password/${resetToken}`)).status).toBe(200);
  const newPassword = `new-secret-${randomUUID()}`;
  secrets.set('new password', newPassword);
  expect(
    (
      await new ApiClient(portal).post('/api/auth/password/reset', {
        token: resetToken,
        newPassword,
      })
    ).status,
  ).toBe(200);
  const forgetful = await signIn(portal, { username: 'forgetful', password: newPassword });
  secrets.set('second session cookie', tokenOf(forgetful));
  await forgetful.get('/api/auth/profile');
});

afterAll(async () => {
  await Promise.all([portal?.stop(), withoutMetrics?.stop()]);
  await smtp?.stop();
});

describe('the log', () => {
  it('when sign-ins, provider tokens, an OAuth2 connect and a password reset went through it at trace level, then it holds none of their secrets', () => {
    const log = portal.output();
    expect(logLines().some((line) => line.level === 'debug' || line.level === 'trace')).toBe(true);
    for (const [name, value] of secrets)
      expect(log.includes(value), `the ${name} is in the log`).toBe(false);
    expect(log).not.toMatch(JWT_SHAPE);
    expect(log).not.toMatch(REFRESH_SHAPE);
    expect(log).not.toMatch(/portal_session=/);
  });

  it('when a signed-in request is answered, then one info line gives its id, method, route pattern, status, time, size and user', async () => {
    const response = await admin.get('/api/auth/profile?lang=nl');
    const reqId = response.headers.get('x-request-id')!;
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    const lines = await eventually(
      () => logLines().filter((line) => line.reqId === reqId && line.msg === 'request'),
      (found) => found.length > 0,
    );
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).toMatchObject({
      level: 'info',
      method: 'GET',
      route: '/api/auth/profile',
      status: 200,
      userId: 1,
    });
    expect(Date.parse(line.time)).not.toBeNaN();
    expect(line.ms).toEqual(expect.any(Number));
    expect(line.bytes).toBeGreaterThan(0);
  });

  it('when a reset link is opened, then its line names the route pattern, never the token', () => {
    const lines = logLines().filter(
      (line) => line.msg === 'request' && String(line.route).startsWith('/reset-password'),
    );
    expect(lines.map((line) => line.route)).toContain('/reset-password/[token]');
    expect(logLines().filter((line) => line.route === '/api/auth/password/reset')).toHaveLength(1);
  });

  it('when a proxy sends a request id (TRUST_PROXY), then a safe one is kept and echoed, and an unsafe one replaced', async () => {
    const kept = await new ApiClient(portal).get('/api/health/live', {
      headers: { 'X-Request-Id': 'lb-1234.abc' },
    });
    expect(kept.headers.get('x-request-id')).toBe('lb-1234.abc');
    await eventually(
      () => logLines().filter((line) => line.reqId === 'lb-1234.abc'),
      (found) => found.length === 1,
    );
    const replaced = await new ApiClient(portal).get('/api/health/live', {
      headers: { 'X-Request-Id': 'bad id <script>' },
    });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(portal.output()).not.toContain('<script>');
  });

  it('when the outbox and the sync log, then each line names its component', () => {
    const components = new Set(logLines().map((line) => line.component));
    expect(components).toContain('startup');
    expect(components).toContain('sync');
  });
});

describe('GET /metrics', () => {
  const scrape = (target: InProcessPortal, token?: string) =>
    fetch(`${target.url}/metrics`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      redirect: 'manual',
    });

  it('when asked without the token or with a wrong one, then 401; with METRICS_TOKEN unset, 404 and no redirect to sign-in', async () => {
    expect((await scrape(portal)).status).toBe(401);
    expect((await scrape(portal, `${METRICS_TOKEN}x`)).status).toBe(401);
    const missing = await scrape(withoutMetrics, METRICS_TOKEN);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('location')).toBeNull();
  });

  it('when asked with the token, then it answers the exposition format with the portal metrics and the process defaults', async () => {
    await eventually(
      () => portal.portal.outbox.deliverDueMessages(),
      () => smtp.messages.length > 0,
    );
    const response = await scrape(portal, METRICS_TOKEN);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toMatch(
      /^portal_http_request_duration_seconds_count\{method="GET",route="\/api\/auth\/profile",status_class="2xx"\} \d+$/m,
    );
    expect(text).toMatch(/^portal_sign_ins_total\{outcome="wrong"\} [1-9]/m);
    expect(text).toMatch(/^portal_sign_ins_total\{outcome="success"\} [1-9]/m);
    expect(text).toMatch(/^portal_syncs_total\{result="success"\} [1-9]/m);
    expect(text).toMatch(/^portal_sync_last_success_timestamp_seconds [1-9]\d+$/m);
    expect(text).toMatch(/^portal_receipts_mirrored 5$/m);
    expect(text).toMatch(/^portal_outbox_sent_total [1-9]/m);
    expect(text).toMatch(/^portal_outbox_pending_messages \d+$/m);
    expect(text).toMatch(/^portal_active_sessions [1-9]/m);
    expect(text).toMatch(
      /^portal_provider_calls_total\{operation="list-receipts",outcome="ok"\} [1-9]/m,
    );
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(text).not.toContain('/reset-password/' + secrets.get('reset token'));
  });
});
