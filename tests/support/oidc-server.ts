/**
 * An independent, standards-compliant OAuth2 server for the tests: oidc-provider (the certified
 * OpenID implementation) with a confidential client authenticating with client_secret_basic, opaque
 * access tokens for a resource server, refresh tokens only for offline_access and rotated on every
 * use, OAuth2 token revocation and discovery at /.well-known/openid-configuration only (no OAuth2
 * authorization server metadata). Beside it, a tiny resource server under /api speaking docs/provider-api.md's data
 * calls, which checks the tokens against oidc-provider's AccessToken model, and a consent page with
 * Authorize and Deny. /test-control lets a browser test read the counts and revoke refresh tokens.
 *
 * Written for Node's type stripping as well (the browser tests run it as a child): no TS-only syntax.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderConsignee, ProviderReceipt } from '../../src/server/provider/contract.ts';
import Provider, {
  errors,
  type Adapter,
  type AdapterPayload,
  type Configuration,
  type KoaContextWithOIDC,
} from 'oidc-provider';

export const OIDC_CLIENT_ID = 'freight-portal';
export const OIDC_ACCOUNT = 'forwarder';
export const RECEIPTS_SCOPE = 'receipts';

export interface OidcServerOptions {
  /** 0 (default): a free port. */
  port?: number;
  /** The portal's callback page, registered for the client. */
  redirectUri: string;
  clientSecret: string;
  accessTokenSeconds: number;
  /** What the resource server holds: six fixed receipts of two consignees unless given. */
  data?: OidcData;
}

export interface OidcData {
  consignees: ProviderConsignee[];
  receipts: ProviderReceipt[];
  /** Receipts' attachments by receipt id; without, the server serves none (every list is a 404), as a provider may. */
  attachments?: Record<number, OidcAttachment[]>;
}

/** A file the resource server keeps with a receipt: how it lists it, and its bytes. */
export interface OidcAttachment {
  listed: {
    id: string | number;
    kind: string;
    fileName: string;
    contentType: string;
    size: number;
    createdAt: string | null;
  };
  bytes: Buffer;
  /** Sent in chunks without a Content-Length: whoever reads it learns its size only by reading. */
  chunked?: boolean;
}

export interface OidcCounts {
  /** Refresh grants that succeeded, and those the server refused. */
  refreshes: number;
  refusedRefreshes: number;
  /** Data calls the resource server answered with data (not 401). */
  dataCalls: number;
  /** Refresh tokens the server would still accept. */
  liveRefreshTokens: number;
}

export interface OidcServer {
  /** The issuer: the origin, while the data lives under /api. */
  issuer: string;
  apiUrl: string;
  counts(): OidcCounts;
  /** Whether the next authorizations get a refresh token (offline_access granted). */
  setIssueRefreshTokens(issue: boolean): void;
  /** The server's administrator revokes every refresh token; resolves with how many were live. */
  revokeRefreshTokens(): number;
  /** The administrator revokes the portal's grant: its refresh and access tokens alike. */
  revokeGrants(): void;
  /** New versions of these receipts (or new receipts): the next incremental sync receives them. */
  changeReceipts(receipts: ProviderReceipt[]): void;
  /** Lists of attachments are answered only once the returned function is called, as a provider that hangs. */
  holdAttachmentLists(): () => void;
  stop(): Promise<void>;
}

interface Stored {
  payload: AdapterPayload;
  expiresAt: number;
}

/** oidc-provider's storage, in memory and readable by the test (which refresh tokens are live). */
function memoryAdapter(store: Map<string, Stored>) {
  return class MemoryAdapter implements Adapter {
    name: string;
    constructor(name: string) {
      this.name = name;
    }
    key(id: string) {
      return `${this.name}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      store.set(this.key(id), {
        payload,
        expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity,
      });
    }
    async find(id: string) {
      const entry = store.get(this.key(id));
      if (!entry || entry.expiresAt <= Date.now()) return undefined;
      return entry.payload;
    }
    async findByUserCode(): Promise<undefined> {
      return undefined;
    }
    async findByUid(uid: string) {
      for (const [key, entry] of store)
        if (
          key.startsWith(`${this.name}:`) &&
          entry.payload.uid === uid &&
          entry.expiresAt > Date.now()
        )
          return entry.payload;
      return undefined;
    }
    async consume(id: string) {
      const entry = store.get(this.key(id));
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    }
  };
}

const CONSIGNEES = [
  { id: 501, name: 'Paramaribo Trading N.V.' },
  { id: 502, name: 'Nickerie Rice Mills' },
];

/** Six receipts, changed in this order. */
const RECEIPTS: ProviderReceipt[] = Array.from({ length: 6 }, (_, index) => {
  const consignee = CONSIGNEES[index % CONSIGNEES.length]!;
  const day = String(index + 1).padStart(2, '0');
  return {
    id: 7001 + index,
    number: `OP-${7001 + index}`,
    receivedDate: `2026-03-${day}T12:00:00.000Z`,
    shipperName: index % 2 ? 'Amazon.com Services LLC' : 'Home Depot',
    consigneeId: consignee.id,
    consigneeName: consignee.name,
    pieces: 1 + index,
    totalWeightValue: 10 + index,
    totalVolumeValue: 1.5 + index,
    destination: 'Paramaribo, Suriname',
    status: 'Received',
    modeOfTransportation: '40 - Air',
    origin: { name: 'Miami, FL' },
    commodities: [
      {
        description: 'Spare parts',
        trackingNumber: `1ZOIDC${7001 + index}`,
        pieces: 1 + index,
        totalWeightValue: 10 + index,
        totalVolumeValue: 1.5 + index,
      },
    ],
    updatedAt: `2026-03-${day}T13:00:00.000Z`,
  };
});

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function consentPage(uid: string, scope: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorize the portal</title></head><body>
<main><h1>Authorize Freight Portal</h1><p>Freight Portal asks for: <code>${escapeHtml(scope)}</code></p>
<form method="post" action="/interaction/${escapeHtml(uid)}">
<button type="submit" name="decision" value="authorize">Authorize</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form></main></body></html>`;
}

export async function startOidcServer(options: OidcServerOptions): Promise<OidcServer> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const apiUrl = `${issuer}/api`;
  const store = new Map<string, Stored>();
  const counts = { refreshes: 0, refusedRefreshes: 0, dataCalls: 0 };
  const consignees = options.data?.consignees ?? CONSIGNEES;
  /** Every version of every receipt in the order they changed; a cursor is the number of changes seen. */
  const changes = [...(options.data?.receipts ?? RECEIPTS)];
  /** While set, lists of attachments wait for it (holdAttachmentLists). */
  let listsHeld: Promise<void> | undefined;
  /** The latest version of each receipt changed after the first `from` changes, in the order of their last change. */
  const changedSince = (from: number) => [
    ...new Map(changes.slice(from).map((receipt) => [receipt.id, receipt])).values(),
  ];
  const latest = () => changedSince(0);
  let issueRefreshTokens = true;

  const configuration: Configuration = {
    adapter: memoryAdapter(store),
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    cookies: { keys: ['oidc-test-cookie-key'] },
    findAccount: async (_ctx, accountId) => ({
      accountId,
      claims: async () => ({ sub: accountId }),
    }),
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => apiUrl,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (resource !== apiUrl) throw new errors.InvalidTarget();
          return {
            scope: RECEIPTS_SCOPE,
            accessTokenFormat: 'opaque',
            accessTokenTTL: options.accessTokenSeconds,
          };
        },
      },
    },
    // Consent is asked on every authorization, as the sandbox does: only this interaction's grant counts.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.['consent']?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    issueRefreshToken: async (_ctx, client, code) =>
      issueRefreshTokens &&
      client.grantTypeAllowed('refresh_token') &&
      code.scopes.has('offline_access'),
    rotateRefreshToken: true,
    interactions: { url: async (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: {
      AccessToken: options.accessTokenSeconds,
      AuthorizationCode: 60,
      Grant: 86_400,
      Interaction: 600,
      RefreshToken: 86_400,
      Session: 3_600,
    },
  };
  const provider = new Provider(issuer, configuration);
  const isRefresh = (ctx: KoaContextWithOIDC) =>
    ctx.oidc.params?.['grant_type'] === 'refresh_token';
  provider.on('grant.success', (ctx) => isRefresh(ctx) && counts.refreshes++);
  provider.on('grant.error', (ctx) => isRefresh(ctx) && counts.refusedRefreshes++);
  const oidc = provider.callback();

  const liveRefreshTokens = () =>
    [...store].filter(
      ([key, entry]) =>
        key.startsWith('RefreshToken:') && !entry.payload.consumed && entry.expiresAt > Date.now(),
    ).length;

  function revokeRefreshTokens(): number {
    const live = liveRefreshTokens();
    for (const key of [...store.keys()]) if (key.startsWith('RefreshToken:')) store.delete(key);
    return live;
  }

  function revokeGrants(): void {
    for (const key of [...store.keys()])
      if (key.startsWith('RefreshToken:') || key.startsWith('AccessToken:')) store.delete(key);
  }

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) return send(res, 400, { error: 'unknown interaction' });
    // The forwarder is signed in at their own system already: login needs no page.
    if (details.prompt.name === 'login') {
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: OIDC_ACCOUNT } },
        { mergeWithLastSubmission: false },
      );
    }
    if (req.method === 'GET') {
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
      });
      return res.end(consentPage(uid, String(details.params['scope'] ?? '')));
    }
    const decision = (await readForm(req)).get('decision');
    if (decision !== 'authorize') {
      return provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The user denied the authorization request' },
        { mergeWithLastSubmission: false },
      );
    }
    const grant = new provider.Grant({
      accountId: OIDC_ACCOUNT,
      clientId: String(details.params['client_id']),
    });
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(resource, scopes.join(' '));
    return provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  }

  /** docs/provider-api.md §2 with the Bearer token checked against the server's own records. */
  async function resource(req: IncomingMessage, res: ServerResponse, url: URL) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ? await provider.AccessToken.find(bearer) : undefined;
    if (!token || token.isExpired || !token.scopes.has(RECEIPTS_SCOPE) || token.aud !== apiUrl) {
      return send(
        res,
        401,
        { error: 'invalid_token' },
        { 'WWW-Authenticate': 'Bearer realm="api", error="invalid_token"' },
      );
    }
    counts.dataCalls++;
    const path = url.pathname.slice('/api'.length);
    if (path === '/v1/receipts') {
      const since = url.searchParams.get('since');
      const from = since === null ? 0 : Number(since.replace(/^c/, ''));
      if (!Number.isInteger(from) || from < 0 || from > changes.length)
        return send(res, 400, {
          error: 'invalid_request',
          error_description: 'since is no cursor',
        });
      return send(res, 200, {
        receipts: changedSince(from),
        nextCursor: `c${changes.length}`,
        hasMore: false,
      });
    }
    const one = /^\/v1\/receipts\/(\d+)$/.exec(path);
    if (one) {
      const receipt = latest().find((candidate) => candidate.id === Number(one[1]));
      return receipt ? send(res, 200, receipt) : send(res, 404, { error: 'not_found' });
    }
    const attachments = options.data?.attachments;
    const listed = /^\/v1\/receipts\/(\d+)\/attachments$/.exec(path);
    if (listed) await listsHeld;
    if (listed && attachments?.[Number(listed[1])])
      return send(res, 200, {
        attachments: attachments[Number(listed[1])]!.map((file) => file.listed),
      });
    const file = /^\/v1\/attachments\/([^/]+)$/.exec(path)?.[1];
    const found =
      file === undefined
        ? undefined
        : Object.values(attachments ?? {})
            .flat()
            .find((candidate) => String(candidate.listed.id) === decodeURIComponent(file));
    if (found) {
      res.writeHead(200, {
        'Content-Type': found.listed.contentType,
        ...(!found.chunked && { 'Content-Length': String(found.bytes.length) }),
      });
      if (!found.chunked) return res.end(found.bytes);
      for (let start = 0; start < found.bytes.length; start += 64 * 1024) {
        if (!res.write(found.bytes.subarray(start, start + 64 * 1024))) {
          await new Promise<void>((resolve) => {
            const go = () => {
              res.off('drain', go);
              res.off('close', go);
              resolve();
            };
            res.on('drain', go);
            res.on('close', go);
          });
        }
        // The reader may stop reading and close: then the rest is not sent.
        if (res.destroyed) return;
      }
      return res.end();
    }
    if (path === '/v1/consignees') return send(res, 200, { consignees });
    if (path === '/v1/package-scans') {
      const trackingNumber = url.searchParams.get('trackingNumber');
      if (!trackingNumber)
        return send(res, 400, {
          error: 'invalid_request',
          error_description: 'trackingNumber is required',
        });
      const receipt = latest().find(
        (candidate) =>
          candidate.commodities[0]?.trackingNumber?.toLowerCase() === trackingNumber.toLowerCase(),
      );
      const scans = receipt
        ? [
            {
              id: receipt.id,
              arrival_id: 1,
              tracking_number: receipt.commodities[0]!.trackingNumber,
              scanned_at: receipt.receivedDate,
              carrier: 'UPS',
            },
          ]
        : [];
      return send(res, 200, { scans });
    }
    return send(res, 404, { error: 'not_found' });
  }

  function control(req: IncomingMessage, res: ServerResponse, action: string) {
    if (req.method === 'GET' && action === 'counts')
      return send(res, 200, { ...counts, liveRefreshTokens: liveRefreshTokens() });
    if (req.method === 'POST' && action === 'revoke-refresh-tokens')
      return send(res, 200, { revoked: revokeRefreshTokens() });
    if (
      req.method === 'POST' &&
      (action === 'refresh-tokens-on' || action === 'refresh-tokens-off')
    ) {
      issueRefreshTokens = action === 'refresh-tokens-on';
      return send(res, 200, { issueRefreshTokens });
    }
    return send(res, 404, { error: 'not_found' });
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', issuer);
    const interactionUid = /^\/interaction\/([\w-]+)$/.exec(url.pathname)?.[1];
    const handled = interactionUid
      ? interaction(req, res, interactionUid)
      : url.pathname.startsWith('/api/')
        ? resource(req, res, url)
        : url.pathname.startsWith('/test-control/')
          ? Promise.resolve(control(req, res, url.pathname.slice('/test-control/'.length)))
          : Promise.resolve(oidc(req, res));
    handled.catch((error: unknown) => {
      if (!res.headersSent)
        send(res, 500, {
          error: 'server_error',
          error_description: error instanceof Error ? error.message : String(error),
        });
    });
  });

  return {
    issuer,
    apiUrl,
    counts: () => ({ ...counts, liveRefreshTokens: liveRefreshTokens() }),
    setIssueRefreshTokens(issue: boolean) {
      issueRefreshTokens = issue;
    },
    revokeRefreshTokens,
    revokeGrants,
    holdAttachmentLists() {
      let release!: () => void;
      listsHeld = new Promise((resolve) => (release = resolve));
      return () => {
        listsHeld = undefined;
        release();
      };
    },
    changeReceipts(receipts: ProviderReceipt[]) {
      changes.push(...receipts);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
