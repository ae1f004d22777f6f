/** A pre-alert's request body (JSON, or a multipart form with its invoice) and its invoice as a download. */
import type { APIContext } from 'astro';
import { m } from '~/paraglide/messages.js';
import type { SessionUser } from '~/shared/validation';
import { INVOICE_UPLOAD, prealertPayloadSchema, type PrealertInput } from '~/shared/prealerts';
import { invoiceFolder, type InvoiceFile, type NewInvoice } from '../services/prealerts';
import { AppError } from '../errors';
import { parseJson, parseWith } from './body';
import { requireUser } from './guard';
import { contentDisposition } from './images';
import { withReceivedForm } from './uploads';

/** Pre-alerts are made, changed and withdrawn by customers, for their own consignees; staff only read them. */
export function requireCustomer(context: Pick<APIContext, 'locals'>): SessionUser {
  const user = requireUser(context);
  if (user.role !== 'viewer') throw new AppError('FORBIDDEN', m.prealert_customers_only());
  return user;
}

/**
 * Reads a pre-alert as JSON or as a multipart form (the invoice in `invoice`) and hands it to `use`
 * with the invoice stored; whatever refuses it (the shared rules, the service) leaves no file behind.
 */
export async function withPrealertPayload<T>(
  context: Pick<APIContext, 'request' | 'locals'>,
  use: (input: PrealertInput, invoice: NewInvoice | null) => Promise<T>,
): Promise<T> {
  if (/^multipart\/form-data\b/i.test(context.request.headers.get('content-type') ?? '')) {
    return withReceivedForm(context.request, INVOICE_UPLOAD, invoiceFolder(context.locals.portal.config), ({ fields, document }) =>
      use(parseWith(prealertPayloadSchema, fields), document),
    );
  }
  return use(await parseJson(context, prealertPayloadSchema), null);
}

/** The invoice as a download under its uploaded name, with its stored type and never sniffed as another. */
export function invoiceResponse(invoice: InvoiceFile): Response {
  return new Response(invoice.body, {
    headers: {
      'Content-Type': invoice.contentType,
      'Content-Length': String(invoice.size),
      'Content-Disposition': contentDisposition(invoice.name),
      'X-Content-Type-Options': 'nosniff',
      // A customer's document: kept by no cache, the browser's included.
      'Cache-Control': 'private, no-store',
    },
  });
}
