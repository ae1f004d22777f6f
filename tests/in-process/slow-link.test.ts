/**
 * The bench's slow link (scripts/lib/slow-link.mjs), which its first-search figure stands on: a request
 * over it costs its round trips, and the bytes of every connection share its rate, unchanged.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlowLink } from '../../scripts/lib/slow-link.mjs';

const BODY = randomBytes(64 * 1024);
const RTT_MS = 300;
const KBPS = 700;
/** How long 64 KB take at 700 kbit/s. */
const TRANSFER_MS = (BODY.length * 8) / KBPS;

let server: http.Server;
let origin: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const half = request.url === '/half';
    response.end(half ? BODY.subarray(0, BODY.length / 2) : BODY);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe('the slow link', () => {
  it('when 64 KB are fetched over a new connection, then they arrive whole after the handshake, the round trip and their transfer time', async () => {
    const link = await startSlowLink(origin, { rttMs: RTT_MS, kbps: KBPS });
    try {
      const { value, ms } = await timed(async () =>
        Buffer.from(await (await fetch(`${link.url}/`)).arrayBuffer()),
      );
      expect(value.equals(BODY)).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(2 * RTT_MS + TRANSFER_MS);
    } finally {
      await link.close();
    }
  });

  it('when two connections fetch 32 KB each at once, then they share the rate: both together take as long as 64 KB alone', async () => {
    const link = await startSlowLink(origin, { rttMs: RTT_MS, kbps: KBPS });
    try {
      const agent = (url: string) =>
        fetch(url, { headers: { Connection: 'close' } }).then(async (response) =>
          Buffer.from(await response.arrayBuffer()),
        );
      const { value, ms } = await timed(() =>
        Promise.all([agent(`${link.url}/half`), agent(`${link.url}/half`)]),
      );
      for (const half of value) expect(half.equals(BODY.subarray(0, BODY.length / 2))).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(2 * RTT_MS + TRANSFER_MS);
    } finally {
      await link.close();
    }
  });
});
