/** The login rate limit: LOGIN_MAX_ATTEMPTS failures per username and client address in LOGIN_WINDOW_SECONDS. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { ADMIN_PASSWORD } from '../../support/portal';
import { ApiClient, type ApiResponse } from '../../support/api-client';
import {
  createUser,
  eventually,
  expectError,
  signedInAdmin,
  type TestUser,
} from '../../support/api-steps';

const LIMITS = { LOGIN_MAX_ATTEMPTS: '3', LOGIN_WINDOW_SECONDS: '60' };
const MESSAGE = /^Too many login attempts\. Please wait (\d+):(\d{2}) before trying again\.$/;

let limited: InProcessPortal;
let proxied: InProcessPortal;
let admin: ApiClient;
let alice: TestUser;

beforeAll(async () => {
  [limited, proxied] = await Promise.all([
    startInProcessPortal(LIMITS),
    startInProcessPortal({ ...LIMITS, TRUST_PROXY: 'true' }),
  ]);
  admin = await signedInAdmin(limited);
  alice = await createUser(admin, 'alice');
});

afterAll(async () => {
  await Promise.all([limited?.stop(), proxied?.stop()]);
});

function attempt(
  portal: InProcessPortal,
  username: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return new ApiClient(portal).post('/api/auth/login', { username, password }, { headers });
}

async function failTimes(
  portal: InProcessPortal,
  times: number,
  username: string,
  headers: Record<string, string> = {},
): Promise<void> {
  for (let index = 0; index < times; index += 1) {
    const response = await attempt(portal, username, `wrong-password-${index}`, headers);
    expectError(response, 401, 'AUTHENTICATION_ERROR', /^Invalid username or password/);
  }
}

function expectRateLimited(response: ApiResponse): number {
  expectError(response, 429, 'RATE_LIMITED', MESSAGE);
  const { retryAfter } = response.body;
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers.get('retry-after')).toBe(String(retryAfter));
  const [, minutes, seconds] = MESSAGE.exec(response.body.message)!;
  expect(Number(minutes) * 60 + Number(seconds)).toBe(retryAfter);
  // No session comes of it (the offline cache's user marker may be refreshed beside it).
  expect(
    response.headers.getSetCookie().filter((cookie) => cookie.startsWith('portal_session=')),
  ).toEqual([]);
  return retryAfter;
}

describe('without a trusted proxy', () => {
  it('when a username failed 3 times, then the 4th attempt answers 429 with retryAfter, even with the correct password', async () => {
    await failTimes(limited, 3, 'admin');
    expectRateLimited(await attempt(limited, 'admin', ADMIN_PASSWORD));
  });

  it("when one attempt is left before the lock, then the refusal says so, in the reader's language", async () => {
    const name = 'warned-user';
    expectError(
      await attempt(limited, name, 'wrong-1'),
      401,
      'AUTHENTICATION_ERROR',
      'Invalid username or password',
    );
    expectError(
      await attempt(limited, name, 'wrong-2'),
      401,
      'AUTHENTICATION_ERROR',
      'Invalid username or password. 1 attempt left: another wrong password pauses sign-in for up to 1 minutes.',
    );
    expect((await attempt(limited, name, 'wrong-3')).status).toBe(401);
    expectRateLimited(await attempt(limited, name, 'wrong-4'));
    const dutch = { 'Accept-Language': 'nl' };
    await attempt(limited, 'gewaarschuwd', 'fout-1', dutch);
    expectError(
      await attempt(limited, 'gewaarschuwd', 'fout-2', dutch),
      401,
      'AUTHENTICATION_ERROR',
      'Gebruikersnaam of wachtwoord is onjuist. Nog 1 poging: na nog een verkeerd wachtwoord kunt u tot 1 minuten niet inloggen.',
    );
  });

  it('when the locked username is typed in capitals, then it is locked all the same', async () => {
    expectRateLimited(await attempt(limited, 'ADMIN', ADMIN_PASSWORD));
  });

  it('when the locked client sends a different X-Forwarded-For, then it is still the same client and still locked', async () => {
    expectRateLimited(
      await attempt(limited, 'admin', ADMIN_PASSWORD, { 'X-Forwarded-For': '203.0.113.7' }),
    );
  });

  it('when a username is locked, then its existing session keeps working', async () => {
    expect((await admin.get('/api/auth/profile')).status).toBe(200);
  });

  it('when one username is locked, then another username from the same address still signs in', async () => {
    const response = await attempt(limited, alice.username, alice.password);
    expect(response.status).toBe(200);
  });

  it('when an unknown username failed 3 times, then it is locked too', async () => {
    await failTimes(limited, 3, 'ghost-user');
    expectRateLimited(await attempt(limited, 'ghost-user', 'any-password'));
  });

  it('when a login succeeds, then the earlier failures no longer count', async () => {
    await failTimes(limited, 2, alice.username);
    expect((await attempt(limited, alice.username, alice.password)).status).toBe(200);
    await failTimes(limited, 2, alice.username);
    expect((await attempt(limited, alice.username, alice.password)).status).toBe(200);
  });
});

describe('parallel and indirect guessing', () => {
  it('when 8 wrong logins for one username arrive at once, then only 3 are checked and the rest answer 429', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        attempt(limited, 'parallel-target', `wrong-password-${index}`),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
  });

  it('when a signed-in user guesses the current password on change-password, then the guesses count against the limit', async () => {
    const bob = await createUser(admin, 'bob');
    const session = new ApiClient(limited);
    await session.login(bob.username, bob.password);
    for (let index = 0; index < 3; index += 1) {
      const response = await session.post('/api/auth/change-password', {
        currentPassword: `guess-${index}`,
        newPassword: 'new-password',
      });
      expectError(response, 400, 'VALIDATION_ERROR', 'Current password is incorrect');
    }
    expectRateLimited(
      await session.post('/api/auth/change-password', {
        currentPassword: bob.password,
        newPassword: 'new-password',
      }),
    );
    expectRateLimited(await attempt(limited, bob.username, bob.password));
  });
});

describe('sign-ins at the same moment from one address', () => {
  /** A check the test lets finish: what a password check is to the limiter, held as long as the test wants. */
  function heldChecks() {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    const check = async () => {
      started += 1;
      await released;
      return 'signed in';
    };
    return { check, release, started: () => started };
  }

  it('when more than 4 sign-ins from one address are checked at once, then the rest wait their turn instead of 429, up to 32 waiting; past that 429 at once', async () => {
    const { loginLimiter } = limited.portal;
    const held = heldChecks();
    const address = '192.0.2.80';
    // Everyone in one office signs in at once, each as themselves.
    const attempts = Array.from({ length: 4 + 32 }, (_, index) =>
      loginLimiter.checkLoginAttempt(`office-${index}`, address, held.check).then(
        (result) => result,
        (error: unknown) => error,
      ),
    );
    await eventually(held.started, (started) => started === 4);
    const overflow = await loginLimiter
      .checkLoginAttempt('office-late', address, held.check)
      .catch((error: unknown) => error);
    expect(overflow).toMatchObject({ errorType: 'RATE_LIMITED', retryAfter: 1 });
    expect(held.started()).toBe(4);

    held.release();
    expect(await Promise.all(attempts)).toEqual(Array.from({ length: 36 }, () => 'signed in'));
    expect(held.started()).toBe(36);
  });

  it('when 8 right passwords for one user arrive at once, then all 8 sign in', async () => {
    const user = await createUser(admin, 'office-user');
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => attempt(limited, user.username, user.password)),
    );
    expect(responses.map((response) => response.status)).toEqual(
      Array.from({ length: 8 }, () => 200),
    );
  });
});

describe('with TRUST_PROXY=true', () => {
  const client = (address: string) => ({ 'X-Forwarded-For': address });

  it('when one forwarded address failed 3 times, then that address is locked', async () => {
    await failTimes(proxied, 3, 'admin', client('198.51.100.1'));
    expectRateLimited(await attempt(proxied, 'admin', ADMIN_PASSWORD, client('198.51.100.1')));
  });

  it('when the client puts a made-up address in front, then the address the proxy appended still counts', async () => {
    expectRateLimited(
      await attempt(proxied, 'admin', ADMIN_PASSWORD, client('192.0.2.99, 198.51.100.1')),
    );
  });

  it('when another forwarded address signs in with the same username, then it is a different client and not locked', async () => {
    expect((await attempt(proxied, 'admin', ADMIN_PASSWORD, client('198.51.100.2'))).status).toBe(
      200,
    );
    expect(
      (await attempt(proxied, 'admin', ADMIN_PASSWORD, client('198.51.100.1, 198.51.100.3')))
        .status,
    ).toBe(200);
  });
});
