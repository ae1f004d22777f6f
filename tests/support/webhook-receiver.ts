/**
 * A webhook receiver for tests: an HTTPS server with a self-signed certificate made by openssl in a
 * temporary folder (for localhost and 127.0.0.1, which a portal trusts through WEBHOOK_CA_FILE), or a
 * plain HTTP one. It keeps every request it gets and counts connections, and answers as the test says.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** How to answer one request: a status and body, or the test's own handling of the response. */
export type Answer =
  | { status: number; body?: string; headers?: Record<string, string> }
  | ((response: http.ServerResponse, request: ReceivedRequest) => void);

export interface WebhookReceiver {
  /** `https://127.0.0.1:<port>` (or http://). */
  url: string;
  port: number;
  /** The certificate to trust (WEBHOOK_CA_FILE); null for plain HTTP. */
  certFile: string | null;
  requests: ReceivedRequest[];
  /** TCP connections accepted, requests or not. */
  connections: number;
  /** How the next requests are answered, in order; once used up, `fallback`. */
  answers: Answer[];
  fallback: Answer;
  stop(): Promise<void>;
}

/** A key and a self-signed certificate for localhost and 127.0.0.1, valid for a day. */
function makeCertificate(dir: string): { keyFile: string; certFile: string } {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1',
    ],
    { stdio: 'ignore' },
  );
  return { keyFile, certFile };
}

export async function startWebhookReceiver({
  tls = true,
}: { tls?: boolean } = {}): Promise<WebhookReceiver> {
  const dir = mkdtempSync(path.join(tmpdir(), 'webhook-receiver-'));
  const certificate = tls ? makeCertificate(dir) : null;
  const handler = (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
      );
      const received = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      receiver.requests.push(received);
      const answer = receiver.answers.shift() ?? receiver.fallback;
      if (typeof answer === 'function') return answer(response, received);
      response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      response.end(answer.body ?? '');
    });
  };
  const server = certificate
    ? https.createServer(
        { key: readFileSync(certificate.keyFile), cert: readFileSync(certificate.certFile) },
        handler,
      )
    : http.createServer(handler);
  server.on('connection', () => (receiver.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: WebhookReceiver = {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    certFile: certificate?.certFile ?? null,
    requests: [],
    connections: 0,
    answers: [],
    fallback: { status: 200, body: 'ok' },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return receiver;
}
