/**
 * `npm run admin -- <command>` against a built portal's database while the portal runs: resetting a
 * password (ending the user's sessions), turning off a locked-out user's two-factor sign-in, and the
 * refusals an operator gets for an unknown user or command.
 */
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { createUser, queryDatabase, signIn, signedInAdmin } from '../support/api-steps';
import { runScript } from '../support/console';
import { startPortal, type Portal } from '../support/portal';

let portal: Portal;
let admin: ApiClient;

beforeAll(async () => {
  portal = await startPortal();
  admin = await signedInAdmin(portal);
});

afterAll(async () => {
  await portal?.stop();
});

/** The command as an operator types it, with the portal's own configuration. */
const runAdmin = (...args: string[]) => runScript(portal, 'admin', ...args);

async function consoleAudit(action: string) {
  return queryDatabase<{ actorId: number | null; target: string }>(
    portal,
    `SELECT "actorId", target FROM audit_entries WHERE "actorName" = 'console' AND action = ?`,
    [action],
  );
}

describe('reset-password', () => {
  it('when given --password, then the user signs in with it, their sessions have ended, and the audit trail names the console', async () => {
    const user = await createUser(admin, 'cli-reset');
    const session = await signIn(portal, user);
    const run = await runAdmin('reset-password', 'CLI-Reset', '--password', 'console-set-pass');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(
      'Password of "cli-reset" reset; all their sessions have ended and their API tokens are revoked.',
    );

    expect((await session.get('/api/auth/profile')).status).toBe(401);
    expect(
      (
        await new ApiClient(portal).post('/api/auth/login', {
          username: user.username,
          password: user.password,
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await new ApiClient(portal).post('/api/auth/login', {
          username: user.username,
          password: 'console-set-pass',
        })
      ).status,
    ).toBe(200);
    expect(await consoleAudit('user.password-reset')).toContainEqual({
      actorId: null,
      target: 'user cli-reset',
    });
  });

  it('when given --generate, then a strong password is printed and signs in', async () => {
    const user = await createUser(admin, 'cli-generate');
    const run = await runAdmin('reset-password', user.username, '--generate');
    expect(run.status).toBe(0);
    const password = /^New password: (\S+)$/m.exec(run.stdout)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(
      (await new ApiClient(portal).post('/api/auth/login', { username: user.username, password }))
        .status,
    ).toBe(200);
  });

  it('when the password breaks the rules or no terminal can ask for one, then exit 1 with the reason and nothing changes', async () => {
    const user = await createUser(admin, 'cli-short');
    const short = await runAdmin('reset-password', user.username, '--password', 'abc');
    expect(short.status).toBe(1);
    expect(short.stderr.trim()).toBe('Password must be at least 6 characters long');
    const unasked = await runAdmin('reset-password', user.username);
    expect(unasked.status).toBe(1);
    expect(unasked.stderr.trim()).toBe(
      'No terminal to ask for the password at: pass --password <password> or --generate.',
    );
    expect(
      (
        await new ApiClient(portal).post('/api/auth/login', {
          username: user.username,
          password: user.password,
        })
      ).status,
    ).toBe(200);
  });
});

describe('disable-2fa', () => {
  it('when run for a user with two-factor sign-in on, then it is off, their recovery codes are gone, and they sign in with the password', async () => {
    const user = await createUser(admin, 'cli-locked');
    const client = await signIn(portal, user);
    const { secret } = (await client.post('/api/auth/2fa/setup')).body.data;
    const code = TOTP.generate({
      secret: Secret.fromBase32(secret),
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    });
    expect((await client.post('/api/auth/2fa/enable', { code })).status).toBe(200);
    expect(
      (
        await new ApiClient(portal).post('/api/auth/login', {
          username: user.username,
          password: user.password,
        })
      ).body.data,
    ).toEqual({
      twoFactorRequired: true,
    });

    const run = await runAdmin('disable-2fa', user.username);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(
      'Two-factor sign-in of "cli-locked" is off and their recovery codes are deleted: they sign in with their password alone.',
    );

    const login = await new ApiClient(portal).post('/api/auth/login', {
      username: user.username,
      password: user.password,
    });
    expect(login.body.data.user.username).toBe(user.username);
    expect(
      await queryDatabase(portal, 'SELECT id FROM recovery_codes WHERE "userId" = ?', [user.id]),
    ).toEqual([]);
    expect(await consoleAudit('two-factor.reset')).toContainEqual({
      actorId: null,
      target: 'user cli-locked',
    });
  });
});

describe('refusals and help', () => {
  it.each([
    [['disable-2fa', 'ghost-user'], /^No user named "ghost-user" in sqlite:/],
    [['reset-password', 'ghost-user', '--generate'], /^No user named "ghost-user" in sqlite:/],
    [['disable-2fa'], /^Expected one username: disable-2fa <username>\n$/],
    [['reset-password', 'admin', '--pasword', 'x'], /^Unknown option '--pasword'/],
    [['rotate-keys'], /^Unknown command "rotate-keys"\.\n\nUsage: npm run admin -- <command>/],
    [[], /^Usage: npm run admin -- <command>/],
  ])(
    'when run as `npm run admin -- %j`, then exit 1 with a clear message',
    async (args, message) => {
      const run = await runAdmin(...args);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    },
  );

  it('when asked for --help, then the usage lists every command and exits 0', async () => {
    const run = await runAdmin('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('  disable-2fa <username>\n');
    expect(run.stdout).toContain(
      '  reset-password <username> [--password <password> | --generate]\n',
    );
    const commandHelp = await runAdmin('reset-password', '--help');
    expect(commandHelp.status).toBe(0);
    expect(commandHelp.stdout).toMatch(/^Usage: npm run admin -- reset-password <username>/);
  });
});
