/** The admin's side of the OAuth2 flow against an authorization server (tests/support/oidc-server.ts), as a browser walks it. */
import { expect } from 'vitest';
import type { ApiClient } from './api-client';
import { startInProcessPortal, type InProcessOptions, type InProcessPortal } from './in-process';
import {
  OIDC_CLIENT_ID,
  startOidcServer,
  type OidcServer,
  type OidcServerOptions,
} from './oidc-server';
import { holdPort } from './portal';

/**
 * An authorization server and a portal reading its resource server (PROVIDER=http), the portal on the
 * port the server's redirect URI names: held from before the server starts, so nothing else takes it.
 */
export async function startPortalAtOidcServer(
  serverOptions: Omit<OidcServerOptions, 'port' | 'redirectUri'>,
  env: Record<string, string> = {},
  options: Omit<InProcessOptions, 'heldPort'> = {},
): Promise<{ server: OidcServer; portal: InProcessPortal }> {
  const heldPort = await holdPort();
  let server: OidcServer | undefined;
  try {
    server = await startOidcServer({
      ...serverOptions,
      redirectUri: `http://127.0.0.1:${heldPort.port}/admin/tokens/callback`,
    });
    const portal = await startInProcessPortal(
      {
        PROVIDER: 'http',
        PROVIDER_ISSUER: server.issuer,
        PROVIDER_URL: server.apiUrl,
        PROVIDER_CLIENT_ID: OIDC_CLIENT_ID,
        PROVIDER_CLIENT_SECRET: serverOptions.clientSecret,
        PROVIDER_SCOPE: 'receipts offline_access',
        ...env,
      },
      { ...options, heldPort },
    );
    return { server, portal };
  } catch (error) {
    await server?.stop();
    if (heldPort.server.listening) heldPort.server.close();
    throw error;
  }
}

/** A browser's visit to the authorization server: cookies kept, redirects followed by the caller. */
function browser() {
  const cookies = new Map<string, string>();
  return async (url: string, form?: URLSearchParams): Promise<Response> => {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers: {
        Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form && { 'Content-Type': 'application/x-www-form-urlencoded' }),
      },
      body: form,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = [
        pair!.slice(0, pair!.indexOf('=')),
        pair!.slice(pair!.indexOf('=') + 1),
      ];
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  };
}

/** The admin starts the OAuth2 flow and decides on the server's consent page; resolves with the callback URL. */
export async function consentAtServer(
  portal: { url: string },
  admin: ApiClient,
  decision: 'authorize' | 'deny',
): Promise<URL> {
  const started = await admin.post('/api/tokens/oauth/authorize');
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const visit = browser();
  let url = started.body.data.authorizationUrl as string;
  for (let hops = 0; hops < 12; hops++) {
    if (url.startsWith(portal.url)) return new URL(url);
    let response = await visit(url);
    if (response.status === 200) {
      const page = await response.text();
      const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
      if (!action) throw new Error(`no consent form at ${url}:\n${page.slice(0, 400)}`);
      response = await visit(new URL(action, url).href, new URLSearchParams({ decision }));
    }
    const location = response.headers.get('location');
    if (!location)
      throw new Error(
        `${response.status} without a redirect at ${url}: ${(await response.text()).slice(0, 400)}`,
      );
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects');
}

/** The admin authorizes the portal at the server; resolves with the callback page's HTML. */
export async function connectAtServer(portal: { url: string }, admin: ApiClient): Promise<string> {
  const callback = await consentAtServer(portal, admin, 'authorize');
  const page = await admin.get(callback.pathname + callback.search);
  expect(page.status, String(page.body).slice(0, 500)).toBe(200);
  expect(page.body).toContain('OAuth2 tokens acquired and stored successfully!');
  return page.body;
}
