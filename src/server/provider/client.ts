/**
 * The provider's HTTP client (docs/provider-api.md), the same for the sandbox and production. It sends
 * the stored access token and refreshes it ahead of expiry and once after a 401 (then retries once).
 * One refresh runs at a time: in this process callers share it, across processes a lease in the
 * token row decides. A refresh token the provider refuses is never sent again: the connection then
 * waits for the admin to reconnect. Every failure is a ProviderError.
 */
import * as oauth from 'oauth4webapi';
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import { TOKEN_AUTO_REFRESH_MINUTES } from '~/shared/constants';
import { ATTACHMENT_KINDS, type AttachmentKind } from '~/shared/attachments';
import { receiptSchema } from '~/shared/receipts';
import {
  AttachmentTooLargeError,
  ProviderError,
  ProviderRefusal,
  type AttachmentDownload,
  type PackageScan,
  type ProviderAttachment,
  type ProviderCapabilities,
  type ProviderClient,
  type ProviderConsignee,
  type ProviderPrealert,
  type ProviderReceipt,
  type ReceiptChangesPage,
} from './contract';
import { asProviderError, requestTokenRefresh, type OAuthDeps } from './oauth';
import type { Logger } from '../logger';
import type { ProviderMetrics } from '../metrics';
import type { StoredTokens, TokenStore } from './token-store';
import { isNetworkFailure, transportOptions } from './transport';

const REFRESH_AHEAD_MS = TOKEN_AUTO_REFRESH_MINUTES * 60_000;
/**
 * A refresh lease is the provider's time limit and this much more: longer than any refresh grant may take,
 * and a lease left by a process that died ends by itself.
 */
const REFRESH_LEASE_MARGIN_MS = 5_000;
const LEASE_POLL_MS = 200;
/** The answers to a refresh grant that mean the refresh token will never work again. */
const DEAD_REFRESH_TOKEN: ReadonlySet<string> = new Set(['invalid_grant', 'invalid_client']);

/** The provider's receipt is the portal's (docs/provider-api.md) plus its consignee id and change time. */
const providerReceiptSchema = z.extend(receiptSchema, {
  consigneeId: z.number(),
  updatedAt: z.string(),
});

const changesPageSchema = z.object({
  receipts: z.array(providerReceiptSchema),
  nextCursor: z.nullable(z.string()),
  hasMore: z.boolean(),
});

const consigneesSchema = z.object({
  consignees: z.array(z.object({ id: z.number(), name: z.string() })),
});

const scanId = z.union([z.number(), z.string()]);
const scansSchema = z.object({
  scans: z.array(
    z.looseObject({
      id: scanId,
      arrival_id: z._default(z.nullable(scanId), null),
      tracking_number: z.string(),
      scanned_at: z.string(),
    }),
  ),
});

/** Room for a file name or a content type; longer ones are cut, not refused. */
const ATTACHMENT_TEXT_MAX = { fileName: 255, contentType: 100 } as const;
const KNOWN_KINDS: ReadonlySet<string> = new Set(ATTACHMENT_KINDS);
// eslint-disable-next-line no-control-regex -- control characters are what it removes
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** The file's own name: no folders, no control characters, bounded; never empty. */
function attachmentFileName(name: string, id: string): string {
  const base = name.split(/[\\/]/).pop()!.replace(CONTROL_CHARACTERS, '').trim();
  return (base || `attachment-${id}`).slice(0, ATTACHMENT_TEXT_MAX.fileName);
}

/** A kind this portal does not know yet (a newer provider's) is shown as "other". */
const attachmentSchema = z.pipe(
  z.object({
    id: z.union([z.string().check(z.minLength(1), z.maxLength(200)), z.number()]),
    kind: z.string(),
    fileName: z.string(),
    contentType: z.string(),
    size: z.int().check(z.nonnegative()),
    createdAt: z._default(z.nullable(z.string()), null),
  }),
  z.transform((listed): ProviderAttachment => {
    const id = String(listed.id);
    const createdAt =
      listed.createdAt !== null && !Number.isNaN(Date.parse(listed.createdAt))
        ? new Date(listed.createdAt).toISOString()
        : null;
    return {
      id,
      kind: KNOWN_KINDS.has(listed.kind) ? (listed.kind as AttachmentKind) : 'other',
      fileName: attachmentFileName(listed.fileName, id),
      contentType:
        listed.contentType.trim().toLowerCase().slice(0, ATTACHMENT_TEXT_MAX.contentType) ||
        'application/octet-stream',
      size: listed.size,
      createdAt,
    };
  }),
);
const attachmentsSchema = z.object({ attachments: z.array(attachmentSchema) });

/** `GET /v1/capabilities`: the names of the optional parts served; names this portal does not know are ignored. */
const capabilitiesSchema = z.object({ capabilities: z.array(z.string()) });
/** A provider gains or loses an optional part rarely: it is asked again after this long. */
const CAPABILITIES_KEPT_MS = 5 * 60_000;

/** A request's method, JSON body and accepted type: a GET of JSON unless said. */
interface DataCall {
  method?: 'GET' | 'POST' | 'DELETE';
  json?: unknown;
  accept?: string;
}

const unauthorized = (message: string) => new ProviderError(message, 'unauthorized');
const notConnected = () => new ProviderError(m.tokens_provider_not_connected(), 'not-connected');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ProviderClientDeps extends OAuthDeps {
  tokenStore: TokenStore;
  metrics: ProviderMetrics;
  log: Logger;
}

/** The HTTP client of the provider's API, for the sandbox and production alike. */
export class HttpProviderClient implements ProviderClient {
  /** The refresh grant under way in this process, which every caller shares. */
  private refreshing: Promise<string> | null = null;
  /** The capabilities as last read, and when. */
  private capabilities: { value: ProviderCapabilities; readAt: number } | null = null;

  constructor(private readonly deps: ProviderClientDeps) {}

  async listReceiptChanges(since: string | null, limit?: number): Promise<ReceiptChangesPage> {
    const query: Record<string, string> = {};
    if (since !== null) query.since = since;
    if (limit !== undefined) query.limit = String(limit);
    const { status, body } = await this.getJson('list-receipts', '/v1/receipts', query);
    expectOk(status, '/v1/receipts');
    return parsed(changesPageSchema, body, 'receipts');
  }

  async getReceipt(id: number): Promise<ProviderReceipt | null> {
    const { status, body } = await this.getJson(
      'get-receipt',
      `/v1/receipts/${encodeURIComponent(id)}`,
    );
    if (status === 404) return null;
    expectOk(status, '/v1/receipts/{id}');
    return parsed(providerReceiptSchema, body, 'receipt');
  }

  async listConsignees(): Promise<ProviderConsignee[]> {
    const { status, body } = await this.getJson('list-consignees', '/v1/consignees');
    expectOk(status, '/v1/consignees');
    return parsed(consigneesSchema, body, 'consignees').consignees;
  }

  async searchPackageScans(trackingNumber: string): Promise<PackageScan[]> {
    const { status, body } = await this.getJson('package-scans', '/v1/package-scans', {
      trackingNumber,
    });
    expectOk(status, '/v1/package-scans');
    return parsed(scansSchema, body, 'package scans').scans;
  }

  async readCapabilities(): Promise<ProviderCapabilities> {
    const now = this.deps.clock.now();
    if (this.capabilities && now - this.capabilities.readAt < CAPABILITIES_KEPT_MS)
      return this.capabilities.value;
    const { status, body } = await this.getJson('capabilities', '/v1/capabilities');
    let names: string[] = [];
    // A provider without the document serves none of the optional parts.
    if (status !== 404) {
      expectOk(status, '/v1/capabilities');
      names = parsed(capabilitiesSchema, body, 'capabilities').capabilities;
    }
    const value = { prealerts: names.includes('prealerts') };
    this.capabilities = { value, readAt: now };
    return value;
  }

  async savePrealert(prealert: ProviderPrealert): Promise<void> {
    const { status } = await this.call(
      'save-prealert',
      '/v1/prealerts',
      {},
      { method: 'POST', json: prealert },
    );
    expectAccepted(status, '/v1/prealerts');
  }

  async withdrawPrealert(id: number): Promise<void> {
    const path = `/v1/prealerts/${encodeURIComponent(id)}`;
    const { status } = await this.call('withdraw-prealert', path, {}, { method: 'DELETE' });
    // Withdrawing what the provider never had (404), or whose package came meanwhile (409), leaves
    // nothing waiting: what was asked.
    if (status !== 404 && status !== 409) expectAccepted(status, '/v1/prealerts/{id}');
  }

  async listAttachments(receiptId: number): Promise<ProviderAttachment[] | null> {
    const { status, body } = await this.getJson(
      'list-attachments',
      `/v1/receipts/${encodeURIComponent(receiptId)}/attachments`,
    );
    if (status === 404) return null;
    expectOk(status, '/v1/receipts/{id}/attachments');
    return parsed(attachmentsSchema, body, 'attachments').attachments;
  }

  async downloadAttachment(id: string, maxBytes: number): Promise<AttachmentDownload | null> {
    const response = await this.observed('get-attachment', () =>
      this.authorizedRequest(`/v1/attachments/${encodeURIComponent(id)}`, {}, { accept: '*/*' }),
    );
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      expectOk(response.status, '/v1/attachments/{id}');
    }
    // A length over the bound is refused before anything is read; the bound holds for what arrives either way.
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw new AttachmentTooLargeError(maxBytes);
    }
    return {
      contentType: response.headers.get('content-type'),
      chunks: boundedChunks(response.body, maxBytes),
    };
  }

  /** True while a refresh grant is under way in this process (Token Management's "isRefreshing"). */
  isRefreshingTokens(): boolean {
    return this.refreshing !== null;
  }

  /** Exchanges the stored refresh token for new tokens now (the admin's Refresh Token button). */
  async refreshTokens(): Promise<void> {
    await this.sharedRefresh();
  }

  private expiresWithin(at: Date | null, ms: number): boolean {
    return at !== null && at.getTime() - this.deps.clock.now() <= ms;
  }

  private usable(stored: StoredTokens): stored is StoredTokens & { accessToken: string } {
    return stored.accessToken !== null && !this.expiresWithin(stored.accessTokenExpiresAt, 0);
  }

  /**
   * Refresh when less than 5 minutes or half of the token's lifetime remain, whichever comes later: a
   * token of an hour at 5 minutes left, one of 30 seconds at 15. The lifetime runs from when it was stored.
   */
  private refreshDue(stored: StoredTokens): boolean {
    if (stored.accessToken === null) return true;
    const expiresAt = stored.accessTokenExpiresAt?.getTime();
    if (expiresAt === undefined) return false;
    const lifetime = expiresAt - stored.updatedAt.getTime();
    return (
      expiresAt - this.deps.clock.now() <= Math.min(REFRESH_AHEAD_MS, Math.max(0, lifetime / 2))
    );
  }

  /** Why `stored` cannot be refreshed, or null when it can. */
  private refreshRefusal(stored: StoredTokens): ProviderError | null {
    if (stored.reconnectRequired) return unauthorized(m.tokens_provider_refused_refresh());
    if (stored.refreshToken === null) return unauthorized(m.tokens_provider_no_refresh_token());
    if (this.expiresWithin(stored.refreshTokenExpiresAt, 0))
      return unauthorized(m.tokens_provider_refresh_expired());
    return null;
  }

  /**
   * One refresh grant at a time for the whole process; resolves with the new access token. Every path
   * that refreshes comes here (the admin's button, a sync, a call that met a 401) and the stored state
   * is read again once the lease is held: a refresh token the provider refused is never sent again.
   */
  private sharedRefresh(): Promise<string> {
    this.refreshing ??= this.refreshStoredTokens().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async refreshStoredTokens(): Promise<string> {
    const { tokenStore } = this.deps;
    const seen = await tokenStore.read();
    if (!seen) throw notConnected();
    const refusal = this.refreshRefusal(seen);
    if (refusal) throw refusal;
    for (let waited = 0; ; waited++) {
      const lease = await tokenStore.takeRefreshLease(
        this.deps.config.providerTimeoutMs + REFRESH_LEASE_MARGIN_MS,
      );
      if (lease) return this.refreshUnderLease(seen, lease);
      // Another process is refreshing: its tokens serve this one too.
      while ((await tokenStore.read())?.refreshing) await sleep(LEASE_POLL_MS);
      const after = await tokenStore.read();
      if (!after) throw notConnected();
      if (after.reconnectRequired) throw this.refreshRefusal(after)!;
      if (after.updatedAt.getTime() !== seen.updatedAt.getTime() && this.usable(after))
        return after.accessToken;
      if (waited > 0) throw new ProviderError(m.tokens_provider_other_process(), 'unreachable');
    }
  }

  private async refreshUnderLease(seen: StoredTokens, lease: Date): Promise<string> {
    const { tokenStore } = this.deps;
    let saved = false;
    try {
      const stored = await tokenStore.read();
      if (!stored) throw notConnected();
      // Another process refreshed between our read and the lease.
      if (
        stored.updatedAt.getTime() !== seen.updatedAt.getTime() &&
        this.usable(stored) &&
        !stored.reconnectRequired
      )
        return stored.accessToken;
      const refusal = this.refreshRefusal(stored);
      if (refusal) throw refusal;
      let answer;
      try {
        answer = await requestTokenRefresh(this.deps, stored.refreshToken!);
        this.deps.metrics.tokenRefresh('success');
        this.deps.log.info({ component: 'provider' }, 'Provider tokens refreshed');
      } catch (error) {
        this.deps.metrics.tokenRefresh('failure');
        this.deps.log.warn(
          { component: 'provider', error: error instanceof Error ? error.message : String(error) },
          'The provider refused to refresh the tokens',
        );
        if (
          error instanceof ProviderError &&
          error.oauthError !== null &&
          DEAD_REFRESH_TOKEN.has(error.oauthError)
        ) {
          await tokenStore.markReconnectRequired(stored.updatedAt, error.message);
        }
        throw error;
      }
      // A provider that does not rotate leaves the stored refresh token in force.
      const tokens =
        answer.refreshToken === null
          ? {
              ...answer,
              refreshToken: stored.refreshToken,
              refreshTokenExpiresAt: stored.refreshTokenExpiresAt,
            }
          : answer;
      await tokenStore.save(tokens, stored.source ?? 'oauth2');
      saved = true;
      return tokens.accessToken;
    } finally {
      if (!saved) await tokenStore.releaseRefreshLease(lease);
    }
  }

  /** The access token to send, refreshed first when it is due (refreshDue). */
  private async currentAccessToken(): Promise<string> {
    const stored = await this.deps.tokenStore.read();
    if (!stored) throw notConnected();
    if (stored.accessToken !== null && !this.refreshDue(stored)) return stored.accessToken;
    const refusal = this.refreshRefusal(stored);
    if (refusal) {
      if (this.usable(stored)) return stored.accessToken;
      throw stored.refreshToken === null && !stored.reconnectRequired
        ? unauthorized(m.tokens_provider_access_expired())
        : refusal;
    }
    try {
      return await this.sharedRefresh();
    } catch (error) {
      // An early refresh that failed for a passing reason is tried again next time; the current
      // token serves until then.
      if (this.usable(stored)) return stored.accessToken;
      throw error;
    }
  }

  /** After a 401 with `rejected`: the token another caller has refreshed meanwhile, or a refresh of our own. */
  private async renewedAccessToken(rejected: string): Promise<string> {
    const stored = await this.deps.tokenStore.read();
    if (stored && this.usable(stored) && stored.accessToken !== rejected) return stored.accessToken;
    return this.sharedRefresh();
  }

  private async send(accessToken: string, url: URL, init: DataCall): Promise<Response> {
    const headers = new Headers({ Accept: init.accept ?? 'application/json' });
    if (init.json !== undefined) headers.set('Content-Type', 'application/json');
    try {
      return await oauth.protectedResourceRequest(
        accessToken,
        init.method ?? 'GET',
        url,
        headers,
        init.json === undefined ? undefined : JSON.stringify(init.json),
        transportOptions(this.deps.config),
      );
    } catch (error) {
      // A 401 with a Bearer challenge arrives as this error; the caller decides what a 401 means.
      if (error instanceof oauth.WWWAuthenticateChallengeError) return error.response;
      throw asProviderError(error);
    }
  }

  /** GET a data path with the Bearer token (see call). */
  private getJson(
    operation: string,
    path: string,
    query: Record<string, string> = {},
  ): Promise<{ status: number; body: unknown }> {
    return this.call(operation, path, query);
  }

  /** A JSON call (GET unless `init` says otherwise) with the Bearer token, counted by `operation` and outcome. */
  private call(
    operation: string,
    path: string,
    query: Record<string, string> = {},
    init: DataCall = {},
  ): Promise<{ status: number; body: unknown }> {
    return this.observed(operation, () => this.callOnce(path, query, init));
  }

  /** A provider call, counted by `operation` and outcome (ok, or the failure's kind), and logged at debug. */
  private async observed<T extends { status: number }>(
    operation: string,
    call: () => Promise<T>,
  ): Promise<T> {
    const startedAt = performance.now();
    const took = () => Math.round(performance.now() - startedAt);
    try {
      const answer = await call();
      this.deps.metrics.providerCall(operation, 'ok');
      this.deps.log.debug(
        { component: 'provider', operation, status: answer.status, ms: took() },
        'Provider call',
      );
      return answer;
    } catch (error) {
      const outcome = error instanceof ProviderError ? error.kind : 'error';
      this.deps.metrics.providerCall(operation, outcome);
      this.deps.log.debug(
        {
          component: 'provider',
          operation,
          outcome,
          ms: took(),
          error: error instanceof Error ? error.message : String(error),
        },
        'Provider call failed',
      );
      throw error;
    }
  }

  /** A JSON call with the Bearer token; resolves with the answer's status and parsed body (null when it has none). */
  private async callOnce(
    path: string,
    query: Record<string, string>,
    init: DataCall,
  ): Promise<{ status: number; body: unknown }> {
    const response = await this.authorizedRequest(path, query, init);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw isNetworkFailure(error) ? asProviderError(error) : error;
    }
    try {
      return { status: response.status, body: JSON.parse(text) };
    } catch {
      // A write may be answered without a body (204, or a 201 with nothing to say), and a refusal with a
      // page of its own (a 404 from a provider that lacks an optional part): its status says all.
      const wrote = init.method !== undefined && init.method !== 'GET';
      if ((wrote && text === '') || !response.ok) return { status: response.status, body: null };
      throw new ProviderError(
        m.tokens_provider_answered_without_json({ status: String(response.status) }),
        'bad-response',
      );
    }
  }

  /**
   * A data call with the Bearer token, refreshed and tried once more after a 401; a 5xx is the
   * provider being down. The answer's body is the caller's to read or cancel.
   */
  private async authorizedRequest(
    path: string,
    query: Record<string, string>,
    init: DataCall,
  ): Promise<Response> {
    const url = new URL(`${this.deps.config.providerUrl}${path}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);

    let accessToken = await this.currentAccessToken();
    let response = await this.send(accessToken, url, init);
    if (response.status === 401) {
      await response.body?.cancel();
      accessToken = await this.renewedAccessToken(accessToken);
      response = await this.send(accessToken, url, init);
      if (response.status === 401) {
        await response.body?.cancel();
        throw unauthorized(m.tokens_provider_refused_access());
      }
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new ProviderError(
        m.tokens_provider_answered({ status: String(response.status) }),
        'unreachable',
      );
    }
    return response;
  }
}

/**
 * The body's chunks as they arrive, failing once more than `maxBytes` came; a connection lost
 * meanwhile is 'unreachable'.
 */
async function* boundedChunks(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  let received = 0;
  try {
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (error) {
        throw asProviderError(error);
      }
      if (step.done) return;
      received += step.value.byteLength;
      if (received > maxBytes) throw new AttachmentTooLargeError(maxBytes);
      yield step.value;
    }
  } finally {
    // Stopped early (too large, or the reader gave up): the rest is not wanted.
    await reader.cancel().catch(() => {});
  }
}

function expectOk(status: number, path: string): void {
  if (status !== 200)
    throw new ProviderError(
      m.tokens_provider_answered_for({ status: String(status), path }),
      'bad-response',
    );
}

/** Answers that say "not now" rather than "not this": the request is worth sending again later. */
const TRY_LATER_STATUSES: ReadonlySet<number> = new Set([408, 425, 429]);

/** A write the provider took (2xx); another 4xx is its refusal of the request as it is, which no retry changes. */
function expectAccepted(status: number, path: string): void {
  if (status >= 200 && status < 300) return;
  const message = m.tokens_provider_answered_for({ status: String(status), path });
  if (TRY_LATER_STATUSES.has(status)) throw new ProviderError(message, 'unreachable');
  throw status >= 400 && status < 500
    ? new ProviderRefusal(message)
    : new ProviderError(message, 'bad-response');
}

function parsed<T>(schema: z.ZodMiniType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success)
    throw new ProviderError(m.tokens_provider_breaks_contract({ what }), 'bad-response');
  return result.data;
}
