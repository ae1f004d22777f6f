/**
 * Taking an account back after a compromise, through a real SMTP server: a reset (by link or by an
 * admin) leaves no session or API token of the intruder's working and tells the user which tokens went;
 * a password change does the same unless the user says not to; enabling two-factor sign-in ends the
 * other sessions, and turning it off takes a second factor as well as the password.
 */
import { Secret, TOTP } from 'otpauth';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type ApiResponse } from '../../support/api-client';
import {
  createUser,
  databaseDate,
  eventually,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  writeDatabase,
  type TestUser,
} from '../../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp-server';

let portal: InProcessPortal;
let smtp: TestSmtpServer;
let admin: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  portal = await startInProcessPortal({
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://portal.example.com',
    SANDBOX_RECEIPTS: '5',
  });
  admin = await signedInAdmin(portal);
}, 60_000);

afterAll(async () => {
  await portal?.stop();
  await smtp?.stop();
});

const mailsTo = (address: string) =>
  smtp.messages.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.text === address);
async function mailTo(address: string, subject: string): Promise<ParsedMail> {
  const [mail] = await eventually(
    () => mailsTo(address).filter((found) => found.subject === subject),
    (found) => found.length > 0,
  );
  return mail!;
}

async function makeToken(
  client: ApiClient,
  name: string,
): Promise<{ token: string; prefix: string }> {
  const response = await client.post('/api/auth/tokens', { name, expiresInDays: 365 });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}
const readWithToken = (token: string): Promise<ApiResponse> =>
  new ApiClient(portal).request('GET', '/api/receipts', {
    origin: null,
    headers: { Authorization: `Bearer ${token}` },
  });

/** A user signed in twice (the intruder's session and their own) with an API token the intruder made. */
async function compromised(name: string) {
  const user = await createUser(admin, name);
  const intruder = await signIn(portal, user);
  const owner = await signIn(portal, user);
  const token = await makeToken(intruder, `${name} "x", 365 days`);
  expect((await readWithToken(token.token)).status).toBe(200);
  return { user, intruder, owner, token };
}

async function preferDutch(user: TestUser): Promise<void> {
  const client = await signIn(portal, user);
  expect((await client.put('/api/auth/profile/preferences', { locale: 'nl' })).status).toBe(200);
}

async function expectLockedOut(intruder: ApiClient, token: string): Promise<void> {
  expectError(await intruder.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');
  expectError(
    await readWithToken(token),
    401,
    'AUTHENTICATION_ERROR',
    'This API token has been revoked. Create a new one in Profile Settings.',
  );
}

describe('a reset', () => {
  it('by link ends every session, revokes every API token, and the e-mail says so and names them', async () => {
    const { user, intruder, owner, token } = await compromised('linkreset');
    await new ApiClient(portal).post('/api/auth/password/forgot', { login: user.username });
    await portal.portal.afterAnswer.settled();
    const link = await mailTo(
      `${user.username}@example.com`,
      'Freight Portal: choose a new password',
    );
    const resetToken = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(link.text ?? '')![1]!;

    expect(
      (
        await new ApiClient(portal).post('/api/auth/password/reset', {
          token: resetToken,
          newPassword: 'taken-back-1',
        })
      ).status,
    ).toBe(200);
    await expectLockedOut(intruder, token.token);
    expectError(await owner.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');

    const notice = await mailTo(
      `${user.username}@example.com`,
      'Freight Portal: your password was reset',
    );
    expect(notice.text).toContain('was just reset with a link sent to this address');
    expect(notice.text).toContain('Every session of your account has been signed out.');
    expect(notice.text).toContain(`- linkreset "x", 365 days (${token.prefix}…)`);
    expect(notice.text).not.toContain(token.token);
  });

  it('by an admin ends every session, revokes every API token, and the e-mail says so in the user’s language', async () => {
    const { user, intruder, token } = await compromised('adminreset');
    await preferDutch(user);
    expect(
      (
        await admin.put(`/api/auth/users/${user.id}/reset-password`, {
          newPassword: 'taken-back-2',
        })
      ).status,
    ).toBe(200);
    await expectLockedOut(intruder, token.token);

    const notice = await mailTo(
      `${user.username}@example.com`,
      'Freight Portal: uw wachtwoord is opnieuw ingesteld',
    );
    expect(notice.text).toContain('Een beheerder heeft zojuist een nieuw wachtwoord ingesteld');
    expect(notice.text).toContain(`(${token.prefix}…)`);
  });
});

describe('changing one’s password', () => {
  it('by default signs out the other sessions and revokes the API tokens; the current session stays', async () => {
    const { user, intruder, owner: current, token } = await compromised('changeall');
    const changed = await current.post('/api/auth/change-password', {
      currentPassword: user.password,
      newPassword: 'changed-all-1',
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await expectLockedOut(intruder, token.token);
    expect((await current.get('/api/auth/profile')).status).toBe(200);
  });

  it('when the user unticks the box, then the other sessions and the API tokens stay', async () => {
    const { user, intruder, owner: current, token } = await compromised('changeone');
    const changed = await current.post('/api/auth/change-password', {
      currentPassword: user.password,
      newPassword: 'changed-one-1',
      signOutOthers: false,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await intruder.get('/api/auth/profile')).status).toBe(200);
    expect((await readWithToken(token.token)).status).toBe(200);
    expectError(
      await current.post('/api/auth/change-password', {
        currentPassword: 'changed-one-1',
        newPassword: 'changed-one-2',
        signOutOthers: 'no',
      }),
      400,
      'VALIDATION_ERROR',
      'signOutOthers must be true or false',
    );
  });
});

const codeNow = (secret: string) =>
  TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp: portal.clock.now(),
  });

describe('two-factor sign-in', () => {
  it('when it is enabled, then the other sessions end; turning it off takes the password and a code or a recovery code', async () => {
    const { user, intruder, owner: current } = await compromised('tfrecover');
    const { secret } = (await current.post('/api/auth/2fa/setup')).body.data;
    const enabled = await current.post('/api/auth/2fa/enable', { code: codeNow(secret) });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expectError(await intruder.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');
    expect((await current.get('/api/auth/2fa')).body.data.enabled).toBe(true);
    portal.clock.advance(30_000);

    const passwordOnly = await current.post('/api/auth/2fa/disable', { password: user.password });
    expectError(
      passwordOnly,
      400,
      'VALIDATION_ERROR',
      'Enter the code from your authenticator app or a recovery code',
    );
    const wrongCode = await current.post('/api/auth/2fa/disable', {
      password: user.password,
      code: '000000',
    });
    expectError(wrongCode, 400, 'VALIDATION_ERROR', 'The code is wrong or has already been used');
    expect(wrongCode.body.details).toEqual([
      { field: 'code', message: 'The code is wrong or has already been used' },
    ]);
    expect((await current.get('/api/auth/2fa')).body.data.enabled).toBe(true);

    const [recoveryCode] = enabled.body.data.recoveryCodes;
    expect(
      (await current.post('/api/auth/2fa/disable', { password: user.password, code: recoveryCode }))
        .status,
    ).toBe(200);
    expect((await current.get('/api/auth/2fa')).body.data.enabled).toBe(false);
  });
});

describe('an admin’s correction of a user', () => {
  const linkIn = (mail: ParsedMail, path: 'invite' | 'reset-password') =>
    new RegExp(`/${path}/([A-Za-z0-9_-]+)`).exec(mail.text ?? '')![1]!;
  const edit = (user: { id: number; username: string }, change: Record<string, unknown>) =>
    admin.put(`/api/auth/users/${user.id}`, {
      username: user.username,
      fullName: null,
      email: `${user.username}@example.com`,
      role: 'viewer',
      isActive: true,
      ...change,
    });

  it('when the address of an invitation is corrected, then the first link stops working and a new one goes to the new address', async () => {
    const created = await admin.post('/api/auth/users', {
      username: 'mistyped',
      email: 'mistyped@exmaple.com',
      role: 'admin',
      invite: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const user = created.body.data.user;
    const first = linkIn(
      await mailTo('mistyped@exmaple.com', 'Freight Portal: your invitation'),
      'invite',
    );

    const corrected = await edit(user, { email: 'mistyped@example.com', role: 'admin' });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    expectError(
      await new ApiClient(portal).post('/api/auth/invitations/accept', {
        token: first,
        newPassword: 'stolen-admin-1',
      }),
      400,
      'VALIDATION_ERROR',
      /This invitation has expired, was withdrawn or has already been used/,
    );
    const second = linkIn(
      await mailTo('mistyped@example.com', 'Freight Portal: your invitation'),
      'invite',
    );
    expect(
      (
        await new ApiClient(portal).post('/api/auth/invitations/accept', {
          token: second,
          newPassword: 'rightful-1',
        })
      ).status,
    ).toBe(200);
    await signIn(portal, { username: 'mistyped', password: 'rightful-1' });
  });

  it('when an invited user’s role changes, then the link ends and a new one is sent; when they are disabled, none is', async () => {
    const created = await admin.post('/api/auth/users', {
      username: 'promotedinvite',
      email: 'promotedinvite@example.com',
      role: 'viewer',
      invite: true,
    });
    const user = created.body.data.user;
    const first = linkIn(
      await mailTo('promotedinvite@example.com', 'Freight Portal: your invitation'),
      'invite',
    );
    expect((await edit(user, { role: 'admin-viewer' })).status).toBe(200);
    await eventually(
      () => mailsTo('promotedinvite@example.com'),
      (mails) => mails.length === 2,
    );
    const second = linkIn(mailsTo('promotedinvite@example.com')[1]!, 'invite');
    expect(second).not.toBe(first);
    expect((await edit(user, { role: 'admin-viewer', isActive: false })).status).toBe(200);
    expectError(
      await new ApiClient(portal).post('/api/auth/invitations/accept', {
        token: second,
        newPassword: 'too-late-1',
      }),
      400,
      'VALIDATION_ERROR',
    );
    await portal.portal.outbox.idle();
    expect(mailsTo('promotedinvite@example.com')).toHaveLength(2);
  });

  it('when the address, the role or the active state changes, then a reset link sent before stops working', async () => {
    for (const [name, change] of [
      [
        'resetmoved',
        (user: { username: string }) => ({ email: `${user.username}@elsewhere.example.com` }),
      ],
      ['resetrole', () => ({ role: 'admin-viewer' })],
      ['resetoff', () => ({ isActive: false })],
    ] as const) {
      const user = await createUser(admin, name);
      await new ApiClient(portal).post('/api/auth/password/forgot', { login: name });
      await portal.portal.afterAnswer.settled();
      const token = linkIn(
        await mailTo(`${name}@example.com`, 'Freight Portal: choose a new password'),
        'reset-password',
      );
      expect((await edit(user, change(user))).status).toBe(200);
      if (name === 'resetoff') expect((await edit(user, {})).status).toBe(200);
      expectError(
        await new ApiClient(portal).post('/api/auth/password/reset', {
          token,
          newPassword: 'not-anymore-1',
        }),
        400,
        'VALIDATION_ERROR',
        'This password reset link has expired or has already been used. Please ask for a new one.',
      );
    }
  });
});

describe('admins and other people’s accounts', () => {
  it('when an admin removes their own two-factor sign-in through the admin route, then 403: it takes their profile, password and code', async () => {
    const adminId = (await admin.get('/api/auth/profile')).body.data.user.id;
    expectError(
      await admin.delete(`/api/auth/users/${adminId}/2fa`),
      403,
      'FORBIDDEN',
      'Turn off your own two-factor sign-in in Profile Settings, with your password and a code.',
    );
  });

  it('when an admin removes another user’s two-factor sign-in, then that user is e-mailed', async () => {
    const user = await createUser(admin, 'tfremoved');
    const client = await signIn(portal, user);
    const { secret } = (await client.post('/api/auth/2fa/setup')).body.data;
    expect((await client.post('/api/auth/2fa/enable', { code: codeNow(secret) })).status).toBe(200);
    expect((await admin.delete(`/api/auth/users/${user.id}/2fa`)).status).toBe(200);
    const notice = await mailTo(
      'tfremoved@example.com',
      'Freight Portal: two-factor sign-in turned off',
    );
    expect(notice.text).toContain(
      'An administrator turned off two-factor sign-in for your Freight Portal account "tfremoved".',
    );
  });

  it('when a user is promoted to a staff role, then their sessions end', async () => {
    const user = await createUser(admin, 'promoted');
    const client = await signIn(portal, user);
    const edit = {
      username: user.username,
      fullName: null,
      email: 'promoted@example.com',
      isActive: true,
    };
    expect((await admin.put(`/api/auth/users/${user.id}`, { ...edit, role: 'admin' })).status).toBe(
      200,
    );
    expectError(await client.get('/api/auth/profile'), 401, 'AUTHENTICATION_ERROR');
    const again = await signIn(portal, { username: user.username, password: user.password });
    expect(
      (
        await admin.put(`/api/auth/users/${user.id}`, {
          ...edit,
          fullName: 'Renamed',
          role: 'admin',
        })
      ).status,
    ).toBe(200);
    expect((await again.get('/api/auth/profile')).status).toBe(200);
  });
});

describe('the outbox', () => {
  type StoredMail = {
    id: number;
    textBody: string;
    htmlBody: string;
    unsubscribeUrl: string | null;
    sentAt: string | null;
  };
  const storedMails = (recipient: string) =>
    queryDatabase<StoredMail>(
      portal,
      'SELECT id, textBody, htmlBody, unsubscribeUrl, sentAt FROM outbox WHERE recipient = ? ORDER BY id',
      [recipient],
    );

  it('when a reset e-mail is sent, then its working link is no longer stored; housekeeping drops it a week later', async () => {
    const user = await createUser(admin, 'outboxlink');
    await new ApiClient(portal).post('/api/auth/password/forgot', { login: user.username });
    await portal.portal.afterAnswer.settled();
    const mail = await mailTo('outboxlink@example.com', 'Freight Portal: choose a new password');
    const token = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1]!;
    const [stored] = await eventually(
      () => storedMails('outboxlink@example.com'),
      (rows) => rows.length === 1 && rows[0]!.sentAt !== null,
    );
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored).toMatchObject({ textBody: '', htmlBody: '', unsubscribeUrl: null });

    portal.clock.advance(6 * 86_400_000);
    await portal.portal.keepHouse();
    expect(await storedMails('outboxlink@example.com')).toHaveLength(1);
    portal.clock.advance(2 * 86_400_000);
    await portal.portal.keepHouse();
    expect(await storedMails('outboxlink@example.com')).toHaveLength(0);
  });

  it('when an e-mail sent before this version still has its body, then housekeeping clears it', async () => {
    const now = databaseDate(new Date(portal.clock.now()));
    await writeDatabase(
      portal,
      'INSERT INTO outbox (userId, recipient, subject, textBody, htmlBody, unsubscribeUrl, attempts, nextAttemptAt, sentAt, createdAt) VALUES (NULL, ?, ?, ?, ?, NULL, 0, ?, ?, ?)',
      [
        'older@example.com',
        'Freight Portal: your invitation',
        'https://portal.example.com/invite/live-link',
        '<a href="https://portal.example.com/invite/live-link">',
        now,
        now,
        now,
      ],
    );
    await portal.portal.keepHouse();
    expect(await storedMails('older@example.com')).toEqual([
      expect.objectContaining({ textBody: '', htmlBody: '' }),
    ]);
  });
});
