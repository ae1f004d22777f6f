/** Steps of the sandbox provider's tests: a PKCE pair, the consent page, the token endpoint, the controls. */
import { createHash, randomBytes } from 'node:crypto';
import { ADMIN_PASSWORD } from './portal';
import { ApiClient, type PortalAddress as Portal } from './api-client';

export const CLIENT_ID = 'freight-portal';
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const redirectUriOf = (portal: Portal) => `${portal.url}/admin/tokens/callback`;

export function authorizeParams(
  portal: Portal,
  challenge: string,
  extra: Record<string, string> = {},
): URLSearchParams {
  return new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: redirectUriOf(portal),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'state-123',
    scope: 'receipts',
    ...extra,
  });
}

/** The sandbox stands in for the forwarder's own software, where staff sign in: its consent page is for the portal's admins. */
const adminSessions = new WeakMap<Portal, Promise<string>>();

/** The session cookie of the portal's admin, signed in once per portal. */
export function adminCookie(portal: Portal): Promise<string> {
  let cookie = adminSessions.get(portal);
  if (!cookie) {
    cookie = (async () => {
      const admin = new ApiClient(portal);
      await admin.login('admin', ADMIN_PASSWORD);
      return admin.cookie!;
    })();
    adminSessions.set(portal, cookie);
  }
  return cookie;
}

/**
 * Posts the consent form as the browser would (same origin), with the user's decision: as the
 * portal's admin unless `cookie` says otherwise (null: nobody signed in).
 */
export async function decide(
  portal: Portal,
  params: URLSearchParams,
  decision: 'authorize' | 'deny',
  { origin = portal.url, cookie }: { origin?: string; cookie?: string | null } = {},
): Promise<Response> {
  const body = new URLSearchParams(params);
  body.set('decision', decision);
  const session = cookie === undefined ? await adminCookie(portal) : cookie;
  const headers = { ...FORM, Origin: origin, ...(session !== null && { Cookie: session }) };
  return fetch(`${portal.url}/sandbox/oauth/authorize`, {
    method: 'POST',
    headers,
    body,
    redirect: 'manual',
  });
}

/** Opens the consent page as the portal's admin, as the Token Management popup does. */
export async function consentPage(
  portal: Portal,
  query: URLSearchParams | string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${portal.url}/sandbox/oauth/authorize?${query}`, {
    headers: { Cookie: await adminCookie(portal), ...headers },
    redirect: 'manual',
  });
}

/** Authorizes on the consent page and returns the code with its verifier. */
export async function authorizationCode(portal: Portal) {
  const { verifier, challenge } = pkcePair();
  const response = await decide(portal, authorizeParams(portal, challenge), 'authorize');
  const code = new URL(response.headers.get('location')!).searchParams.get('code');
  if (!code) throw new Error(`no code: ${response.status} ${response.headers.get('location')}`);
  return { code, verifier };
}

export interface TokenResponse {
  status: number;
  headers: Headers;
  body: Record<string, any>;
}

export async function tokenRequest(
  portal: Portal,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<TokenResponse> {
  const response = await fetch(`${portal.url}/sandbox/oauth/token`, {
    method: 'POST',
    headers: { ...FORM, ...headers },
    body: new URLSearchParams(form),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

export async function exchangeCode(
  portal: Portal,
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
): Promise<TokenResponse> {
  return tokenRequest(portal, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUriOf(portal),
    client_id: CLIENT_ID,
    code_verifier: verifier,
    ...extra,
  });
}

/** A fresh token pair through the whole authorization code flow. */
export async function connect(
  portal: Portal,
): Promise<{ accessToken: string; refreshToken: string }> {
  const { code, verifier } = await authorizationCode(portal);
  const { status, body } = await exchangeCode(portal, code, verifier);
  if (status !== 200) throw new Error(`token exchange failed: ${status} ${JSON.stringify(body)}`);
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}

export async function sandboxGet(
  portal: Portal,
  path: string,
  accessToken?: string,
): Promise<{ status: number; headers: Headers; body: any }> {
  // The consent page is the one path a person opens: as the portal's admin.
  const session: Record<string, string> = path.startsWith('/oauth/authorize')
    ? { Cookie: await adminCookie(portal) }
    : {};
  const response = await fetch(`${portal.url}/sandbox${path}`, {
    headers: accessToken ? { Authorization: `Bearer ${accessToken}` } : session,
    redirect: 'manual',
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // A page, or an empty 404.
  }
  return { status: response.status, headers: response.headers, body };
}

export async function control(
  portal: Portal,
  action: string,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${portal.url}/sandbox/control/${action}`, {
    method: action === 'samples' ? 'GET' : 'POST',
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** What one or more of the sandbox's change windows did. */
export interface SandboxChanges {
  advanced: number[];
  added: number[];
  deleted: number[];
}

/**
 * Applies sandbox windows until one deletes a receipt; all their changes together. A window deletes
 * with a chance of about one in four, so up to 200 windows make "none deleted" practically impossible.
 */
export async function advanceUntilDeletion(client: ApiClient): Promise<SandboxChanges> {
  const changes: SandboxChanges = { advanced: [], added: [], deleted: [] };
  for (let window = 0; window < 200 && changes.deleted.length === 0; window += 1) {
    const response = await client.post('/sandbox/control/advance');
    if (response.status !== 200) throw new Error(`advance answered ${response.status}`);
    const next = response.body as SandboxChanges;
    changes.advanced.push(...next.advanced);
    changes.added.push(...next.added);
    changes.deleted.push(...next.deleted);
  }
  if (changes.deleted.length === 0) throw new Error('200 sandbox windows deleted nothing');
  return changes;
}
