/**
 * One webhook POST, made safely towards an address a user chose: https only (unless
 * WEBHOOK_ALLOW_HTTP), never to a loopback, private, link-local or metadata address (unless
 * WEBHOOK_ALLOW_PRIVATE), no redirects followed, a time limit for the whole exchange and at most
 * 64 KB of the answer read. The address is judged as resolved, inside the connection's own lookup: the
 * address checked is the one connected to, so a name that resolves elsewhere a moment later (DNS
 * rebinding) gains nothing.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { connectionFailure, type WebhookFailure } from '~/shared/webhook-failures';
import { addressKind, isIpLiteral } from './network-address';

/** The whole exchange, from the lookup to the answer's last byte read. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Read of an answer at most; the rest is left unread. */
export const WEBHOOK_ANSWER_MAX_BYTES = 64 * 1024;

export interface WebhookSenderOptions {
  allowHttp: boolean;
  allowPrivate: boolean;
  /** PEM certificates trusted besides the usual authorities (WEBHOOK_CA_FILE); null: the usual ones only. */
  extraCa: string | null;
  timeoutMs?: number;
}

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** How an attempt went: an answer's status and the start of its body, or why none came. */
export interface WebhookOutcome {
  statusCode: number | null;
  /** What failed; null when a 2xx answer came. */
  failure: WebhookFailure | null;
  /** The answer's body as read (at most 64 KB), as text. */
  answer: string;
  durationMs: number;
}

/** The connection's lookup refused what a name resolves to. */
class AddressRefused extends Error {
  constructor(readonly failure: WebhookFailure) {
    super('The address is on a network deliveries may not reach');
  }
}

/** Sends webhook POSTs under the rules above; the composition root owns one. */
export class WebhookSender {
  /**
   * The TLS settings every delivery shares, made once: a connection without an agent made its own
   * each time, 4 ms of the event loop (6 ms with the extra authorities' 140 certificates parsed again).
   */
  private readonly secureContext: SecureContext;
  readonly timeoutMs: number;

  constructor(private readonly options: WebhookSenderOptions) {
    // `ca` replaces Node's trusted authorities: the extra ones come in addition to them.
    this.secureContext = createSecureContext(
      options.extraCa ? { ca: [...rootCertificates, options.extraCa] } : {},
    );
    this.timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  }

  /**
   * Why deliveries may never go to this address (its scheme, credentials, a literal address); null
   * when they may try.
   */
  refusal(url: URL): WebhookFailure | null {
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.options.allowHttp))
      return { code: 'scheme-refused', scheme: url.protocol };
    if (url.username || url.password) return { code: 'credentials-refused' };
    if (this.options.allowPrivate || !isIpLiteral(url.hostname)) return null;
    const kind = addressKind(url.hostname);
    return kind ? { code: 'address-refused', host: url.hostname, kind } : null;
  }

  /** Posts once; never throws: every failure is an outcome. */
  async send(post: WebhookPost): Promise<WebhookOutcome> {
    const startedAt = performance.now();
    const elapsed = () => Math.round(performance.now() - startedAt);
    const url = URL.canParse(post.url) ? new URL(post.url) : null;
    const refusal: WebhookFailure | null = url ? this.refusal(url) : { code: 'invalid-address' };
    if (!url || refusal)
      return { statusCode: null, failure: refusal, answer: '', durationMs: elapsed() };
    return new Promise<WebhookOutcome>((resolve) => {
      let statusCode: number | null = null;
      const chunks: Buffer[] = [];
      let received = 0;
      let settled = false;
      const finish = (failure: WebhookFailure | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.destroy();
        const answer = Buffer.concat(chunks).toString('utf8');
        resolve({ statusCode, failure, answer, durationMs: elapsed() });
      };
      const transport = url.protocol === 'https:' ? https : http;
      const request = transport.request(url, {
        method: 'POST',
        headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
        // A connection of its own each time: a pooled one could have been made to an address checked earlier.
        agent: false,
        lookup: this.guardedLookup(),
        ...(url.protocol === 'https:' && { secureContext: this.secureContext }),
      });
      const timer = setTimeout(
        () => finish({ code: 'timeout', seconds: this.timeoutMs / 1000 }),
        this.timeoutMs,
      );
      request.on('error', (error) =>
        finish(error instanceof AddressRefused ? error.failure : connectionFailure(error)),
      );
      request.on('response', (response) => {
        statusCode = response.statusCode ?? null;
        const status = statusCode ?? 0;
        const judge = (): WebhookFailure | null => {
          if (status >= 200 && status < 300) return null;
          if (status >= 300 && status < 400)
            return { code: 'redirect', status, location: response.headers.location || null };
          return { code: 'http-status', status };
        };
        response.on('data', (chunk: Buffer) => {
          const room = WEBHOOK_ANSWER_MAX_BYTES - received;
          chunks.push(chunk.subarray(0, room));
          received += Math.min(chunk.length, room);
          // The rest of a long answer is not waited for.
          if (received >= WEBHOOK_ANSWER_MAX_BYTES) finish(judge());
        });
        response.on('end', () => finish(judge()));
        response.on('error', (error) => finish(connectionFailure(error)));
      });
      request.end(post.body);
    });
  }

  /** The connection's lookup: every address the name resolves to must be allowed, or none is used. */
  private guardedLookup(): LookupFunction {
    const { allowPrivate } = this.options;
    return (hostname, options, callback) => {
      dnsLookup(
        hostname,
        { family: options.family, hints: options.hints, all: true },
        (error, addresses: LookupAddress[]) => {
          if (error) return callback(error, '', 0);
          for (const { address } of allowPrivate ? [] : addresses) {
            const kind = addressKind(address);
            if (kind)
              return callback(
                new AddressRefused({
                  code: 'resolved-address-refused',
                  host: hostname,
                  address,
                  kind,
                }),
                '',
                0,
              );
          }
          if (addresses.length === 0)
            return callback(
              Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }),
              '',
              0,
            );
          if (options.all)
            return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(
              null,
              addresses,
            );
          callback(null, addresses[0]!.address, addresses[0]!.family);
        },
      );
    };
  }
}
