/**
 * A clean shutdown: on SIGTERM the portal refuses new connections, finishes the request in flight and
 * the sync page being written, closes the database and exits 0; the mirror is left whole pages and
 * a cursor that fits them, and the next start carries on from there.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type Portal } from '../support/portal';
import { pngFile } from '../support/images';
import { eventually, queryDatabase, signedInAdmin } from '../support/api-steps';
import { stallLimit } from '../support/test-pace';

/** Enough receipts that the first full sync (pages of 500) is still running when the signal comes. */
const RECEIPTS = 20_000;
const PAGE_SIZE = 500;

let portal: Portal;
let restarted: Portal | undefined;
const env = { SANDBOX_RECEIPTS: String(RECEIPTS) };

beforeAll(async () => {
  portal = await startPortal(env);
});

afterAll(async () => {
  if (restarted) await restarted.stop();
  else await portal?.stop();
});

/** A logo upload whose body arrives in two parts: the first now, the rest when `finish` is called. */
async function slowUpload(cookie: string, bytes: Buffer) {
  const form = new FormData();
  form.append('logo', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'slow-logo.png');
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const request = http.request(`${portal.url}/api/logo/upload`, {
    method: 'POST',
    headers: {
      Origin: portal.url,
      Cookie: cookie,
      'Content-Type': encoded.headers.get('content-type')!,
      'Content-Length': body.length,
    },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.once('error', reject);
    request.once('response', (answer) => {
      let text = '';
      answer.on('data', (chunk) => (text += chunk));
      answer.once('end', () => resolve({ status: answer.statusCode!, body: text }));
      answer.once('error', reject);
    });
  });
  // Awaited later; a connection cut meanwhile must fail the test there, not as an unhandled rejection.
  response.catch(() => {});
  const half = Math.floor(body.length / 2);
  request.write(body.subarray(0, half));
  return { response, finish: () => request.end(body.subarray(half)) };
}

type SyncStateRow = {
  cursor: string | null;
  lastSuccessAt: string | null;
  lastError: string | null;
};
const receiptCount = async (target: Portal) =>
  (await queryDatabase<{ count: number }>(target, 'SELECT count(*) AS count FROM receipts'))[0]!
    .count;

describe('shutdown', () => {
  it(
    'when SIGTERM comes during an upload and a sync, then both finish, new connections are refused, the process exits 0 and the mirror is whole pages',
    async () => {
      const admin = await signedInAdmin(portal);
      const logo = pngFile('slow-logo.png', { size: 200_000 }).bytes;
      const upload = await slowUpload(admin.cookie!, logo);
      const inProgress = await eventually(
        () => receiptCount(portal),
        (count) => count > 0,
        30_000,
      );
      expect(inProgress, 'the first sync is still running').toBeLessThan(RECEIPTS);

      process.kill(portal.pid, 'SIGTERM');
      // The upload's second half comes only once the shutdown is under way: new connections are refused.
      await eventually(
        () =>
          fetch(`${portal.url}/api/health`).then(
            () => false,
            () => true,
          ),
        (refused) => refused,
      );
      upload.finish();
      const answer = await upload.response;
      expect(answer.status, answer.body).toBe(200);

      expect(await portal.exited).toBe(0);
      expect(portal.output()).toContain(
        'SIGTERM received: finishing the requests and the sync step in progress, then shutting down.',
      );
      expect(portal.output()).toContain('Portal shut down cleanly.');

      // The pass stopped after a page: whole pages, no success recorded, and no cursor a later pass would wrongly resume from.
      const written = await receiptCount(portal);
      expect(written).toBeLessThan(RECEIPTS);
      expect(written % PAGE_SIZE).toBe(0);
      const [state] = await queryDatabase<SyncStateRow>(
        portal,
        'SELECT cursor, lastSuccessAt, lastError FROM sync_state',
      );
      expect([undefined, { cursor: null, lastSuccessAt: null, lastError: null }]).toContainEqual(
        state,
      );

      restarted = await startPortal(env, { dir: portal.dir });
      await eventually(
        () => receiptCount(restarted!),
        (count) => count === RECEIPTS,
        60_000,
      );
      const logoInfo = (await (await signedInAdmin(restarted)).get('/api/logo/info')).body.data;
      expect(logoInfo).toMatchObject({
        hasLogo: true,
        originalName: 'slow-logo.png',
        size: logo.length,
      });
    },
    stallLimit(240_000),
  );
});
