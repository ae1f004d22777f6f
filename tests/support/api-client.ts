/** A small HTTP client for API tests that behaves like a same-origin browser: it keeps the session cookie and sends Origin. */

/** Where a portal under test answers: a spawned one (tests/support/portal.ts) or one in this process (tests/support/in-process.ts). */
export interface PortalAddress {
  url: string;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  json?: unknown;
  /** Raw body with its own content type (form posts, wrong content types). */
  body?: string;
  headers?: Record<string, string>;
  /** The Origin header to send instead of the portal's own; null sends none (a script, not a browser). */
  origin?: string | null;
}

export class ApiClient {
  cookie: string | undefined;

  constructor(readonly portal: PortalAddress) {}

  async request<T = any>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const origin = options.origin === undefined ? this.portal.url : options.origin;
    const headers: Record<string, string> = {
      ...(origin !== null && { Origin: origin }),
      ...options.headers,
    };
    if (this.cookie) headers.Cookie = this.cookie;
    let body: string | undefined = options.body;
    if (options.json !== undefined) {
      headers['Content-Type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    }
    const response = await fetch(`${this.portal.url}${path}`, {
      method,
      headers,
      body,
      redirect: 'manual',
    });
    const setCookie = response.headers
      .getSetCookie()
      .find((line) => line.startsWith('portal_session='));
    if (setCookie) {
      const pair = setCookie.split(';')[0]!;
      this.cookie =
        pair === 'portal_session=' ||
        /max-age=0/i.test(setCookie) ||
        /expires=Thu, 01 Jan 1970/i.test(setCookie)
          ? undefined
          : pair;
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (a page or a redirect): keep the text.
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, json?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, json === undefined ? options : { ...options, json });
  }
  put<T = any>(path: string, json?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PUT', path, json === undefined ? options : { ...options, json });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }

  async login(username: string, password: string): Promise<ApiResponse> {
    const response = await this.post('/api/auth/login', { username, password });
    if (response.status !== 200)
      throw new Error(
        `login as ${username} failed: ${response.status} ${JSON.stringify(response.body)}`,
      );
    return response;
  }
}
