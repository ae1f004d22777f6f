/** Pre-alerts as a browser or a script sends them: JSON, or a multipart form with the invoice; and invoice files, real and pretended. */
import type { ApiClient, ApiResponse } from './api-client';
import type { UploadFile } from './images';

let sequence = 0;

/** A tracking number no other test uses: letters and digits, as a carrier's. */
export function uniqueTrackingNumber(prefix = 'PA'): string {
  sequence += 1;
  return `${prefix}${Date.now().toString(36)}${process.pid % 1000}X${sequence}`.toUpperCase();
}

/** A small but real PDF: the bytes decide its type, and they begin as every PDF's do. */
export function pdfFile(name = 'invoice.pdf', size?: number): UploadFile {
  const head =
    '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n';
  const tail = 'trailer << /Root 1 0 R >>\n%%EOF\n';
  const padding =
    size === undefined ? '' : '%'.repeat(Math.max(0, size - head.length - tail.length - 1)) + '\n';
  return { bytes: Buffer.from(head + padding + tail, 'latin1'), name, type: 'application/pdf' };
}

/** A Windows program (its MZ and PE headers), named and declared as a PDF. */
export function programPretendingToBePdf(): UploadFile {
  const bytes = Buffer.alloc(512);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('This program cannot be run in DOS mode.', 0x4e, 'latin1');
  bytes.write('PE\0\0', 0x80, 'latin1');
  bytes.writeUInt16LE(0x14c, 0x84);
  return { bytes, name: 'invoice.pdf', type: 'application/pdf' };
}

/** A pre-alert's fields as JSON sends them. */
export type PrealertFields = Record<string, string | number | boolean>;

/** The fields of a pre-alert that passes every rule, for `consigneeId`. */
export function validPrealert(consigneeId: number, fields: PrealertFields = {}): PrealertFields {
  return {
    carrier: 'ups',
    trackingNumber: uniqueTrackingNumber(),
    shipper: 'Amazon.com',
    description: 'Kitchen scale and spare batteries',
    declaredValue: 49.99,
    consigneeId,
    ...fields,
  };
}

/**
 * A pre-alert as a multipart form, the way a browser's FormData sends it (every field as text, the
 * invoice in `invoice`), to `POST /api/prealerts` or `PUT /api/prealerts/{id}`.
 */
export async function sendPrealertForm(
  client: ApiClient,
  method: 'POST' | 'PUT',
  path: string,
  fields: PrealertFields,
  invoice: UploadFile | null,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  if (invoice)
    form.append(
      'invoice',
      new Blob([new Uint8Array(invoice.bytes)], { type: invoice.type }),
      invoice.name,
    );
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const all: Record<string, string> = {
    Origin: client.portal.url,
    'Content-Type': encoded.headers.get('content-type')!,
    ...headers,
  };
  if (client.cookie) all.Cookie = client.cookie;
  const response = await fetch(`${client.portal.url}${path}`, {
    method,
    headers: all,
    body,
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // A page: kept as text.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** A download's bytes and headers as `client` gets them. */
export async function download(
  client: ApiClient,
  path: string,
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(`${client.portal.url}${path}`, {
    headers: client.cookie ? { Cookie: client.cookie } : {},
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}
