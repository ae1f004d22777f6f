/**
 * Accounts that look after themselves, through a real SMTP server: the forgotten password (the same
 * answer for every login, a single-use link that expires, the limits) and invitations (sent, accepted,
 * resent, revoked), in the reader's language, and what the portal offers when it sends no e-mail.
 */
import { createHash } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../support/api-client';
import {
  createUser,
  eventually,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  type TestUser,
} from '../../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp-server';
import { stallLimit } from '../../support/test-pace';

/** LOGIN_MAX_ATTEMPTS_PER_ADDRESS here: its least. */
const FAILURES_PER_ADDRESS = 100;

let portal: InProcessPortal;
let smtp: TestSmtpServer;
let admin: ApiClient;
let addressCount = 0;

/** A client from an address of its own (the portal trusts X-Forwarded-For here), so each test's requests count apart. */
function freshClient(): ApiClient {
  addressCount += 1;
  const client = new ApiClient(portal);
  const address = `203.0.113.${addressCount}`;
  const request = client.request.bind(client);
  client.request = (method, path, options = {}) =>
    request(method, path, {
      ...options,
      headers: { 'X-Forwarded-For': address, ...options.headers },
    });
  return client;
}

const mailsTo = (address: string) =>
  smtp.messages.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.text === address);
async function nextMailTo(address: string, seen: number): Promise<ParsedMail> {
  const mails = await eventually(
    () => mailsTo(address),
    (found) => found.length > seen,
  );
  return mails[seen]!;
}
/** Everything the portal had to do after its answers is done (and so is the outbox's sending of it). */
async function settled(): Promise<void> {
  await portal.portal.afterAnswer.settled();
  await eventually(
    () =>
      queryDatabase<{ count: number }>(
        portal,
        'SELECT COUNT(*) AS count FROM outbox WHERE sentAt IS NULL AND failedAt IS NULL',
      ),
    ([row]) => Number(row!.count) === 0,
  );
}
const linkIn = (mail: ParsedMail, path: 'reset-password' | 'invite') => {
  const match = new RegExp(`(https?://\\S+/${path}/([A-Za-z0-9_-]+)\\?lang=(\\w+))`).exec(
    mail.text ?? '',
  );
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return { url: match[1]!, token: match[2]!, lang: match[3]! };
};
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function customer(name: string, locale?: 'nl'): Promise<TestUser> {
  const user = await createUser(admin, name);
  if (locale) {
    const client = await signIn(portal, user);
    expect((await client.put('/api/auth/profile/preferences', { locale })).status).toBe(200);
  }
  return user;
}

async function askReset(client: ApiClient, login: string) {
  const response = await client.post('/api/auth/password/forgot', { login });
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  return response;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  portal = await startInProcessPortal({
    SMTP_URL: smtp.url,
    TRUST_PROXY: 'true',
    PUBLIC_URL: 'https://portal.example.com',
    SANDBOX_RECEIPTS: '5',
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: String(FAILURES_PER_ADDRESS),
  });
  admin = await signedInAdmin(portal);
});

afterAll(async () => {
  await portal?.stop();
  await smtp?.stop();
});

describe('a forgotten password', () => {
  it('answers the same for an account, an e-mail address and a login nobody has, and mails only the account', async () => {
    const user = await customer('forgetful');
    const client = freshClient();
    const known = await askReset(client, 'forgetful');
    const unknown = await askReset(client, 'nobody-at-all');
    const byAddress = await askReset(client, 'FORGETFUL@example.com');
    expect(unknown.body).toEqual(known.body);
    expect(byAddress.body).toEqual(known.body);
    expect(known.body).toEqual({
      success: true,
      data: null,
      message:
        'If that is an account with an e-mail address, a link to choose a new password is on its way. It works for 30 minutes.',
    });
    await settled();
    const mails = mailsTo('forgetful@example.com');
    expect(mails).toHaveLength(2);
    expect(mails[0]!.subject).toBe('Freight Portal: choose a new password');
    const { url, token, lang } = linkIn(mails[0]!, 'reset-password');
    expect(url.startsWith('https://portal.example.com/reset-password/')).toBe(true);
    expect(lang).toBe('en');
    // Only the hash is kept.
    const stored = await queryDatabase<{ tokenHash: string }>(
      portal,
      'SELECT tokenHash FROM account_tokens WHERE userId = ?',
      [user.id],
    );
    expect(stored.map((row) => row.tokenHash)).toContain(
      sha256(linkIn(mails[1]!, 'reset-password').token),
    );
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(smtp.messages.some((mail) => mail.text?.includes('nobody-at-all'))).toBe(false);
  });

  it('sets the new password once, ends every session, and refuses the used link', async () => {
    const user = await customer('resetter');
    const signedIn = await signIn(portal, user);
    const client = freshClient();
    const seen = mailsTo('resetter@example.com').length;
    await askReset(client, 'resetter');
    const { token } = linkIn(await nextMailTo('resetter@example.com', seen), 'reset-password');

    const reset = await client.post('/api/auth/password/reset', {
      token,
      newPassword: 'brand-new-secret',
    });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body.message).toBe(
      'Your password has been changed. Sign in with your new password.',
    );
    expect((await signedIn.get('/api/auth/profile')).status).toBe(401);
    expect(
      (
        await new ApiClient(portal).post('/api/auth/login', {
          username: 'resetter',
          password: user.password,
        })
      ).status,
    ).toBe(401);
    await signIn(portal, { username: 'resetter', password: 'brand-new-secret' });

    expectError(
      await client.post('/api/auth/password/reset', { token, newPassword: 'another-secret' }),
      400,
      'VALIDATION_ERROR',
      'This password reset link has expired or has already been used. Please ask for a new one.',
    );
    await signIn(portal, { username: 'resetter', password: 'brand-new-secret' });
  });

  it('applies the password rules of change-password, and refuses unknown and malformed tokens', async () => {
    const client = freshClient();
    const short = await client.post('/api/auth/password/reset', {
      token: 'x'.repeat(43),
      newPassword: 'abc',
    });
    expectError(short, 400, 'VALIDATION_ERROR');
    expect(short.body.details).toContainEqual({
      field: 'newPassword',
      message: 'New password must be at least 6 characters',
    });
    expectError(
      await client.post('/api/auth/password/reset', {
        token: 'x'.repeat(43),
        newPassword: 'long-enough',
      }),
      400,
      'VALIDATION_ERROR',
      /expired or has already been used/,
    );
    expectError(
      await client.post('/api/auth/password/reset', {
        token: 'x'.repeat(500),
        newPassword: 'long-enough',
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await client.post('/api/auth/password/forgot', { login: '' }),
      400,
      'VALIDATION_ERROR',
      'Enter your username or e-mail address',
    );
  });

  it('lets a link work for 30 minutes, and a newer link replace an older one', async () => {
    await customer('latecomer');
    const client = freshClient();
    let seen = mailsTo('latecomer@example.com').length;
    await askReset(client, 'latecomer');
    const first = linkIn(await nextMailTo('latecomer@example.com', seen++), 'reset-password').token;
    await askReset(client, 'latecomer');
    const second = linkIn(
      await nextMailTo('latecomer@example.com', seen++),
      'reset-password',
    ).token;
    expectError(
      await client.post('/api/auth/password/reset', { token: first, newPassword: 'replaced-link' }),
      400,
      'VALIDATION_ERROR',
    );

    portal.clock.advance(31 * 60_000);
    expectError(
      await client.post('/api/auth/password/reset', { token: second, newPassword: 'expired-link' }),
      400,
      'VALIDATION_ERROR',
      /expired/,
    );
  });

  it('writes the e-mail in the account’s language, and the link opens in it', async () => {
    await customer('vergeetachtig', 'nl');
    const seen = mailsTo('vergeetachtig@example.com').length;
    await askReset(freshClient(), 'vergeetachtig');
    const mail = await nextMailTo('vergeetachtig@example.com', seen);
    expect(mail.subject).toBe('Freight Portal: kies een nieuw wachtwoord');
    const link = linkIn(mail, 'reset-password');
    expect(link.lang).toBe('nl');
    const page = await new ApiClient(portal).get(`/reset-password/${link.token}?lang=nl`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Kies een nieuw wachtwoord');
  });

  it('limits e-mails per account and per address without saying so', async () => {
    await customer('flooded');
    const client = freshClient();
    for (let attempt = 0; attempt < 5; attempt += 1) await askReset(client, 'flooded');
    await settled();
    expect(mailsTo('flooded@example.com')).toHaveLength(3);

    const spraying = freshClient();
    await customer('sprayed');
    for (let attempt = 0; attempt < 10; attempt += 1) await askReset(spraying, `nobody-${attempt}`);
    const answer = await askReset(spraying, 'sprayed');
    expect(answer.body.success).toBe(true);
    await settled();
    expect(mailsTo('sprayed@example.com')).toHaveLength(0);
    // Another address is not held back by that one.
    await askReset(freshClient(), 'sprayed');
    await nextMailTo('sprayed@example.com', 0);
  });

  it('sends nothing to a disabled account, and the reset page of a used link says so at once', async () => {
    const user = await customer('disabled');
    expect(
      (
        await admin.put(`/api/auth/users/${user.id}`, {
          username: 'disabled',
          fullName: null,
          email: 'disabled@example.com',
          role: 'viewer',
          isActive: false,
        })
      ).status,
    ).toBe(200);
    await askReset(freshClient(), 'disabled');
    await settled();
    expect(mailsTo('disabled@example.com')).toHaveLength(0);

    const page = await new ApiClient(portal).get(`/reset-password/${'y'.repeat(43)}`);
    expect(page.status).toBe(404);
    expect(page.body).toContain('This password reset link has expired or has already been used.');
    expect(page.body).toContain('href="/forgot-password"');
  });

  it('works as a plain form post, and the sign-in page then says the password is set', async () => {
    await customer('formuser');
    const client = freshClient();
    const seen = mailsTo('formuser@example.com').length;
    const asked = await client.post('/forgot-password', undefined, {
      body: 'login=formuser',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(asked.status).toBe(202);
    expect(asked.body).toContain('a link to choose a new password is on its way');
    const { token } = linkIn(await nextMailTo('formuser@example.com', seen), 'reset-password');

    const mismatch = await client.post(`/reset-password/${token}`, undefined, {
      body: 'newPassword=form-secret&confirmPassword=other-secret',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toContain('Passwords don&#39;t match');

    const saved = await client.post(`/reset-password/${token}`, undefined, {
      body: 'newPassword=form-secret&confirmPassword=form-secret',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/login');
    const notice = saved.headers
      .getSetCookie()
      .map((line) => line.split(';')[0]!)
      .join('; ');
    const login = await client.get('/login', { headers: { Cookie: notice } });
    expect(login.body).toContain('Your password has been changed. Sign in with your new password.');
    expect(login.body).toContain('href="/forgot-password"');
    await signIn(portal, { username: 'formuser', password: 'form-secret' });
  });
});

describe('invitations', () => {
  async function invite(username: string, extra: Record<string, unknown> = {}) {
    return admin.post('/api/auth/users', {
      username,
      fullName: `${username} name`,
      email: `${username}@example.com`,
      role: 'viewer',
      invite: true,
      ...extra,
    });
  }

  it('creates the user as invited, who signs in only after choosing a password with the link', async () => {
    const created = await invite('newcomer');
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.message).toBe('Invitation sent');
    expect(created.body.data.user).toMatchObject({
      username: 'newcomer',
      invited: true,
      isActive: true,
    });
    const mail = await nextMailTo('newcomer@example.com', 0);
    expect(mail.subject).toBe('Freight Portal: your invitation');
    expect(mail.text).toContain('"newcomer"');
    const { token } = linkIn(mail, 'invite');

    const refused = await new ApiClient(portal).post('/api/auth/login', {
      username: 'newcomer',
      password: 'anything-at-all',
    });
    expectError(refused, 401, 'AUTHENTICATION_ERROR');
    const page = await new ApiClient(portal).get(`/invite/${token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<strong>newcomer</strong>');

    const short = await freshClient().post('/api/auth/invitations/accept', {
      token,
      newPassword: 'abc',
    });
    expectError(short, 400, 'VALIDATION_ERROR');
    const accepted = await freshClient().post('/api/auth/invitations/accept', {
      token,
      newPassword: 'my-own-secret',
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.message).toBe(
      'Your account is ready. Sign in with your username and your new password.',
    );
    await signIn(portal, { username: 'newcomer', password: 'my-own-secret' });
    const listed = (await admin.get('/api/auth/users')).body.data.find(
      (user: { username: string }) => user.username === 'newcomer',
    );
    expect(listed.invited).toBe(false);

    expectError(
      await freshClient().post('/api/auth/invitations/accept', { token, newPassword: 'second-go' }),
      400,
      'VALIDATION_ERROR',
      'This invitation has expired, was withdrawn or has already been used. Please ask your administrator for a new one.',
    );
    expectError(
      await admin.post(`/api/auth/users/${listed.id}/invite`),
      409,
      'CONFLICT',
      'This user has already accepted the invitation',
    );
  });

  it('resends with a new link (the old one stops working), revokes, and expires after 7 days', async () => {
    const id = (await invite('hesitant')).body.data.user.id as number;
    const first = linkIn(await nextMailTo('hesitant@example.com', 0), 'invite').token;
    const resent = await admin.post(`/api/auth/users/${id}/invite`);
    expect(resent.status).toBe(200);
    expect(resent.body.message).toBe('Invitation sent again');
    const second = linkIn(await nextMailTo('hesitant@example.com', 1), 'invite').token;
    expectError(
      await freshClient().post('/api/auth/invitations/accept', {
        token: first,
        newPassword: 'first-link',
      }),
      400,
      'VALIDATION_ERROR',
    );

    const revoked = await admin.delete(`/api/auth/users/${id}/invite`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.user.invited).toBe(true);
    expectError(
      await freshClient().post('/api/auth/invitations/accept', {
        token: second,
        newPassword: 'revoked-link',
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect((await new ApiClient(portal).get(`/invite/${second}`)).status).toBe(404);

    await admin.post(`/api/auth/users/${id}/invite`);
    const third = linkIn(await nextMailTo('hesitant@example.com', 2), 'invite').token;
    portal.clock.advance(7 * 86_400_000 + 60_000);
    expectError(
      await freshClient().post('/api/auth/invitations/accept', {
        token: third,
        newPassword: 'too-late-now',
      }),
      400,
      'VALIDATION_ERROR',
    );
    // A week on, the admin's own session has ended too.
    admin = await signedInAdmin(portal);

    const actions = await queryDatabase<{ action: string; target: string; actorName: string }>(
      portal,
      "SELECT action, target, actorName FROM audit_entries WHERE target = 'user hesitant' ORDER BY id",
    );
    expect(actions.map((entry) => entry.action)).toEqual([
      'user.invited',
      'user.invitation-resent',
      'user.invitation-revoked',
      'user.invitation-resent',
    ]);
    expect(actions.every((entry) => entry.actorName === 'admin')).toBe(true);
  });

  it('writes the invitation in the language the admin chose for it, else in the admin’s', async () => {
    const chosen = await invite('gekozen', { locale: 'nl' });
    expect(chosen.body.message).toBe('Invitation sent');
    expect((await nextMailTo('gekozen@example.com', 0)).subject).toBe(
      'Freight Portal: uw uitnodiging',
    );
    const unknownLanguage = await invite('klingon', { locale: 'tlh' });
    expectError(unknownLanguage, 400, 'VALIDATION_ERROR');
    expect(unknownLanguage.body.details).toContainEqual({
      field: 'locale',
      message: 'Language must be one of: en, nl',
    });

    const dutchAdmin = await signedInAdmin(portal);
    expect((await dutchAdmin.put('/api/auth/profile/preferences', { locale: 'nl' })).status).toBe(
      200,
    );
    const created = await dutchAdmin.post('/api/auth/users', {
      username: 'nieuwkomer',
      email: 'nieuwkomer@example.com',
      role: 'viewer',
      invite: true,
    });
    expect(created.body.message).toBe('Uitnodiging verstuurd');
    const mail = await nextMailTo('nieuwkomer@example.com', 0);
    expect(mail.subject).toBe('Freight Portal: uw uitnodiging');
    expect(linkIn(mail, 'invite').lang).toBe('nl');
    expect((await dutchAdmin.put('/api/auth/profile/preferences', { locale: 'en' })).status).toBe(
      200,
    );
    // Their saved language from then on: the reset e-mail is Dutch too.
    expect(
      await queryDatabase(
        portal,
        "SELECT locale FROM users WHERE username IN ('gekozen', 'nieuwkomer') ORDER BY username",
      ),
    ).toEqual([{ locale: 'nl' }, { locale: 'nl' }]);
  });

  it('refuses an invitation without an address or with a password, and lets only admins resend or revoke', async () => {
    const noAddress = await invite('addressless', { email: null });
    expectError(noAddress, 400, 'VALIDATION_ERROR');
    expect(noAddress.body.details).toContainEqual({
      field: 'email',
      message: "An invitation needs the user's e-mail address",
    });
    const both = await invite('undecided', { password: 'typed-password' });
    expectError(both, 400, 'VALIDATION_ERROR');
    expect(both.body.details).toContainEqual({
      field: 'password',
      message: 'Choose either a password or an invitation, not both',
    });
    const neither = await admin.post('/api/auth/users', {
      username: 'passwordless',
      role: 'viewer',
    });
    expect(neither.body.details).toContainEqual({
      field: 'password',
      message: 'Password is required',
    });
    expect(
      await queryDatabase(
        portal,
        "SELECT id FROM users WHERE username IN ('addressless', 'undecided', 'passwordless')",
      ),
    ).toEqual([]);

    const id = (await invite('guarded')).body.data.user.id as number;
    const viewer = await signIn(portal, await createUser(admin, 'plainviewer'));
    expectError(await viewer.post(`/api/auth/users/${id}/invite`), 403, 'FORBIDDEN');
    expectError(await viewer.delete(`/api/auth/users/${id}/invite`), 403, 'FORBIDDEN');
    expectError(
      await new ApiClient(portal).post(`/api/auth/users/${id}/invite`),
      401,
      'AUTHENTICATION_ERROR',
    );
    expectError(await admin.post('/api/auth/users/999999/invite'), 404, 'NOT_FOUND');
  });

  it('ends the invitation when the admin sets a password instead', async () => {
    const id = (await invite('shortcut')).body.data.user.id as number;
    const { token } = linkIn(await nextMailTo('shortcut@example.com', 0), 'invite');
    expect(
      (await admin.put(`/api/auth/users/${id}/reset-password`, { newPassword: 'admin-chosen' }))
        .status,
    ).toBe(200);
    await signIn(portal, { username: 'shortcut', password: 'admin-chosen' });
    expectError(
      await freshClient().post('/api/auth/invitations/accept', {
        token,
        newPassword: 'too-late-now',
      }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('links guessed at', () => {
  it('counts made-up reset and invitation tokens as failures of the address, as wrong passwords are: past the limit even a working link is refused from there', async () => {
    const user = await customer('guessed-at');
    const seen = mailsTo('guessed-at@example.com').length;
    await askReset(freshClient(), 'guessed-at');
    const { token } = linkIn(await nextMailTo('guessed-at@example.com', seen), 'reset-password');

    const guesser = freshClient();
    for (let guess = 0; guess < FAILURES_PER_ADDRESS; guess++) {
      const path = guess % 2 === 0 ? '/api/auth/password/reset' : '/api/auth/invitations/accept';
      const madeUp = `${String(guess).padStart(4, '0')}${'x'.repeat(39)}`;
      expectError(
        await guesser.post(path, { token: madeUp, newPassword: 'long-enough' }),
        400,
        'VALIDATION_ERROR',
        /expired/,
      );
    }
    expectError(
      await guesser.post('/api/auth/password/reset', { token, newPassword: 'chosen-secret' }),
      429,
      'RATE_LIMITED',
    );
    expectError(
      await guesser.post('/api/auth/invitations/accept', {
        token: 'y'.repeat(43),
        newPassword: 'chosen-secret',
      }),
      429,
      'RATE_LIMITED',
    );
    expectError(
      await guesser.post('/api/auth/login', { username: user.username, password: user.password }),
      429,
      'RATE_LIMITED',
    );

    // The link itself still works, from the owner's address.
    expect(
      (
        await freshClient().post('/api/auth/password/reset', {
          token,
          newPassword: 'chosen-secret',
        })
      ).status,
    ).toBe(200);
    await signIn(portal, { username: 'guessed-at', password: 'chosen-secret' });
  }, 60_000);
});

describe('without SMTP_URL', () => {
  let quiet: InProcessPortal;
  beforeAll(async () => {
    quiet = await startInProcessPortal({ SANDBOX_RECEIPTS: '5' });
  }, stallLimit(120_000));
  afterAll(async () => {
    await quiet?.stop();
  });

  it('offers no reset link, answers the endpoints 404, says whom to ask, and refuses invitations', async () => {
    const visitor = new ApiClient(quiet);
    const login = (await visitor.get('/login', { headers: { 'Accept-Language': 'en' } }))
      .body as string;
    expect(login).not.toContain('/forgot-password');
    expect(login).toContain('Forgot your password? Ask your administrator.');
    expect((await visitor.get('/login', { headers: { 'Accept-Language': 'nl' } })).body).toContain(
      'Wachtwoord vergeten? Vraag het uw beheerder.',
    );
    expectError(
      await visitor.post('/api/auth/password/forgot', { login: 'admin' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await visitor.post('/api/auth/password/reset', {
        token: 'x'.repeat(43),
        newPassword: 'whatever-1',
      }),
      404,
      'NOT_FOUND',
    );
    const page = await visitor.get('/forgot-password');
    expect(page.body).toContain(
      'This portal does not send e-mail. Please ask your administrator to reset your password.',
    );

    const quietAdmin = await signedInAdmin(quiet);
    // Nobody is e-mailed when the package arrives: the pre-alert's confirmation promises no message.
    const customer = await signIn(quiet, await createUser(quietAdmin, 'noletter'));
    const confirmed = (
      await customer.get('/prealerts?done=created', { headers: { 'Accept-Language': 'en' } })
    ).body as string;
    expect(confirmed).toContain(
      'Pre-alert saved. Once the package arrives, it shows here as Received, with its receipt.',
    );
    expect(confirmed).not.toContain('We will let you know');
    const invited = await quietAdmin.post('/api/auth/users', {
      username: 'cannotinvite',
      email: 'c@example.com',
      role: 'viewer',
      invite: true,
    });
    expectError(invited, 400, 'VALIDATION_ERROR', /SMTP_URL is not set/);
    expect(
      await queryDatabase(quiet, "SELECT id FROM users WHERE username = 'cannotinvite'"),
    ).toEqual([]);
  });
});
