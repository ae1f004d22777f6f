// A phone's slow link in front of a server: a TCP proxy whose two directions each carry the bytes of all
// its connections one after another at the link's rate, and deliver them half a round trip later; a new
// connection waits one round trip (its handshake). Chromium's own network emulation slows one page's
// requests only, not those its service worker makes, which a phone's link carries too.
import net from 'node:net';
import { performance } from 'node:perf_hooks';

/** Pieces the size of a few TCP segments, so that a long answer arrives as it is sent, not all at the end. */
const SLICE_BYTES = 4 * 1460;

/** One direction of the link, shared by every connection. */
function direction(kbps, delayMs) {
  const bytesPerMs = (kbps * 1000) / 8 / 1000;
  let freeAt = 0;
  /** When `bytes` sent now (but not before `earliest`) arrive at the other end. */
  return (bytes, earliest) => {
    freeAt = Math.max(performance.now(), freeAt, earliest) + bytes / bytesPerMs;
    return freeAt + delayMs;
  };
}

/** Writes what one socket sends to another at the times the link delivers it, in order. */
function carry(from, to, arrivalOf, earliest) {
  const queue = [];
  let timer = null;
  const deliver = () => {
    timer = null;
    while (queue.length && queue[0].at <= performance.now()) {
      const { chunk } = queue.shift();
      if (chunk) to.write(chunk);
      else to.end();
    }
    if (queue.length) timer = setTimeout(deliver, queue[0].at - performance.now());
  };
  const push = (chunk) => {
    queue.push({ at: arrivalOf(chunk?.length ?? 0, earliest), chunk });
    timer ??= setTimeout(deliver, queue[0].at - performance.now());
  };
  from.on('data', (data) => {
    for (let offset = 0; offset < data.length; offset += SLICE_BYTES)
      push(data.subarray(offset, offset + SLICE_BYTES));
  });
  from.on('end', () => push(null));
}

/** Starts the link to `targetUrl`; answers its own URL (same host, another port) and a way to close it. */
export async function startSlowLink(targetUrl, { rttMs, kbps }) {
  const target = new URL(targetUrl);
  const downlink = direction(kbps, rttMs / 2);
  const uplink = direction(kbps, rttMs / 2);
  const sockets = new Set();
  const server = net.createServer((client) => {
    const handshakeDone = performance.now() + rttMs;
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
      socket.on('close', () => sockets.delete(socket));
    }
    carry(client, upstream, uplink, handshakeDone);
    carry(upstream, client, downlink, 0);
  });
  await new Promise((resolve) => server.listen(0, target.hostname, resolve));
  return {
    url: `${target.protocol}//${target.hostname}:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
