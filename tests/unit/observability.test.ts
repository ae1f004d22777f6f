/** The logger's redaction, the request id's rules and the settings of logs and metrics. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '~/server/config';
import { requestIdOf } from '~/server/http/request-log';
import { hasBearerToken } from '~/server/http/bearer';
import { createLogger, RequestScope } from '~/server/logger';

function capture(level: 'trace' | 'info' = 'trace') {
  const lines: string[] = [];
  const requestScope = new RequestScope();
  const log = createLogger({
    level,
    format: 'json',
    requestScope,
    destination: { write: (line: string) => void lines.push(line) },
  });
  return { log, lines, requestScope };
}

describe('the logger', () => {
  it('when fields with credentials are logged by mistake, then their values never appear', () => {
    const { log, lines } = capture();
    log.info(
      {
        password: 'p-1',
        body: { password: 'p-2', newPassword: 'p-3', token: 't-1', code: '123456' },
        tokens: { accessToken: 'a-1', refreshToken: 'r-1' },
        req: { headers: { cookie: 'portal_session=s-1', authorization: 'Bearer b-1' } },
        headers: { 'set-cookie': 'portal_session=s-2' },
      },
      'oops',
    );
    const text = lines.join('');
    for (const secret of ['p-1', 'p-2', 'p-3', 't-1', '123456', 'a-1', 'r-1', 's-1', 'b-1', 's-2'])
      expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
    // What is no secret stays as it was logged.
    expect(JSON.parse(text)).toMatchObject({ body: { code: '[redacted]' }, msg: 'oops' });
  });

  it('when an error carrying a token, or headers with a user agent, is logged, then only the secrets are censored', () => {
    const { log, lines } = capture();
    const error = Object.assign(new Error('provider refused'), { token: 'e-1', status: 401 });
    log.warn(
      {
        err: error,
        req: {
          method: 'GET',
          headers: { 'user-agent': 'Mobile Safari', cookie: 'portal_session=s-3' },
        },
        when: new Date('2026-12-01T00:00:00Z'),
        ids: [1, 2],
      },
      'refused',
    );
    const line = JSON.parse(lines[0]!);
    expect(lines[0]).not.toContain('e-1');
    expect(lines[0]).not.toContain('s-3');
    expect(line.err).toMatchObject({
      type: 'Error',
      message: 'provider refused',
      status: 401,
      token: '[redacted]',
    });
    expect(line.err.stack).toContain('provider refused');
    expect(line.req).toEqual({
      method: 'GET',
      headers: { 'user-agent': 'Mobile Safari', cookie: '[redacted]' },
    });
    expect(line).toMatchObject({ when: '2026-12-01T00:00:00.000Z', ids: [1, 2] });
  });

  it('when a line is logged within a request, then it carries the request id; outside, none', () => {
    const { log, lines, requestScope } = capture();
    requestScope.run('req-1', () => {
      log.info({ component: 'sync' }, 'inside');
      log.info('again');
    });
    log.info('outside');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      reqId: 'req-1',
      component: 'sync',
      msg: 'inside',
      level: 'info',
    });
    // The fields of one line never stick to the next.
    expect(JSON.parse(lines[1]!)).not.toHaveProperty('component');
    expect(JSON.parse(lines[1]!)).toMatchObject({ reqId: 'req-1' });
    expect(JSON.parse(lines[2]!)).not.toHaveProperty('reqId');
  });

  it("when a database error is logged, then its message and stack are, its statement's bound values not", () => {
    const { log, lines } = capture();
    const error = Object.assign(new Error('no such table: sessions'), {
      sql: 'SELECT 1 WHERE x = ?',
      parameters: ['bound-secret'],
    });
    log.error({ err: error }, 'failed');
    const line = JSON.parse(lines[0]!);
    expect(line.err).toMatchObject({ type: 'Error', message: 'no such table: sessions' });
    expect(line.err.stack).toContain('no such table');
    expect(lines[0]).not.toContain('bound-secret');
  });

  it('when the level is info, then debug lines are left out', () => {
    const { log, lines } = capture('info');
    log.debug('quiet');
    expect(lines).toEqual([]);
  });
});

describe('the request id', () => {
  it('when a proxy is trusted and its id is safe, then it is kept; otherwise a new one is made', () => {
    expect(requestIdOf('lb-1.2:3_x', true)).toBe('lb-1.2:3_x');
    expect(requestIdOf('lb-1', false)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf('has space', true)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf('x'.repeat(129), true)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(undefined, true)).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the bearer token', () => {
  const request = (authorization?: string) =>
    new Request('http://x/metrics', { headers: authorization ? { authorization } : {} });
  it('when the token matches, then yes; missing, wrong or another scheme, no', () => {
    expect(hasBearerToken(request('Bearer right-token'), 'right-token')).toBe(true);
    expect(hasBearerToken(request('Bearer wrong-token'), 'right-token')).toBe(false);
    expect(hasBearerToken(request('Basic right-token'), 'right-token')).toBe(false);
    expect(hasBearerToken(request(), 'right-token')).toBe(false);
  });
});

describe('loadConfig LOG_LEVEL, LOG_FORMAT and METRICS_TOKEN', () => {
  it('when unset, then info, JSON off a terminal and pretty on one, and no metrics', () => {
    expect(loadConfig({})).toMatchObject({
      logLevel: 'info',
      logFormat: 'json',
      metricsToken: null,
    });
    expect(loadConfig({}, process.cwd(), true).logFormat).toBe('pretty');
  });

  it('when set, then taken; when unknown or too short, then refused with the name', () => {
    expect(loadConfig({ LOG_LEVEL: 'debug', LOG_FORMAT: 'pretty' })).toMatchObject({
      logLevel: 'debug',
      logFormat: 'pretty',
    });
    expect(loadConfig({ LOG_FORMAT: 'json' }, process.cwd(), true).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL must be one of/);
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT must be one of/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN must be at least 16/,
    );
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-metrics-token' }).metricsToken).toBe(
      'a-long-enough-metrics-token',
    );
  });
});
