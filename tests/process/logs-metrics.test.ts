/**
 * The built server's log and metrics: JSON lines on standard output, static files logged at debug as
 * one route, the request id on every answer, and /metrics and readiness answered by server.mjs's portal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/api-steps';
import { startPortal, type Portal } from '../support/portal';

const METRICS_TOKEN = 'process-metrics-token-0123456789';
let portal: Portal;

beforeAll(async () => {
  portal = await startPortal({ LOG_LEVEL: 'debug', METRICS_TOKEN, SANDBOX_RECEIPTS: '5' });
});

afterAll(async () => {
  await portal?.stop();
});

const lines = () =>
  portal
    .output()
    .split('\n')
    .filter((line) => line.trim() !== '');

describe('the built server', () => {
  it('when it starts off a terminal, then every line it writes is a JSON object with a level and a time', () => {
    for (const line of lines())
      expect(JSON.parse(line)).toMatchObject({
        level: expect.any(String),
        time: expect.any(String),
      });
  });

  it('when a static file is served, then it has a request id and a debug line under the route (static)', async () => {
    const response = await fetch(`${portal.url}/favicon.svg`);
    expect(response.status).toBe(200);
    const reqId = response.headers.get('x-request-id')!;
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    const [line] = await eventually(
      () => lines().filter((text) => text.includes(reqId)),
      (found) => found.length > 0,
    );
    expect(JSON.parse(line!)).toMatchObject({
      level: 'debug',
      route: '(static)',
      status: 200,
      method: 'GET',
      msg: 'request',
    });
  });

  it('when readiness and metrics are asked for, then ready is 200 and the metrics count the static file and the request durations', async () => {
    expect((await fetch(`${portal.url}/api/health/ready`)).status).toBe(200);
    const response = await fetch(`${portal.url}/metrics`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toMatch(
      /^portal_http_request_duration_seconds_count\{method="GET",route="\(static\)",status_class="2xx"\} [1-9]/m,
    );
    expect(text).toMatch(
      /^portal_http_request_duration_seconds_count\{method="GET",route="\/api\/health\/ready",status_class="2xx"\} 1$/m,
    );
    expect(text).toMatch(/^nodejs_heap_size_used_bytes /m);
  });
});
