/**
 * What happens to a body the portal refused before its end (src/server/http/refused-body.ts): the sender
 * gets the 413 even when it reads only once it has sent everything, as long as its bytes keep coming,
 * and a sender that stalls or never ends is cut off. A real server and a raw socket as the sender.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { setTimeout as pace } from 'node:timers/promises';
import { createRequestFromNodeRequest } from 'astro/app/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyChunks } from '~/server/http/body';
import { discardRefusedBody } from '~/server/http/refused-body';
import { stallLimit } from '../support/test-pace';

/** Long enough that a busy machine's stalls of this process (sender and server alike) stay shorter. */
const IDLE_MS = stallLimit(500);
const LIMITS = { idleMs: IDLE_MS, totalMs: 4 * IDLE_MS };
/** A slow link's rhythm: a small chunk every 50 ms, far within the pause the server allows. */
const CHUNK = Buffer.alloc(8 * 1024, 0x61);
const GAP_MS = 50;

let server: http.Server;
let port: number;
/** Run once the server has sent a refusal of /unread. */
let afterRefusal: (() => void) | undefined;

beforeAll(async () => {
  server = http.createServer((incoming, outgoing) => {
    discardRefusedBody(incoming, outgoing, LIMITS);
    const refuse = () => {
      outgoing.once('finish', () => afterRefusal?.());
      outgoing.writeHead(413, { 'Content-Type': 'text/plain' });
      outgoing.end('Too large');
    };
    if (incoming.method === 'GET') return void outgoing.end('again');
    // Refused by its Content-Length, unread: Node then drops the rest without 'data' events.
    if (incoming.url === '/unread') return refuse();
    // Refused part-way, as the portal's endpoints read a body: through Astro's Request and bodyChunks.
    void (async () => {
      for await (const chunk of bodyChunks(createRequestFromNodeRequest(incoming), 16 * 1024))
        void chunk;
    })().then(() => outgoing.end('Read'), refuse);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

interface Sender {
  socket: net.Socket;
  /** Everything the server sent, once the socket has closed or `answers` answers have come. */
  received: (answers: number) => Promise<string>;
  closed: Promise<void>;
  error: () => Error | undefined;
}

/** A connection that does not read what comes back until `received` is asked for. */
async function connect(): Promise<Sender> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.pause();
  let text = '';
  let failure: Error | undefined;
  socket.on('error', (error) => (failure = error));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    socket,
    closed,
    error: () => failure,
    received: (answers) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          if ((text.match(/HTTP\/1\.1 /g) ?? []).length >= answers && /\r\n\r\n[^]*$/.test(text))
            resolve(text);
        };
        socket.on('data', (data: Buffer) => {
          text += data.toString('latin1');
          check();
        });
        socket.once('close', () => (failure ? reject(failure) : resolve(text)));
        socket.resume();
      }),
  };
}

const head = (url: string, length: number) =>
  `POST ${url} HTTP/1.1\r\nHost: portal\r\nContent-Type: application/octet-stream\r\nContent-Length: ${length}\r\n\r\n`;

/** Sends `chunks` chunks a gap apart, stopping early if the connection goes. */
async function trickle(sender: Sender, chunks: number): Promise<number> {
  let sent = 0;
  for (; sent < chunks && !sender.socket.destroyed && !sender.error(); sent++) {
    sender.socket.write(CHUNK);
    await pace(GAP_MS);
  }
  return sent;
}

describe('a refused body still arriving', () => {
  // Twice the pause the server allows (which closes within twice that pause), in chunks far quicker.
  const chunks = Math.ceil((2 * IDLE_MS) / GAP_MS);

  for (const [how, url] of [
    ['by its Content-Length, before a byte is read', '/unread'],
    ['part-way, once the portal has read past its limit', '/read-part'],
  ]) {
    it(`when a body refused ${how} keeps coming for longer than the allowed pause, then it is read to its end: the sender that reads only once it has sent everything gets the 413, and the connection serves its next request`, async () => {
      const sender = await connect();
      sender.socket.write(head(url!, chunks * CHUNK.length));
      expect(await trickle(sender, chunks)).toBe(chunks);
      expect(sender.error()).toBeUndefined();
      sender.socket.write('GET /next HTTP/1.1\r\nHost: portal\r\n\r\n');
      const answers = await sender.received(2);
      expect(answers).toMatch(/^HTTP\/1\.1 413 [^]*Too large/);
      expect(answers).toMatch(/HTTP\/1\.1 200 [^]*again$/);
      sender.socket.destroy();
    });
  }

  it('when this process stalls for longer than the allowed pause once the 413 is out, then the stall is not taken for the sender’s pause: the body is read to its end and the connection serves its next request', async () => {
    // Blocks the process (the server, and here the sender too) as a long collection or a busy machine does.
    afterRefusal = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2 * IDLE_MS);
    try {
      const sender = await connect();
      sender.socket.write(head('/unread', 4 * CHUNK.length));
      expect(await trickle(sender, 4)).toBe(4);
      sender.socket.write('GET /next HTTP/1.1\r\nHost: portal\r\n\r\n');
      const answers = await sender.received(2);
      expect(answers).toMatch(/^HTTP\/1\.1 413 [^]*Too large/);
      expect(answers).toMatch(/HTTP\/1\.1 200 [^]*again$/);
      sender.socket.destroy();
    } finally {
      afterRefusal = undefined;
    }
  });

  it('when the sender stops part-way, then the server closes the connection once the pause has passed, and the 413 came before', async () => {
    const sender = await connect();
    sender.socket.write(head('/unread', 100 * CHUNK.length));
    await trickle(sender, 2);
    // The sender sends nothing more: the server is the one to close.
    expect(await sender.received(1)).toMatch(/^HTTP\/1\.1 413 /);
    await sender.closed;
  });

  it('when the body never ends, then the server closes the connection after its total time, however steadily the bytes come', async () => {
    const sender = await connect();
    sender.socket.write(head('/unread', 10_000 * CHUNK.length));
    const sent = await trickle(sender, 10_000);
    await sender.closed;
    expect(sent).toBeLessThan(10_000);
  });
});
