/**
 * Two-factor sign-in (TOTP) through the API: enrolling, the sign-in's second step, replayed and wrong
 * codes under the login limit, recovery codes, turning it off, an admin's reset, the audit trail,
 * TWO_FACTOR=required-for-admins and TWO_FACTOR=off. Codes are computed here from the secret the setup
 * answers, at the portal's clock.
 */
import { createHash } from 'node:crypto';
import { Secret, TOTP, URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyStoredRecoveryCodes } from '~/server/services/accounts/two-factor';
import { createUser as createAccount } from '~/server/services/accounts/users';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { ApiClient, type ApiResponse } from '../../support/api-client';
import {
  createUser,
  databaseText,
  eventually,
  expectError,
  signIn,
  signedInAdmin,
  type Role,
  type TestUser,
} from '../../support/api-steps';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp-server';

const PENDING_COOKIE = 'portal_2fa_pending';
const STEP_MS = 30_000;
const LIMITS = { LOGIN_MAX_ATTEMPTS: '3', LOGIN_WINDOW_SECONDS: '60' };

let optional: InProcessPortal;
let required: InProcessPortal;
let off: InProcessPortal;
/** Behind a trusted proxy (each test's browsers come from addresses of their own), with e-mail. */
let guarded: InProcessPortal;
let smtp: TestSmtpServer;
let admin: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  [optional, required, off, guarded] = await Promise.all([
    startInProcessPortal(LIMITS),
    startInProcessPortal({ ...LIMITS, TWO_FACTOR: 'required-for-admins' }),
    startInProcessPortal({ TWO_FACTOR: 'off' }),
    startInProcessPortal({
      LOGIN_MAX_ATTEMPTS: '8',
      LOGIN_WINDOW_SECONDS: '60',
      TRUST_PROXY: 'true',
      SMTP_URL: smtp.url,
    }),
  ]);
  admin = await signedInAdmin(optional);
});

afterAll(async () => {
  await Promise.all([optional?.stop(), required?.stop(), off?.stop(), guarded?.stop()]);
  await smtp?.stop();
});

/** A browser: it keeps every cookie the portal sets (the session and the pending sign-in) and sends Origin. */
class Browser {
  readonly cookies = new Map<string, string>();

  /** `address`: the client address a trusted proxy reports (TRUST_PROXY). */
  constructor(
    readonly portal: InProcessPortal,
    readonly address?: string,
  ) {}

  async request(method: string, path: string, json?: unknown, body?: string): Promise<ApiResponse> {
    const headers: Record<string, string> = { Origin: this.portal.url };
    if (this.address) headers['X-Forwarded-For'] = this.address;
    if (this.cookies.size > 0)
      headers.Cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (json !== undefined) headers['Content-Type'] = 'application/json';
    if (body !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const sent = method === 'GET' ? undefined : json === undefined ? body : JSON.stringify(json);
    const response = await fetch(`${this.portal.url}${path}`, {
      method,
      headers,
      body: sent,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const cut = pair.indexOf('=');
      const name = pair.slice(0, cut);
      const value = pair.slice(cut + 1);
      if (!value || /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line))
        this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // A page or a redirect.
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  get(path: string) {
    return this.request('GET', path);
  }
  post(path: string, json: unknown = {}) {
    return this.request('POST', path, json);
  }
  login(user: { username: string; password: string }) {
    return this.post('/api/auth/login', { username: user.username, password: user.password });
  }
}

function codeAt(secret: string, timestamp: number): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp,
  });
}

const codeNow = (portal: InProcessPortal, secret: string) => codeAt(secret, portal.clock.now());

let userCount = 0;
/** Through the API on the portal whose admin signs in with a password alone; else (the admin must enrol first) through the service. */
async function newUser(portal: InProcessPortal, role: Role = 'viewer'): Promise<TestUser> {
  userCount += 1;
  const username = `tf${role.replace('-', '')}${userCount}`;
  if (portal === optional) return createUser(admin, username, role);
  const password = `${username}-password`;
  const created = await createAccount(portal.portal, null, {
    username,
    password,
    role,
    fullName: null,
    email: null,
  });
  return { id: created.id, username, password, role };
}

/** A user with two-factor sign-in turned on through the API: their secret and recovery codes. */
async function enrolledUser(
  portal: InProcessPortal,
  role: Role = 'viewer',
): Promise<TestUser & { secret: string; recoveryCodes: string[] }> {
  const user = await newUser(portal, role);
  const browser = new Browser(portal);
  expect((await browser.login(user)).status).toBe(200);
  const setup = await browser.post('/api/auth/2fa/setup');
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  const { secret } = setup.body.data;
  const enabled = await browser.post('/api/auth/2fa/enable', { code: codeNow(portal, secret) });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  // The code just used is spent: sign-ins in the tests take the next step's.
  portal.clock.advance(STEP_MS);
  return { ...user, secret, recoveryCodes: enabled.body.data.recoveryCodes };
}

/** Password, then the code: a signed-in browser. */
async function signInWithCode(
  portal: InProcessPortal,
  user: TestUser & { secret: string },
): Promise<Browser> {
  const browser = new Browser(portal);
  expect((await browser.login(user)).body.data).toEqual({ twoFactorRequired: true });
  const answer = await browser.post('/api/auth/login/2fa', { code: codeNow(portal, user.secret) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  portal.clock.advance(STEP_MS);
  return browser;
}

async function auditEntries(portal: InProcessPortal, action: string) {
  const rows = await portal.portal.db.models.AuditEntry.findAll({
    where: { action },
    order: [['id', 'ASC']],
    raw: true,
  });
  return rows.map(({ actorId, actorName, target, detail, clientAddress }) => ({
    actorId,
    actorName,
    target,
    detail,
    clientAddress,
  }));
}

function cookieLine(response: ApiResponse, name: string): string | undefined {
  return response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

describe('enrolling and signing in', () => {
  it('when a user sets up, enables, and signs in again, then the password answers twoFactorRequired and the code opens the session', async () => {
    const user = await newUser(optional);
    const browser = new Browser(optional);
    await browser.login(user);
    expect((await browser.get('/api/auth/2fa')).body.data).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });

    const setup = await browser.post('/api/auth/2fa/setup');
    expect(setup.status).toBe(200);
    const { otpauthUri, secret, qrSvg } = setup.body.data;
    const parsed = URI.parse(otpauthUri) as TOTP;
    expect(parsed).toBeInstanceOf(TOTP);
    expect(parsed).toMatchObject({
      issuer: 'Freight Portal',
      label: user.username,
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    });
    expect(parsed.secret.base32).toBe(secret);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    const wrong = await browser.post('/api/auth/2fa/enable', {
      code: codeAt(secret, optional.clock.now() + 10 * STEP_MS),
    });
    expectError(wrong, 400, 'VALIDATION_ERROR', /^That code is not right/);
    expect((await browser.get('/api/auth/2fa')).body.data.enabled).toBe(false);

    const enabled = await browser.post('/api/auth/2fa/enable', { code: codeNow(optional, secret) });
    expect(enabled.status).toBe(200);
    const { recoveryCodes } = enabled.body.data;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await browser.get('/api/auth/2fa')).body.data).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
    });
    optional.clock.advance(STEP_MS);

    const next = new Browser(optional);
    const password = await next.login(user);
    expect(password.status).toBe(200);
    expect(password.body).toMatchObject({ success: true, data: { twoFactorRequired: true } });
    expect(cookieLine(password, 'portal_session')).toBeUndefined();
    const pending = cookieLine(password, PENDING_COOKIE)!.toLowerCase();
    expect(pending).toContain('httponly');
    expect(pending).toContain('samesite=lax');
    expect(pending).toContain('max-age=300');
    expect(pending).toContain('path=/');
    // The pending sign-in is no session.
    expectError(await next.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');

    const done = await next.post('/api/auth/login/2fa', {
      code: ` ${codeNow(optional, secret).replace(/^(\d{3})/, '$1 ')} `,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({
      success: true,
      message: 'Login successful',
      data: { user: { username: user.username, locale: 'en' } },
    });
    expect(cookieLine(done, 'portal_session')).toBeDefined();
    expect(next.cookies.has(PENDING_COOKIE)).toBe(false);
    expect((await next.get('/api/auth/profile')).body.data.user.username).toBe(user.username);
  });

  it('when the secret is stored, then only encrypted: the database holds neither it nor a recovery code', async () => {
    const user = await enrolledUser(optional);
    const row = await optional.portal.db.models.User.findByPk(user.id, { raw: true });
    expect(row!.twoFactorSecret).toMatch(/^v1\./);
    expect(row!.twoFactorSecret).not.toContain(user.secret);
    const everything = await databaseText(optional);
    expect(everything).not.toContain(user.secret);
    for (const code of user.recoveryCodes) expect(everything).not.toContain(code);
  });

  it('when the same code is sent for a second sign-in, then it is refused; the next step’s code works', async () => {
    const user = await enrolledUser(optional);
    const code = codeNow(optional, user.secret);
    const first = new Browser(optional);
    await first.login(user);
    expect((await first.post('/api/auth/login/2fa', { code })).status).toBe(200);

    const second = new Browser(optional);
    await second.login(user);
    expectError(
      await second.post('/api/auth/login/2fa', { code }),
      401,
      'AUTHENTICATION_ERROR',
      'The code is wrong or has already been used',
    );
    expect(cookieLine(await second.get('/api/auth/profile'), 'portal_session')).toBeUndefined();

    optional.clock.advance(STEP_MS);
    expect(
      (await second.post('/api/auth/login/2fa', { code: codeNow(optional, user.secret) })).status,
    ).toBe(200);
  });

  it('when a recovery code is used, then it signs in once and recoveryCodesLeft goes down', async () => {
    const user = await enrolledUser(optional);
    const [recoveryCode] = user.recoveryCodes;
    const browser = new Browser(optional);
    await browser.login(user);
    // As typed from paper: capitals and without the dash.
    const done = await browser.post('/api/auth/login/2fa', {
      code: recoveryCode!.toUpperCase().replace('-', ''),
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((await browser.get('/api/auth/2fa')).body.data).toEqual({
      enabled: true,
      recoveryCodesLeft: 9,
    });

    const again = new Browser(optional);
    await again.login(user);
    expectError(
      await again.post('/api/auth/login/2fa', { code: recoveryCode }),
      401,
      'AUTHENTICATION_ERROR',
      'The code is wrong or has already been used',
    );
  });

  it('when the pending sign-in is older than 5 minutes, then the right code is refused and the password must be given again', async () => {
    const user = await enrolledUser(optional);
    const browser = new Browser(optional);
    await browser.login(user);
    optional.clock.advance(5 * 60_000 + 1_000);
    expectError(
      await browser.post('/api/auth/login/2fa', { code: codeNow(optional, user.secret) }),
      401,
      'AUTHENTICATION_ERROR',
      'Your sign-in has expired. Enter your username and password again.',
    );
  });

  it('when the pending cookie is missing or forged, then login/2fa refuses with 401', async () => {
    const user = await enrolledUser(optional);
    const code = codeNow(optional, user.secret);
    expectError(
      await new Browser(optional).post('/api/auth/login/2fa', { code }),
      401,
      'AUTHENTICATION_ERROR',
    );
    const forger = new Browser(optional);
    await forger.login(user);
    const token = forger.cookies.get(PENDING_COOKIE)!;
    forger.cookies.set(PENDING_COOKIE, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`);
    expectError(await forger.post('/api/auth/login/2fa', { code }), 401, 'AUTHENTICATION_ERROR');
  });

  it.each([
    ['no code', {}, 'Enter the code from your authenticator app or a recovery code'],
    [
      'an empty code',
      { code: '  ' },
      'Enter the code from your authenticator app or a recovery code',
    ],
    ['a number', { code: 123456 }, 'Enter the code from your authenticator app or a recovery code'],
    [
      'a code of 41 characters',
      { code: 'x'.repeat(41) },
      'This is neither a code from your authenticator app nor a recovery code',
    ],
  ])('when login/2fa gets %s, then 400 with the message', async (_case, payload, message) => {
    expectError(
      await new Browser(optional).post('/api/auth/login/2fa', payload),
      400,
      'VALIDATION_ERROR',
      message,
    );
  });

  it('when a pending sign-in that owes a code calls setup or enable, then 401: a password alone never replaces the authenticator', async () => {
    const user = await enrolledUser(optional);
    const before = await optional.portal.db.models.User.findByPk(user.id, { raw: true });
    const browser = new Browser(optional);
    await browser.login(user);
    expectError(await browser.post('/api/auth/2fa/setup'), 401, 'AUTHENTICATION_ERROR');
    expectError(
      await browser.post('/api/auth/2fa/enable', { code: '123456' }),
      401,
      'AUTHENTICATION_ERROR',
    );
    const after = await optional.portal.db.models.User.findByPk(user.id, { raw: true });
    expect(after!.twoFactorSecret).toBe(before!.twoFactorSecret);
  });

  it('when a user with two-factor sign-in on asks for a new setup, then 409', async () => {
    const user = await enrolledUser(optional);
    const browser = await signInWithCode(optional, user);
    expectError(
      await browser.post('/api/auth/2fa/setup'),
      409,
      'CONFLICT',
      'Two-factor sign-in is already on',
    );
    expectError(
      await browser.post('/api/auth/2fa/enable', { code: '123456' }),
      409,
      'CONFLICT',
      'Two-factor sign-in is already on',
    );
  });

  it('when enable comes before any setup or with a code that is no 6 digits, then it is refused', async () => {
    const user = await newUser(optional);
    const browser = new Browser(optional);
    await browser.login(user);
    expectError(
      await browser.post('/api/auth/2fa/enable', { code: '123456' }),
      409,
      'CONFLICT',
      'Start the setup first, then enter the code of the new QR code',
    );
    expectError(
      await browser.post('/api/auth/2fa/enable', { code: 'abcde-fghjk' }),
      400,
      'VALIDATION_ERROR',
      'Enter the 6-digit code from your authenticator app',
    );
    expectError(
      await new Browser(optional).post('/api/auth/2fa/setup'),
      401,
      'AUTHENTICATION_ERROR',
    );
    expectError(await new Browser(optional).get('/api/auth/2fa'), 401, 'AUTHENTICATION_ERROR');
  });

  it('when the login page is opened during a pending sign-in, then it asks for the code, and its plain form post finishes the sign-in', async () => {
    const user = await enrolledUser(optional);
    const browser = new Browser(optional);
    await browser.login(user);
    const page = await browser.get('/login');
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<form[^>]*data-code-form(?![^>]*hidden)[^>]*>/);
    expect(page.body).toMatch(/<form[^>]*data-login-form[^>]*hidden[^>]*>/);
    expect(page.body).toContain('Authentication code');

    const wrong = await browser.request('POST', '/login', undefined, 'code=000000');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('The code is wrong or has already been used');
    const posted = await browser.request(
      'POST',
      '/login',
      undefined,
      `code=${codeNow(optional, user.secret)}`,
    );
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/dashboard');
    expect((await browser.get('/api/auth/profile')).status).toBe(200);
  });
});

describe('the login limit', () => {
  it('when wrong codes reach LOGIN_MAX_ATTEMPTS, then the next code and the password are both refused with 429, and a right password between them does not wipe the count', async () => {
    const user = await enrolledUser(optional);
    const browser = new Browser(optional);
    await browser.login(user);
    for (const code of ['000000', 'wrong-recovery']) {
      expectError(
        await browser.post('/api/auth/login/2fa', { code }),
        401,
        'AUTHENTICATION_ERROR',
        'The code is wrong or has already been used',
      );
    }
    // The password again: it leads to the code step, but forgets no failure.
    expect((await browser.login(user)).body.data).toEqual({ twoFactorRequired: true });
    expectError(
      await browser.post('/api/auth/login/2fa', { code: '111111' }),
      401,
      'AUTHENTICATION_ERROR',
    );

    expectError(
      await browser.post('/api/auth/login/2fa', { code: codeNow(optional, user.secret) }),
      429,
      'RATE_LIMITED',
    );
    expectError(await browser.login(user), 429, 'RATE_LIMITED');

    optional.clock.advance(61_000);
    expect((await browser.login(user)).body.data).toEqual({ twoFactorRequired: true });
    expect(
      (await browser.post('/api/auth/login/2fa', { code: codeNow(optional, user.secret) })).status,
    ).toBe(200);
  });
});

let addressCount = 0;
/** A browser behind the guarded portal's proxy, from an address nobody used before. */
function browserFromNewAddress(): Browser {
  addressCount += 1;
  return new Browser(guarded, `198.51.100.${addressCount}`);
}

/** A user of the guarded portal with an e-mail address and two-factor sign-in on. */
async function guardedUser(
  locale: 'en' | 'nl' = 'en',
): Promise<TestUser & { secret: string; email: string }> {
  userCount += 1;
  const username = `guarded${userCount}`;
  const email = `${username}@example.com`;
  const password = `${username}-password`;
  const created = await createAccount(guarded.portal, null, {
    username,
    password,
    role: 'viewer',
    fullName: null,
    email,
  });
  await guarded.portal.db.models.User.update({ locale }, { where: { id: created.id } });
  const browser = browserFromNewAddress();
  expect((await browser.login({ username, password })).status).toBe(200);
  const { secret } = (await browser.post('/api/auth/2fa/setup')).body.data;
  expect(
    (await browser.post('/api/auth/2fa/enable', { code: codeNow(guarded, secret) })).status,
  ).toBe(200);
  guarded.clock.advance(STEP_MS);
  return { id: created.id, username, password, role: 'viewer', secret, email };
}

const WRONG_CODE = 'The code is wrong or has already been used';
const SIGN_IN_AGAIN = 'Your sign-in has expired. Enter your username and password again.';

describe('guessing codes', () => {
  it('when a pending sign-in has taken 5 codes, then even the right one is refused until the password is given again', async () => {
    const user = await guardedUser();
    const browser = browserFromNewAddress();
    expect((await browser.login(user)).body.data).toEqual({ twoFactorRequired: true });
    for (const code of ['000000', '111111', '222222', '333333', 'wrong-recovery']) {
      expectError(
        await browser.post('/api/auth/login/2fa', { code }),
        401,
        'AUTHENTICATION_ERROR',
        WRONG_CODE,
      );
    }
    expectError(
      await browser.post('/api/auth/login/2fa', { code: codeNow(guarded, user.secret) }),
      401,
      'AUTHENTICATION_ERROR',
      SIGN_IN_AGAIN,
    );
    expect((await browser.get('/login')).body).toMatch(/<form[^>]*data-code-form[^>]*hidden[^>]*>/);

    expect((await browser.login(user)).body.data).toEqual({ twoFactorRequired: true });
    expect(
      (await browser.post('/api/auth/login/2fa', { code: codeNow(guarded, user.secret) })).status,
    ).toBe(200);
  });

  it('when wrong codes from many addresses pass 10, then the code step is closed for everyone with the answer of a wrong code, the user is e-mailed in their language, and it opens with the next window', async () => {
    const user = await guardedUser('nl');
    // Three addresses, four wrong codes each: no address reaches its own limits.
    for (let address = 0; address < 3; address++) {
      const guesser = browserFromNewAddress();
      expect((await guesser.login(user)).body.data).toEqual({ twoFactorRequired: true });
      for (let guess = 0; guess < 4; guess++) {
        expectError(
          await guesser.post('/api/auth/login/2fa', { code: `00000${guess}` }),
          401,
          'AUTHENTICATION_ERROR',
          WRONG_CODE,
        );
      }
    }
    const owner = browserFromNewAddress();
    expect((await owner.login(user)).body.data).toEqual({ twoFactorRequired: true });
    expectError(
      await owner.post('/api/auth/login/2fa', { code: codeNow(guarded, user.secret) }),
      401,
      'AUTHENTICATION_ERROR',
      WRONG_CODE,
    );

    const [mail, ...more] = await eventually(
      () =>
        smtp.messages.filter(
          (message) => message.to && !Array.isArray(message.to) && message.to.text === user.email,
        ),
      (found) => found.length > 0,
    );
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe('Freight Portal: iemand probeert als u in te loggen');
    expect(mail!.text).toContain(`"${user.username}"`);
    expect(mail!.text).toContain('1 minuten');

    guarded.clock.advance(61_000);
    expect(
      (await owner.post('/api/auth/login/2fa', { code: codeNow(guarded, user.secret) })).status,
    ).toBe(200);
  });

  it('when a sign-in has finished, then its pending cookie, sent again with a new code, finishes nothing', async () => {
    const user = await guardedUser();
    const browser = browserFromNewAddress();
    await browser.login(user);
    const pending = browser.cookies.get(PENDING_COOKIE)!;
    expect(
      (await browser.post('/api/auth/login/2fa', { code: codeNow(guarded, user.secret) })).status,
    ).toBe(200);

    guarded.clock.advance(STEP_MS);
    const replay = browserFromNewAddress();
    replay.cookies.set(PENDING_COOKIE, pending);
    const answer = await replay.post('/api/auth/login/2fa', {
      code: codeNow(guarded, user.secret),
    });
    expectError(answer, 401, 'AUTHENTICATION_ERROR', SIGN_IN_AGAIN);
    expect(cookieLine(answer, 'portal_session')).toBeUndefined();
  });
});

describe('recovery codes at rest', () => {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  it('when codes are stored, then as keyed hashes: the database holds no plain SHA-256 of any', async () => {
    const user = await enrolledUser(optional);
    const everything = await databaseText(optional);
    for (const code of user.recoveryCodes)
      expect(everything).not.toContain(sha256(code.replace('-', '')));
  });

  it('when codes were stored unkeyed before the upgrade, then the start-up keys them and each still signs in once', async () => {
    const user = await enrolledUser(optional);
    const { RecoveryCode } = optional.portal.db.models;
    // As an older portal stored them: the bare SHA-256 of the code without its dash.
    const older = ['abcde-fghjk', 'mnpqr-stuvw'];
    await RecoveryCode.destroy({ where: { userId: user.id } });
    await RecoveryCode.bulkCreate(
      older.map((code) => ({
        userId: user.id,
        codeHash: sha256(code.replace('-', '')),
        keyed: false,
      })),
    );

    await keyStoredRecoveryCodes(optional.portal);
    await keyStoredRecoveryCodes(optional.portal);
    const rows = await RecoveryCode.findAll({ where: { userId: user.id }, raw: true });
    expect(rows.map((row) => Boolean(row.keyed))).toEqual([true, true]);
    for (const code of older)
      expect(rows.map((row) => row.codeHash)).not.toContain(sha256(code.replace('-', '')));

    for (const code of older) {
      const browser = new Browser(optional);
      await browser.login(user);
      expect((await browser.post('/api/auth/login/2fa', { code })).status).toBe(200);
      const again = new Browser(optional);
      await again.login(user);
      expectError(
        await again.post('/api/auth/login/2fa', { code }),
        401,
        'AUTHENTICATION_ERROR',
        WRONG_CODE,
      );
    }
  });
});

describe('turning it off', () => {
  it('when the password is wrong, then 400 with a clear message; with the right one it is off and sign-in asks no code', async () => {
    const user = await enrolledUser(optional);
    const browser = await signInWithCode(optional, user);
    const wrong = await browser.post('/api/auth/2fa/disable', {
      password: 'not-my-password',
      code: codeNow(optional, user.secret),
    });
    expectError(wrong, 400, 'VALIDATION_ERROR', 'Password is incorrect');
    expect(wrong.body.details).toEqual([{ field: 'password', message: 'Password is incorrect' }]);
    expectError(
      await browser.post('/api/auth/2fa/disable', { code: codeNow(optional, user.secret) }),
      400,
      'VALIDATION_ERROR',
      'Enter your password',
    );
    expect((await browser.get('/api/auth/2fa')).body.data.enabled).toBe(true);

    expect(
      (
        await browser.post('/api/auth/2fa/disable', {
          password: user.password,
          code: codeNow(optional, user.secret),
        })
      ).status,
    ).toBe(200);
    expect((await browser.get('/api/auth/2fa')).body.data).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    expect(await optional.portal.db.models.RecoveryCode.count({ where: { userId: user.id } })).toBe(
      0,
    );
    expect((await new Browser(optional).login(user)).body.data.user.username).toBe(user.username);
    expectError(
      await browser.post('/api/auth/2fa/disable', { password: user.password, code: '123456' }),
      409,
      'CONFLICT',
      'Two-factor sign-in is not on',
    );

    expect(await auditEntries(optional, 'two-factor.disabled')).toContainEqual(
      expect.objectContaining({
        actorId: user.id,
        actorName: user.username,
        target: `user ${user.username}`,
      }),
    );
  });

  it('when wrong passwords or codes to turn it off reach the limit, then 429 like any other password guess', async () => {
    const user = await enrolledUser(optional);
    const browser = await signInWithCode(optional, user);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expectError(
        await browser.post('/api/auth/2fa/disable', {
          password: `wrong-${attempt}`,
          code: user.recoveryCodes[0],
        }),
        400,
        'VALIDATION_ERROR',
      );
    }
    expectError(
      await browser.post('/api/auth/2fa/disable', {
        password: user.password,
        code: user.recoveryCodes[0],
      }),
      429,
      'RATE_LIMITED',
    );
  });
});

describe("an admin turns a user's two-factor sign-in off", () => {
  it('when a non-admin asks, then 403; when the admin does, then it is off, the list shows it, and the audit trail has it', async () => {
    const user = await enrolledUser(optional);
    const listed = async () =>
      (await admin.get('/api/auth/users')).body.data.find(
        (row: { id: number }) => row.id === user.id,
      );
    expect((await listed()).twoFactorEnabled).toBe(true);

    const adminViewer = await signIn(optional, await newUser(optional, 'admin-viewer'));
    expectError(await adminViewer.delete(`/api/auth/users/${user.id}/2fa`), 403, 'FORBIDDEN');
    expectError(
      await new ApiClient(optional).delete(`/api/auth/users/${user.id}/2fa`),
      401,
      'AUTHENTICATION_ERROR',
    );
    expect((await listed()).twoFactorEnabled).toBe(true);

    const reset = await admin.delete(`/api/auth/users/${user.id}/2fa`);
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe(`Two-factor sign-in turned off for ${user.username}`);
    expect((await listed()).twoFactorEnabled).toBe(false);
    expect((await new Browser(optional).login(user)).body.data.user.username).toBe(user.username);
    const adminId = (await admin.get('/api/auth/profile')).body.data.user.id;
    expect(await auditEntries(optional, 'two-factor.reset')).toContainEqual({
      actorId: adminId,
      actorName: 'admin',
      target: `user ${user.username}`,
      detail: JSON.stringify({ wasOn: true }),
      clientAddress: '127.0.0.1',
    });

    expectError(
      await admin.delete('/api/auth/users/999999/2fa'),
      404,
      'NOT_FOUND',
      'User not found',
    );
    expectError(await admin.delete('/api/auth/users/abc/2fa'), 404, 'NOT_FOUND', 'User not found');
  });
});

describe('the audit trail of sign-ins', () => {
  it('when admins and admin-viewers sign in or fail to, then each is recorded; a customer’s sign-in is not', async () => {
    const staff = await enrolledUser(optional, 'admin');
    const customer = await newUser(optional);
    const wrong = await new Browser(optional).login({
      username: staff.username,
      password: 'not-the-password',
    });
    expectError(wrong, 401, 'AUTHENTICATION_ERROR', 'Invalid username or password');
    expectError(
      await new Browser(optional).login({ username: 'ghost-admin', password: 'not-the-password' }),
      401,
      'AUTHENTICATION_ERROR',
    );
    const coded = new Browser(optional);
    await coded.login(staff);
    expectError(
      await coded.post('/api/auth/login/2fa', { code: '000000' }),
      401,
      'AUTHENTICATION_ERROR',
    );
    await signInWithCode(optional, staff);
    await new Browser(optional).login(customer);
    await new Browser(optional).login({
      username: customer.username,
      password: 'not-the-password',
    });

    const failed = await auditEntries(optional, 'sign-in.failed');
    expect(failed).toContainEqual({
      actorId: staff.id,
      actorName: staff.username,
      target: null,
      detail: JSON.stringify({ reason: 'wrong password' }),
      clientAddress: '127.0.0.1',
    });
    expect(failed).toContainEqual({
      actorId: null,
      actorName: 'unknown user',
      target: null,
      detail: JSON.stringify({ reason: 'no such account', attemptedUsername: 'ghost-admin' }),
      clientAddress: '127.0.0.1',
    });
    expect(failed).toContainEqual({
      actorId: staff.id,
      actorName: staff.username,
      target: null,
      detail: JSON.stringify({ reason: 'wrong two-factor code' }),
      clientAddress: '127.0.0.1',
    });
    expect(failed.filter((entry) => entry.actorName === customer.username)).toEqual([]);

    const succeeded = await auditEntries(optional, 'sign-in.succeeded');
    expect(succeeded).toContainEqual({
      actorId: staff.id,
      actorName: staff.username,
      target: null,
      detail: JSON.stringify({ method: 'password and authenticator code' }),
      clientAddress: '127.0.0.1',
    });
    expect(succeeded.filter((entry) => entry.actorName === customer.username)).toEqual([]);
    expect(
      succeeded.some(
        (entry) =>
          entry.actorName === 'admin' && entry.detail === JSON.stringify({ method: 'password' }),
      ),
    ).toBe(true);
    expect(await auditEntries(optional, 'two-factor.enabled')).toContainEqual(
      expect.objectContaining({ actorId: staff.id, target: `user ${staff.username}` }),
    );
  });
});

describe('TWO_FACTOR=required-for-admins', () => {
  it('when an admin-viewer without it signs in, then only setup and enable open; enabling signs them in and the next sign-in asks a code', async () => {
    const user = await newUser(required, 'admin-viewer');
    const browser = new Browser(required);
    const password = await browser.login(user);
    expect(password.status).toBe(200);
    expect(password.body.data).toEqual({ twoFactorSetupRequired: true });
    expect(cookieLine(password, 'portal_session')).toBeUndefined();

    // Nothing else opens: not the API, not a page, not the code step.
    expectError(await browser.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');
    expectError(await browser.get('/api/auth/2fa'), 401, 'AUTHENTICATION_ERROR');
    expectError(await browser.get('/api/receipts'), 401, 'AUTHENTICATION_ERROR');
    expectError(
      await browser.post('/api/auth/2fa/disable', { password: user.password }),
      401,
      'AUTHENTICATION_ERROR',
    );
    expectError(
      await browser.post('/api/auth/login/2fa', { code: '123456' }),
      401,
      'AUTHENTICATION_ERROR',
    );
    for (const path of ['/dashboard', '/profile', '/receipts']) {
      const page = await browser.get(path);
      expect(page.status, path).toBe(302);
      expect(page.headers.get('location'), path).toBe('/login');
    }
    const loginPage = await browser.get('/login');
    expect(loginPage.body).toContain('Set up two-factor sign-in');
    expect(loginPage.body).not.toContain('data-login-form');

    const setup = await browser.post('/api/auth/2fa/setup');
    expect(setup.status).toBe(200);
    const enabled = await browser.post('/api/auth/2fa/enable', {
      code: codeNow(required, setup.body.data.secret),
    });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expect(enabled.body.data.recoveryCodes).toHaveLength(10);
    expect(enabled.body.data.user).toMatchObject({ username: user.username, role: 'admin-viewer' });
    expect(cookieLine(enabled, 'portal_session')).toBeDefined();
    expect(browser.cookies.has(PENDING_COOKIE)).toBe(false);
    expect((await browser.get('/api/auth/profile')).status).toBe(200);
    expect((await browser.get('/dashboard')).status).toBe(200);

    const next = new Browser(required);
    expect((await next.login(user)).body.data).toEqual({ twoFactorRequired: true });
  });

  it('when a customer signs in, then no second factor is asked', async () => {
    const user = await newUser(required);
    const answer = await new Browser(required).login(user);
    expect(answer.body.data.user.username).toBe(user.username);
  });

  it('when the pending enrolment is older than 5 minutes, then setup refuses it', async () => {
    const user = await newUser(required, 'admin');
    const browser = new Browser(required);
    await browser.login(user);
    required.clock.advance(5 * 60_000 + 1_000);
    expectError(await browser.post('/api/auth/2fa/setup'), 401, 'AUTHENTICATION_ERROR');
  });
});

describe('TWO_FACTOR=off', () => {
  it('when any two-factor endpoint is called, then 404; the profile has no such section; a user with a secret signs in without a code', async () => {
    const offAdmin = await signedInAdmin(off);
    const user = await createUser(offAdmin, 'offuser');
    await off.portal.db.models.User.update(
      { twoFactorEnabledAt: new Date(), twoFactorSecret: 'v1.x.y.z' },
      { where: { id: user.id } },
    );

    const browser = new Browser(off);
    const answer = await browser.login(user);
    expect(answer.body.data.user.username).toBe(user.username);
    for (const [method, path] of [
      ['GET', '/api/auth/2fa'],
      ['POST', '/api/auth/2fa/setup'],
      ['POST', '/api/auth/2fa/enable'],
      ['POST', '/api/auth/2fa/disable'],
      ['POST', '/api/auth/login/2fa'],
    ] as const) {
      expectError(
        await browser.request(method, path, { code: '123456', password: user.password }),
        404,
        'NOT_FOUND',
      );
    }
    expectError(await offAdmin.delete(`/api/auth/users/${user.id}/2fa`), 404, 'NOT_FOUND');
    expect(
      (await offAdmin.get('/api/auth/users')).body.data.find(
        (row: { id: number }) => row.id === user.id,
      ).twoFactorEnabled,
    ).toBe(false);

    const profile = await browser.get('/profile');
    expect(profile.status).toBe(200);
    expect(profile.body).not.toContain('Two-factor sign-in');
    const optionalProfile = new Browser(optional);
    await optionalProfile.login(await newUser(optional));
    expect((await optionalProfile.get('/profile')).body).toContain('Two-factor sign-in');
  });
});
