/**
 * Two portal processes on one database behave as one (README "Scaling out"): sessions, the login
 * limiter, syncs, the provider's token refresh and uploaded images. Process B reaches the provider
 * (A's embedded sandbox) over HTTP, as a second process reaches the real provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngFile } from '../../support/images';
import { newPortalFolder, startPortal, testPostgresUrl, type Portal } from '../../support/portal';
import { ApiClient, type ApiResponse } from '../../support/api-client';
import { fetchImage } from '../../support/branding-steps';
import { stallLimit } from '../../support/test-pace';
import {
  createUser,
  expectError,
  queryDatabase,
  signedInAdmin,
  signIn,
  waitForMirror,
  writeDatabase,
  type TestUser,
} from '../../support/api-steps';

let portalA: Portal;
let portalB: Portal;
let adminA: ApiClient;
let adminB: ApiClient;

const SHARED_ENV = {
  SANDBOX_RECEIPTS: '200',
  // Syncs only when a test asks; the data moves only when a test says so.
  SYNC_INTERVAL_SECONDS: '3600',
  SANDBOX_CHANGE_SECONDS: '86400',
  LOGIN_MAX_ATTEMPTS: '5',
};

beforeAll(async () => {
  portalA = await startPortal({
    ...SHARED_ENV,
    SANDBOX_CONTROL: 'true',
    // Every provider call needs a refresh first, and every refresh rotates the refresh token.
    SANDBOX_ACCESS_TOKEN_SECONDS: '2',
  });
  adminA = await signedInAdmin(portalA);
  await waitForMirror(adminA);
  const sandbox = `${portalA.url}/sandbox`;
  portalB = await startPortal(
    { ...SHARED_ENV, PROVIDER: 'http', PROVIDER_URL: sandbox, PROVIDER_ISSUER: sandbox },
    { alongside: portalA },
  );
  adminB = await signedInAdmin(portalB);
  // B's first sync (on start) is over once a sync asked of it answers.
  expect((await adminB.post('/api/sync')).status).toBe(200);
});

afterAll(async () => {
  await portalB?.stop();
  await portalA?.stop();
});

/** The same browser session, sent to the other process. */
function sameSessionAt(portal: Portal, client: ApiClient): ApiClient {
  const other = new ApiClient(portal);
  other.cookie = client.cookie;
  return other;
}

const POLL_MS = 50;

/**
 * Asks `probe` every 50 ms until `accept` takes its answer: how long that took from `since`, and the
 * longest one ask took meanwhile (what the machine's load makes of a request).
 */
async function timeUntil<T>(
  probe: () => Promise<T>,
  accept: (value: T) => boolean,
  since: number,
): Promise<{ ms: number; longestAskMs: number }> {
  let longestAskMs = 0;
  const deadline = since + stallLimit(10_000);
  for (;;) {
    const asked = Date.now();
    const value = await probe();
    longestAskMs = Math.max(longestAskMs, Date.now() - asked);
    if (accept(value)) return { ms: Date.now() - since, longestAskMs };
    if (Date.now() > deadline)
      throw new Error(
        `still not so after ${Date.now() - since} ms: ${JSON.stringify(value).slice(0, 300)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** From now until `client` is refused; any answer before that is a 200. */
function timeUntilRefused(client: ApiClient, since: number) {
  return timeUntil(
    async () => {
      const { status } = await client.get('/api/auth/profile');
      expect([200, 401]).toContain(status);
      return status;
    },
    (status) => status === 401,
    since,
  );
}

/**
 * A process keeps its copy of a row for at most a second (src/server/db/recent-rows.ts): another process's
 * change shows within that second, plus the ask that still met the old copy and the one after it, each
 * as long as the machine's load makes them.
 */
function expectWithinASecond({ ms, longestAskMs }: { ms: number; longestAskMs: number }) {
  expect(ms).toBeLessThanOrEqual(1_000 + 2 * longestAskMs + POLL_MS);
}

describe('sessions', () => {
  it('when a user signs out in process A, then process B refuses the session within a second', async () => {
    const user = await createUser(adminA, 'scale-logout');
    const inA = await signIn(portalA, user);
    const inB = sameSessionAt(portalB, inA);
    // B has just checked the session: it holds its own copy of it.
    expect((await inB.get('/api/auth/profile')).status).toBe(200);

    expect((await inA.post('/api/auth/logout')).status).toBe(200);
    expectWithinASecond(await timeUntilRefused(inB, Date.now()));
  });

  it("when the admin deactivates a user in process A, then process B refuses the user's session within a second", async () => {
    const user = await createUser(adminA, 'scale-deactivated');
    const inB = await signIn(portalB, user);
    expect((await inB.get('/api/auth/profile')).status).toBe(200);

    expect(
      (
        await adminA.put(`/api/auth/users/${user.id}`, {
          username: user.username,
          role: user.role,
          isActive: false,
        })
      ).status,
    ).toBe(200);
    expectWithinASecond(await timeUntilRefused(inB, Date.now()));
  });

  it("when a user changes the password in process B, then the user's other session is refused by process A within a second", async () => {
    const user = await createUser(adminA, 'scale-password');
    const other = await signIn(portalA, user);
    const current = await signIn(portalB, user);
    expect((await other.get('/api/auth/profile')).status).toBe(200);

    const changed = await current.post('/api/auth/change-password', {
      currentPassword: user.password,
      newPassword: 'scale-password-new',
    });
    expect(changed.status).toBe(200);
    expectWithinASecond(await timeUntilRefused(other, Date.now()));
  });
});

describe('login limiter', () => {
  const attempt = (portal: Portal, user: TestUser, password: string) =>
    new ApiClient(portal).post('/api/auth/login', { username: user.username, password });

  it('when failures are spread over both processes, then the limit counts them together', async () => {
    const user = await createUser(adminA, 'scale-limited');
    for (const portal of [portalA, portalB, portalA, portalB, portalA])
      expectError(await attempt(portal, user, 'wrong-password'), 401, 'AUTHENTICATION_ERROR');
    expectError(await attempt(portalB, user, user.password), 429, 'RATE_LIMITED');
    expectError(await attempt(portalA, user, user.password), 429, 'RATE_LIMITED');
  });

  it('when guesses hit both processes at once, then no more than the limit are checked', async () => {
    const user = await createUser(adminA, 'scale-burst');
    const guesses = [portalA, portalB].flatMap((portal) =>
      Array.from({ length: 6 }, () => attempt(portal, user, 'wrong-password')),
    );
    const statuses = (await Promise.all(guesses)).map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });
});

describe('sync', () => {
  const historyEntries = async () =>
    Number(
      (
        await queryDatabase<{ entries: number }>(
          portalA,
          'SELECT COUNT(*) AS entries FROM receipt_status_changes',
        )
      )[0]!.entries,
    );

  it('when both processes are asked to sync at once, then one sync runs, both answer its outcome and each change is recorded once', async () => {
    const advanced = await fetch(`${portalA.url}/sandbox/control/advance`, { method: 'POST' });
    expect(advanced.status).toBe(200);
    const entriesBefore = await historyEntries();

    const [inA, inB] = await Promise.all([adminA.post('/api/sync'), adminB.post('/api/sync')]);
    expect(inA.status, JSON.stringify(inA.body)).toBe(200);
    expect(inB.status, JSON.stringify(inB.body)).toBe(200);
    expect(inA.body.data.written).toBeGreaterThan(0);
    expect(inA.body.data.statusChanges).toBeGreaterThan(0);
    // The very same run: its finishing time to the millisecond.
    expect(inB.body.data).toEqual(inA.body.data);

    expect(await historyEntries()).toBe(entriesBefore + inA.body.data.statusChanges);
    const doubled = await queryDatabase(
      portalA,
      'SELECT receiptId, status, version FROM receipt_status_changes GROUP BY receiptId, status, version HAVING COUNT(*) > 1',
    );
    expect(doubled).toEqual([]);
  });

  it('when the sync another process runs fails, then the process that joined it answers the same failure', async () => {
    expect((await fetch(`${portalA.url}/sandbox/control/outage`, { method: 'POST' })).status).toBe(
      200,
    );
    try {
      const [inA, inB] = await Promise.all([adminA.post('/api/sync'), adminB.post('/api/sync')]);
      expectError(inA, 503, 'EXTERNAL_API_ERROR');
      expect(inB.status).toBe(inA.status);
      expect(inB.body).toEqual(inA.body);
    } finally {
      await fetch(`${portalA.url}/sandbox/control/recover`, { method: 'POST' });
    }
  });

  it('when the process holding the sync lease died, then a sync asked for waits until the lease expires and runs', async () => {
    // What a process killed mid-sync leaves: the lease held, with no outcome, for three more seconds.
    const expiresAt = Date.now() + 3_000;
    await writeDatabase(
      portalA,
      'UPDATE sync_lease SET holder = ?, run = ?, expiresAt = ?, outcome = NULL',
      ['a-dead-process', 'its-sync', expiresAt],
    );

    const answer = await adminB.post('/api/sync');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
    expect(Date.parse(answer.body.data.finishedAt)).toBeGreaterThanOrEqual(expiresAt);
    const [lease] = await queryDatabase<{ expiresAt: number | string; run: string }>(
      portalA,
      'SELECT run, expiresAt FROM sync_lease',
    );
    expect(lease!.run).not.toBe('its-sync');
    expect(Number(lease!.expiresAt)).toBe(0);
  });
});

describe('provider tokens', () => {
  const refreshIn = (admin: ApiClient): Promise<ApiResponse> => admin.post('/api/tokens/refresh');

  it('when both processes refresh the tokens at once, again and again, then no refresh token is spent twice', async () => {
    for (let round = 0; round < 5; round += 1) {
      const answers = await Promise.all([
        refreshIn(adminA),
        refreshIn(adminB),
        refreshIn(adminA),
        refreshIn(adminB),
      ]);
      for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    // A refresh token spent twice is refused by the sandbox, which would leave the connection waiting for a reconnect.
    const status = await adminB.get('/api/tokens/status');
    expect(status.body.data.reconnectRequired).toBe(false);
    expect((await adminA.post('/api/sync')).status).toBe(200);
    expect((await adminB.post('/api/sync')).status).toBe(200);
  });
});

describe('uploaded images', () => {
  async function upload(portal: Portal, admin: ApiClient, bytes: Buffer): Promise<ApiResponse> {
    const form = new FormData();
    form.append('logo', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'logo.png');
    const encoded = new Response(form);
    const response = await fetch(`${portal.url}/api/logo/upload`, {
      method: 'POST',
      headers: {
        Origin: portal.url,
        Cookie: admin.cookie!,
        'Content-Type': encoded.headers.get('content-type')!,
      },
      body: Buffer.from(await encoded.arrayBuffer()),
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }

  const imageAt = async (portal: Portal, url: string) => {
    const response = await fetch(`${portal.url}${url}`);
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
  };

  it('when the admin uploads a logo through process A, then process B serves it too', async () => {
    // B has read the branding: it holds its own copy.
    expect((await adminB.get('/api/logo/info')).body.data.hasLogo).toBe(false);
    const logo = pngFile('logo.png', { rgb: [200, 30, 30] }).bytes;

    const uploaded = await upload(portalA, adminA, logo);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const { logoPath } = uploaded.body.data;

    const servedByB = await imageAt(portalB, logoPath);
    expect(servedByB.status).toBe(200);
    expect(servedByB.bytes.equals((await imageAt(portalA, logoPath)).bytes)).toBe(true);
    expectWithinASecond(
      await timeUntil(
        () => adminB.get('/api/logo/info'),
        (response) => response.body.data.logoPath === logoPath,
        Date.now(),
      ),
    );
    expect((await fetchImage(adminB, uploaded.body.data.originalPath)).bytes.equals(logo)).toBe(
      true,
    );
  });
});

describe('start', () => {
  // On SQLite the processes share one machine, and README asks to start them one after another after an upgrade.
  it.skipIf(!testPostgresUrl)(
    'when two processes start at once on a new database, then both start (one migrates, the other waits)',
    async () => {
      const { dir } = await newPortalFolder({ empty: true });
      const env = {
        PROVIDER: 'http',
        PROVIDER_URL: `${portalA.url}/sandbox`,
        PROVIDER_ISSUER: `${portalA.url}/sandbox`,
      };
      const started = await Promise.allSettled([
        startPortal(env, { dir }),
        startPortal(env, { dir }),
      ]);
      const portals = started.flatMap((result) =>
        result.status === 'fulfilled' ? [result.value] : [],
      );
      try {
        expect(
          started.map((result) =>
            result.status === 'rejected' ? String(result.reason).slice(0, 800) : 'started',
          ),
        ).toEqual(['started', 'started']);
        for (const portal of portals)
          expect(
            (await signedInAdmin(portal).then((admin) => admin.get('/api/auth/profile'))).status,
          ).toBe(200);
      } finally {
        for (const [index, portal] of portals.entries())
          await portal.stop({ keepDir: index < portals.length - 1 });
      }
    },
    60_000,
  );
});
