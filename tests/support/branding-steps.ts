/** Uploading a logo or background as a browser's FormData does, and reading the images back. */
import type { ApiClient, ApiResponse } from './api-client';
import type { UploadFile } from './images';

export interface UploadOptions {
  /** Sent without Content-Length (chunked), so that only the limit while streaming can stop it. */
  chunked?: boolean;
  /** More parts after the file. */
  extra?: Array<{ field: string; file: UploadFile }>;
  origin?: string;
  headers?: Record<string, string>;
}

/** A multipart upload the way a browser's FormData sends it, with the client's session. */
export async function uploadImage(
  client: ApiClient,
  kind: 'logo' | 'background',
  file: UploadFile | null,
  options: UploadOptions = {},
): Promise<ApiResponse> {
  const { url } = client.portal;
  const form = new FormData();
  const blobOf = ({ bytes, type }: UploadFile) => new Blob([new Uint8Array(bytes)], { type });
  if (file) form.append(kind, blobOf(file), file.name);
  else form.append('note', 'no file here');
  for (const part of options.extra ?? [])
    form.append(part.field, blobOf(part.file), part.file.name);
  const encoded = new Response(form);
  const headers: Record<string, string> = {
    Origin: options.origin ?? url,
    'Content-Type': encoded.headers.get('content-type')!,
    ...options.headers,
  };
  if (client.cookie) headers.Cookie = client.cookie;
  const body = options.chunked ? encoded.body! : Buffer.from(await encoded.arrayBuffer());
  const response = await fetch(`${url}/api/${kind}/upload`, {
    method: 'POST',
    headers,
    body,
    duplex: 'half',
  } as RequestInit);
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** An image's bytes as `client` (signed in or not) gets them. */
export async function fetchImage(
  client: ApiClient,
  url: string,
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(`${client.portal.url}${url}`, {
    headers: client.cookie ? { Cookie: client.cookie } : {},
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** The URLs of a page's background: every url("…") in its branding <style> element. */
export function backgroundUrlsOf(page: string): string[] {
  const css = /<style>((?::root|body)\{[^<]*)<\/style>/.exec(page)?.[1] ?? '';
  return [...new Set([...css.matchAll(/url\("([^"]+)"\)/g)].map((match) => match[1]!))];
}
