/**
 * Passkeys through the API, with a software authenticator (tests/support/passkey-authenticator.ts)
 * whose signatures the portal checks for real: adding one (the password first), signing in without a
 * username, the challenge working once, in time and in the browser that asked, replayed and forged
 * assertions, a counter going backwards, the login limiter, TOTP skipped, TWO_FACTOR=required-for-admins
 * met, renaming and removing, an admin removing all, a personal API token refused, the audit trail, and
 * a portal on an IP address offering none.
 */
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import type { EndpointDescription, HttpMethod } from '~/server/http/api-description';
import { errorEnvelopeSchema } from '~/shared/envelope';
import { createUser as createAccount } from '~/server/services/accounts/users';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { ApiClient, type ApiResponse } from '../../support/api-client';
import {
  createUser,
  expectError,
  signedInAdmin,
  type Role,
  type TestUser,
} from '../../support/api-steps';
import { TestAuthenticator } from '../../support/passkey-authenticator';

const PUBLIC_URL = 'http://localhost:4399';
const LIMITS = { LOGIN_MAX_ATTEMPTS: '3', LOGIN_WINDOW_SECONDS: '60' };
const CHALLENGE_MS = 5 * 60_000;

let portal: InProcessPortal;
let required: InProcessPortal;
let onIp: InProcessPortal;
let admin: ApiClient;

beforeAll(async () => {
  [portal, required, onIp] = await Promise.all([
    startInProcessPortal({ ...LIMITS, PUBLIC_URL }),
    startInProcessPortal({ ...LIMITS, PUBLIC_URL, TWO_FACTOR: 'required-for-admins' }),
    startInProcessPortal(),
  ]);
  admin = await signedInAdmin(portal);
});

afterAll(async () => {
  await Promise.all([portal?.stop(), required?.stop(), onIp?.stop()]);
});

/** A browser: it keeps every cookie the portal sets (the session, the challenge's) and sends Origin. */
class Browser {
  readonly cookies = new Map<string, string>();

  constructor(readonly on: InProcessPortal) {}

  async request(
    method: string,
    path: string,
    json?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> {
    const sent: Record<string, string> = { Origin: this.on.url, ...headers };
    if (this.cookies.size > 0)
      sent.Cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (json !== undefined) sent['Content-Type'] = 'application/json';
    const response = await fetch(`${this.on.url}${path}`, {
      method,
      headers: sent,
      body: json === undefined ? undefined : JSON.stringify(json),
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
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // A page or a redirect.
    }
    return { status: response.status, headers: response.headers, body };
  }

  post(path: string, json: unknown = {}) {
    return this.request('POST', path, json);
  }
  login(user: { username: string; password: string }) {
    return this.post('/api/auth/login', { username: user.username, password: user.password });
  }
  signedIn() {
    return this.cookies.has('portal_session');
  }
}

let userCount = 0;
async function newUser(role: Role = 'viewer'): Promise<TestUser> {
  userCount += 1;
  return createUser(admin, `pk${role.replace('-', '')}${userCount}`, role);
}

const authenticatorFor = () => new TestAuthenticator('localhost', PUBLIC_URL);

/** Signs the user in with their password and adds a passkey on the authenticator: the signed-in browser and the new passkey. */
async function addPasskey(
  on: InProcessPortal,
  user: TestUser,
  authenticator = authenticatorFor(),
  name?: string,
) {
  const browser = new Browser(on);
  expect((await browser.login(user)).status).toBe(200);
  const options = await browser.post('/api/auth/passkeys/registration/options', {
    password: user.password,
  });
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const added = await browser.post('/api/auth/passkeys/registration/verify', {
    credential: authenticator.register(options.body.data.options),
    name,
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return { browser, passkey: added.body.data, authenticator };
}

/** A fresh browser's passkey sign-in: options, the authenticator's assertion, and the portal's answer. */
async function passkeySignIn(
  on: InProcessPortal,
  authenticator: TestAuthenticator,
  browser = new Browser(on),
) {
  const options = await browser.post('/api/auth/passkeys/sign-in/options');
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const credential = authenticator.assert(options.body.data.options);
  const answer = await browser.post('/api/auth/passkeys/sign-in/verify', { credential });
  return { browser, credential, answer };
}

async function auditEntries(on: InProcessPortal, action: string) {
  const rows = await on.portal.db.models.AuditEntry.findAll({
    where: { action },
    order: [['id', 'ASC']],
    raw: true,
  });
  return rows.map(({ actorId, target, detail }) => ({
    actorId,
    target,
    detail: detail === null ? null : JSON.parse(detail),
  }));
}

describe('adding a passkey', () => {
  it('when the password is right, then the options ask for a discoverable credential for the host of PUBLIC_URL, and the new passkey is listed and audited', async () => {
    const user = await newUser();
    const browser = new Browser(portal);
    await browser.login(user);
    expectError(
      await browser.post('/api/auth/passkeys/registration/options', { password: 'wrong-password' }),
      400,
      'VALIDATION_ERROR',
      'Your password is incorrect',
    );
    const options = await browser.post('/api/auth/passkeys/registration/options', {
      password: user.password,
    });
    expect(options.body.data.options).toMatchObject({
      rp: { id: 'localhost' },
      user: { name: user.username },
      authenticatorSelection: {
        residentKey: 'required',
        requireResidentKey: true,
        userVerification: 'preferred',
      },
    });
    const authenticator = authenticatorFor();
    const added = await browser.post('/api/auth/passkeys/registration/verify', {
      credential: authenticator.register(options.body.data.options),
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    // No name given: the kind of device it is on.
    expect(added.body.data).toMatchObject({ name: 'Passkey on this device', lastUsedAt: null });
    const list = await browser.request('GET', '/api/auth/passkeys');
    expect(list.body.data).toEqual({
      availability: { available: true },
      passkeys: [added.body.data],
    });
    expect(await auditEntries(portal, 'passkey.added')).toContainEqual({
      actorId: user.id,
      target: `user ${user.username}`,
      detail: { name: 'Passkey on this device', deviceType: 'singleDevice' },
    });
  });

  it('when the same answer comes again, from another browser, or after 5 minutes, then 400 and nothing is added', async () => {
    const user = await newUser();
    const browser = new Browser(portal);
    await browser.login(user);
    const ask = async () =>
      (await browser.post('/api/auth/passkeys/registration/options', { password: user.password }))
        .body.data.options;
    const expired = 'The passkey request has expired or was already used. Try again.';

    const first = authenticatorFor().register(await ask());
    expect(
      (await browser.post('/api/auth/passkeys/registration/verify', { credential: first })).status,
    ).toBe(201);
    expectError(
      await browser.post('/api/auth/passkeys/registration/verify', { credential: first }),
      400,
      'VALIDATION_ERROR',
      expired,
    );

    // Another browser of the same user, with its own session but not this challenge's cookie.
    const other = new Browser(portal);
    await other.login(user);
    expectError(
      await other.post('/api/auth/passkeys/registration/verify', {
        credential: authenticatorFor().register(await ask()),
      }),
      400,
      'VALIDATION_ERROR',
      expired,
    );

    const late = authenticatorFor().register(await ask());
    portal.clock.advance(CHALLENGE_MS + 1_000);
    expectError(
      await browser.post('/api/auth/passkeys/registration/verify', { credential: late }),
      400,
      'VALIDATION_ERROR',
      expired,
    );
    expect((await browser.request('GET', '/api/auth/passkeys')).body.data.passkeys).toHaveLength(1);
  });

  it('when signed out, then 401; when the credential was made for another site, then 400', async () => {
    expectError(
      await new Browser(portal).post('/api/auth/passkeys/registration/options', { password: 'x' }),
      401,
      'AUTHENTICATION_ERROR',
    );
    const user = await newUser();
    const browser = new Browser(portal);
    await browser.login(user);
    const options = (
      await browser.post('/api/auth/passkeys/registration/options', { password: user.password })
    ).body.data.options;
    const elsewhere = new TestAuthenticator('localhost', 'http://evil.example').register(options);
    expectError(
      await browser.post('/api/auth/passkeys/registration/verify', { credential: elsewhere }),
      400,
      'VALIDATION_ERROR',
      'The passkey could not be verified. Try again.',
    );
  });
});

describe('signing in with a passkey', () => {
  it('when a fresh browser answers the challenge, then it is signed in without a username, and the passkey shows when it was used', async () => {
    const user = await newUser();
    const { authenticator, browser: owner } = await addPasskey(portal, user);
    const { browser, answer } = await passkeySignIn(portal, authenticator);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.user).toMatchObject({ id: user.id, username: user.username });
    expect(browser.signedIn()).toBe(true);
    expect((await browser.request('GET', '/api/auth/profile')).status).toBe(200);
    const [listed] = (await owner.request('GET', '/api/auth/passkeys')).body.data.passkeys;
    expect(listed.lastUsedAt).not.toBeNull();
  });

  it('when an assertion is replayed, with its spent cookie or under a new challenge, then 401, no session, and the audit trail has it', async () => {
    const user = await newUser();
    const { authenticator } = await addPasskey(portal, user);
    const { browser, credential, answer } = await passkeySignIn(portal, authenticator);
    expect(answer.status).toBe(200);

    const thief = new Browser(portal);
    const message =
      'Signing in with this passkey did not work. Try again, or sign in with your password.';
    expectError(
      await thief.post('/api/auth/passkeys/sign-in/verify', { credential }),
      401,
      'AUTHENTICATION_ERROR',
      message,
    );
    await thief.post('/api/auth/passkeys/sign-in/options');
    expectError(
      await thief.post('/api/auth/passkeys/sign-in/verify', { credential }),
      401,
      'AUTHENTICATION_ERROR',
      message,
    );
    expect(thief.signedIn()).toBe(false);
    // The browser that signed in, replaying its own: its cookie was spent.
    browser.cookies.delete('portal_session');
    expectError(
      await browser.post('/api/auth/passkeys/sign-in/verify', { credential }),
      401,
      'AUTHENTICATION_ERROR',
    );
    expect(browser.signedIn()).toBe(false);

    const refused = (await auditEntries(portal, 'passkey.refused')).filter(
      (entry) => entry.actorId === user.id,
    );
    expect(refused.map((entry) => entry.detail.reason)).toEqual([
      'challenge expired or used',
      'signature invalid',
      'challenge expired or used',
    ]);
  });

  it('when the challenge is older than 5 minutes, then 401', async () => {
    const user = await newUser();
    const { authenticator } = await addPasskey(portal, user);
    const browser = new Browser(portal);
    const options = await browser.post('/api/auth/passkeys/sign-in/options');
    const credential = authenticator.assert(options.body.data.options);
    portal.clock.advance(CHALLENGE_MS + 1_000);
    expectError(
      await browser.post('/api/auth/passkeys/sign-in/verify', { credential }),
      401,
      'AUTHENTICATION_ERROR',
    );
  });

  it('when the assertion is signed by another key, then 401 and "signature invalid"; when its counter went backwards, then 401 and the audit trail says so', async () => {
    const user = await newUser();
    const { authenticator } = await addPasskey(portal, user);
    expect((await passkeySignIn(portal, authenticator)).answer.status).toBe(200);
    expect((await passkeySignIn(portal, authenticator)).answer.status).toBe(200);

    // A copy of the authenticator, behind the original's count.
    authenticator.counter = 0;
    expectError((await passkeySignIn(portal, authenticator)).answer, 401, 'AUTHENTICATION_ERROR');
    authenticator.counter = 10;
    authenticator.forge();
    expectError((await passkeySignIn(portal, authenticator)).answer, 401, 'AUTHENTICATION_ERROR');

    const refused = (await auditEntries(portal, 'passkey.refused')).filter(
      (entry) => entry.actorId === user.id,
    );
    expect(refused.map((entry) => entry.detail)).toEqual([
      { reason: 'counter went backwards', name: 'Passkey on this device' },
      { reason: 'signature invalid', name: 'Passkey on this device' },
    ]);
  });

  it('when refusals reach LOGIN_MAX_ATTEMPTS, then the next sign-in, a right one included, is 429', async () => {
    const user = await newUser();
    const { authenticator } = await addPasskey(portal, user);
    const forger = authenticatorFor();
    Object.assign(forger, { credentialId: authenticator.credentialId });
    for (let attempt = 0; attempt < Number(LIMITS.LOGIN_MAX_ATTEMPTS); attempt += 1) {
      expectError((await passkeySignIn(portal, forger)).answer, 401, 'AUTHENTICATION_ERROR');
    }
    const limited = (await passkeySignIn(portal, authenticator)).answer;
    expectError(limited, 429, 'RATE_LIMITED');
    expect(limited.body.retryAfter).toBeGreaterThan(0);
    portal.clock.advance(61_000);
    expect((await passkeySignIn(portal, authenticator)).answer.status).toBe(200);
  });

  it("when the passkey is unknown, then 401 and a stranger's refusal in the audit trail", async () => {
    const { answer } = await passkeySignIn(portal, authenticatorFor());
    expectError(answer, 401, 'AUTHENTICATION_ERROR');
    expect(await auditEntries(portal, 'passkey.refused')).toContainEqual({
      actorId: null,
      target: null,
      detail: { reason: 'unknown passkey' },
    });
  });

  it('when the account is disabled, then its passkey signs nobody in', async () => {
    const user = await newUser();
    const { authenticator } = await addPasskey(portal, user);
    await portal.portal.db.models.User.update({ isActive: false }, { where: { id: user.id } });
    expectError((await passkeySignIn(portal, authenticator)).answer, 401, 'AUTHENTICATION_ERROR');
  });
});

describe('a passkey as the second factor', () => {
  it("when TOTP is on, then a passkey sign-in asks for no code, while a password sign-in still does; an admin's is audited as a passkey sign-in", async () => {
    const user = await newUser('admin');
    const { browser, authenticator } = await addPasskey(portal, user);
    const setup = await browser.post('/api/auth/2fa/setup');
    const code = TOTP.generate({
      secret: Secret.fromBase32(setup.body.data.secret),
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      timestamp: portal.clock.now(),
    });
    expect((await browser.post('/api/auth/2fa/enable', { code })).status).toBe(200);

    expect((await new Browser(portal).login(user)).body.data).toEqual({ twoFactorRequired: true });
    const { answer, browser: signedIn } = await passkeySignIn(portal, authenticator);
    expect(answer.status).toBe(200);
    expect(signedIn.signedIn()).toBe(true);
    expect(await auditEntries(portal, 'sign-in.succeeded')).toContainEqual({
      actorId: user.id,
      target: null,
      detail: { method: 'passkey' },
    });
  });

  it('when TWO_FACTOR=required-for-admins, then an admin with a passkey and no authenticator signs in with the passkey, and a password sign-in asks for it', async () => {
    // The portal's own admin must enrol first; this one is made by the service, as a customer who adds a passkey and then becomes an admin.
    const created = await createAccount(required.portal, null, {
      username: 'pkrequired',
      password: 'pkrequired-password',
      role: 'viewer',
      fullName: null,
      email: null,
    });
    const user: TestUser = {
      id: created.id,
      username: 'pkrequired',
      password: 'pkrequired-password',
      role: 'viewer',
    };
    const { authenticator } = await addPasskey(required, user);
    await required.portal.db.models.User.update({ role: 'admin' }, { where: { id: user.id } });

    const password = new Browser(required);
    expect((await password.login(user)).body.data).toEqual({ passkeyRequired: true });
    expect(password.signedIn()).toBe(false);
    // The pending sign-in opens nothing but its step.
    expectError(await password.request('GET', '/api/auth/passkeys'), 401, 'AUTHENTICATION_ERROR');
    const { answer } = await passkeySignIn(required, authenticator, password);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(password.signedIn()).toBe(true);
    expect(password.cookies.has('portal_2fa_pending')).toBe(false);
    expect((await password.request('GET', '/api/auth/users')).status).toBe(200);
  });
});

describe('managing passkeys', () => {
  it("when renamed, then listed under the new name and audited; an empty name is 400; another user's passkey is 404", async () => {
    const user = await newUser();
    const { browser, passkey } = await addPasskey(portal, user, authenticatorFor(), 'Work laptop');
    expect(passkey.name).toBe('Work laptop');
    const renamed = await browser.request('PATCH', `/api/auth/passkeys/${passkey.id}`, {
      name: '  My phone ',
    });
    expect(renamed.body.data.name).toBe('My phone');
    expectError(
      await browser.request('PATCH', `/api/auth/passkeys/${passkey.id}`, { name: ' ' }),
      400,
      'VALIDATION_ERROR',
      'Name is required',
    );
    expect(await auditEntries(portal, 'passkey.renamed')).toContainEqual({
      actorId: user.id,
      target: `user ${user.username}`,
      detail: { from: 'Work laptop', to: 'My phone' },
    });

    const stranger = new Browser(portal);
    await stranger.login(await newUser());
    expectError(
      await stranger.request('PATCH', `/api/auth/passkeys/${passkey.id}`, { name: 'Mine' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await stranger.request('DELETE', `/api/auth/passkeys/${passkey.id}`),
      404,
      'NOT_FOUND',
    );
  });

  it('when removed, then it signs nobody in from that moment, and the audit trail has it', async () => {
    const user = await newUser();
    const { browser, passkey, authenticator } = await addPasskey(portal, user);
    const options = await new Browser(portal).post('/api/auth/passkeys/sign-in/options');
    expect((await browser.request('DELETE', `/api/auth/passkeys/${passkey.id}`)).status).toBe(200);
    expectError((await passkeySignIn(portal, authenticator)).answer, 401, 'AUTHENTICATION_ERROR');
    expect(options.status).toBe(200);
    expect(await auditEntries(portal, 'passkey.removed')).toContainEqual({
      actorId: user.id,
      target: `user ${user.username}`,
      detail: { name: passkey.name },
    });
  });

  it("when an admin removes all of a user's passkeys, then none signs in, User Management counts none, and only an admin may", async () => {
    const user = await newUser();
    const first = await addPasskey(portal, user);
    const second = await addPasskey(portal, user);
    const listed = (await admin.get('/api/auth/users')).body.data.find(
      (row: { id: number }) => row.id === user.id,
    );
    expect(listed.passkeys).toBe(2);

    expectError(
      await first.browser.request('DELETE', `/api/auth/users/${user.id}/passkeys`),
      403,
      'FORBIDDEN',
    );
    const removed = await admin.delete(`/api/auth/users/${user.id}/passkeys`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    for (const { authenticator } of [first, second])
      expectError((await passkeySignIn(portal, authenticator)).answer, 401, 'AUTHENTICATION_ERROR');
    expect(
      (await admin.get('/api/auth/users')).body.data.find(
        (row: { id: number }) => row.id === user.id,
      ).passkeys,
    ).toBe(0);
    expect(await auditEntries(portal, 'passkeys.removed')).toContainEqual(
      expect.objectContaining({ target: `user ${user.username}`, detail: { count: 2 } }),
    );
  });

  it('when a personal API token calls the passkey endpoints, then it is refused', async () => {
    const user = await newUser();
    const { browser, passkey } = await addPasskey(portal, user);
    const token = (await browser.post('/api/auth/tokens', { name: 'script', expiresInDays: 30 }))
      .body.data.token;
    const withToken = (method: string, path: string, json?: unknown) =>
      new ApiClient(portal).request(method, path, {
        origin: null,
        json,
        headers: { Authorization: `Bearer ${token}` },
      });
    for (const [method, path, json] of [
      ['GET', '/api/auth/passkeys'],
      ['POST', '/api/auth/passkeys/registration/options', { password: user.password }],
      ['PATCH', `/api/auth/passkeys/${passkey.id}`, { name: 'taken over' }],
      ['DELETE', `/api/auth/passkeys/${passkey.id}`],
    ] as const) {
      expect((await withToken(method, path, json)).status, `${method} ${path}`).toBe(403);
    }
    expect((await browser.request('GET', '/api/auth/passkeys')).body.data.passkeys).toEqual([
      passkey,
    ]);
  });
});

const ROUTE_FILES = import.meta.glob<{ openapi: EndpointDescription }>(
  '/src/pages/api/auth/**/*.ts',
  { eager: true },
);

/** The answer parses, exactly, with the schema its route file documents for its status (as tests/in-process/database/api-contract.test.ts checks the others). */
async function expectDocumented(
  response: ApiResponse,
  method: HttpMethod,
  route: string,
): Promise<void> {
  const file =
    ROUTE_FILES[`/src/pages/api/${route}.ts`] ?? ROUTE_FILES[`/src/pages/api/${route}/index.ts`];
  const description = file?.openapi[method];
  if (!description) throw new Error(`${method} ${route} has no description`);
  const path = `/api/${route}`.replace(/\[(\w+)\]/g, '{$1}');
  const document = (await new ApiClient(portal).get('/api/openapi.json')).body;
  expect(
    Object.keys(document.paths[path][method.toLowerCase()].responses),
    `${response.status} of ${method} ${path}`,
  ).toContain(String(response.status));
  const schema: z.ZodMiniType =
    response.status === description.answer.status && 'body' in description.answer
      ? description.answer.body
      : ((failure) => (typeof failure === 'object' ? failure.body : errorEnvelopeSchema))(
          description.errors?.[response.status],
        );
  const parsed = schema.safeParse(response.body);
  expect(parsed.error?.issues ?? [], JSON.stringify(response.body).slice(0, 500)).toEqual([]);
  expect(parsed.data).toEqual(response.body);
}

describe('the API description', () => {
  it('when each passkey endpoint answers, then the answer is the one its route file documents', async () => {
    const user = await newUser();
    const browser = new Browser(portal);
    await browser.login(user);
    const authenticator = authenticatorFor();
    await expectDocumented(
      await browser.post('/api/auth/passkeys/registration/options', { password: 'wrong' }),
      'POST',
      'auth/passkeys/registration/options',
    );
    const options = await browser.post('/api/auth/passkeys/registration/options', {
      password: user.password,
    });
    await expectDocumented(options, 'POST', 'auth/passkeys/registration/options');
    const added = await browser.post('/api/auth/passkeys/registration/verify', {
      credential: authenticator.register(options.body.data.options),
    });
    await expectDocumented(added, 'POST', 'auth/passkeys/registration/verify');
    await expectDocumented(
      await browser.post('/api/auth/passkeys/registration/verify', { credential: {} }),
      'POST',
      'auth/passkeys/registration/verify',
    );
    await expectDocumented(
      await browser.request('GET', '/api/auth/passkeys'),
      'GET',
      'auth/passkeys',
    );
    await expectDocumented(
      await browser.request('PATCH', `/api/auth/passkeys/${added.body.data.id}`, { name: 'Phone' }),
      'PATCH',
      'auth/passkeys/[id]',
    );
    const signIn = await passkeySignIn(portal, authenticator);
    await expectDocumented(signIn.answer, 'POST', 'auth/passkeys/sign-in/verify');
    await expectDocumented(
      await new Browser(portal).post('/api/auth/passkeys/sign-in/verify', {
        credential: signIn.credential,
      }),
      'POST',
      'auth/passkeys/sign-in/verify',
    );
    await expectDocumented(
      await new Browser(portal).post('/api/auth/passkeys/sign-in/options'),
      'POST',
      'auth/passkeys/sign-in/options',
    );
    await expectDocumented(
      await browser.request('DELETE', `/api/auth/passkeys/${added.body.data.id}`),
      'DELETE',
      'auth/passkeys/[id]',
    );
    await expectDocumented(
      await admin.delete(`/api/auth/users/${user.id}/passkeys`),
      'DELETE',
      'auth/users/[id]/passkeys',
    );
  });
});

describe('a portal reached by an IP address', () => {
  it('when PUBLIC_URL is an IP, then the list says passkeys are off and why, and the ceremonies are 404', async () => {
    const ipAdmin = await signedInAdmin(onIp);
    const list = await ipAdmin.get('/api/auth/passkeys');
    expect(list.body.data).toEqual({
      availability: { available: false, reason: 'ip-host' },
      passkeys: [],
    });
    expectError(
      await ipAdmin.post('/api/auth/passkeys/sign-in/options'),
      404,
      'NOT_FOUND',
      /IP address/,
    );
    expectError(
      await ipAdmin.post('/api/auth/passkeys/registration/options', { password: 'x' }),
      404,
      'NOT_FOUND',
      /IP address/,
    );
  });
});
