/**
 * A pre-alert's request body (JSON, or a multipart form with its invoice), the pages' plain form posts
 * of it, and its invoice as a download.
 */
import type { APIContext } from 'astro';
import { m } from '~/paraglide/messages.js';
import {
  INVOICE_UPLOAD,
  PREALERT_INVOICE_FIELD,
  prealertPayloadSchema,
  type PrealertInput,
} from '~/shared/prealerts';
import { toFieldIssues, type SessionUser } from '~/shared/validation';
import { AppError } from '../errors';
import { invoiceFolder, type InvoiceFile, type NewInvoice } from '../services/prealerts';
import { parseJson } from './body';
import { requireUser } from './guard';
import { contentDisposition } from './images';
import { withReceivedForm, type ReceivedForm } from './uploads';

type Context = Pick<APIContext, 'request' | 'locals'>;
type Use<T> = (input: PrealertInput, invoice: NewInvoice | null) => Promise<T>;

/** Pre-alerts are made, changed and withdrawn by customers, for their own consignees; staff only read them. */
export function requireCustomer(context: Pick<APIContext, 'locals'>): SessionUser {
  const user = requireUser(context);
  if (user.role !== 'viewer') throw new AppError('FORBIDDEN', m.prealert_customers_only());
  return user;
}

/** A form's fields through the shared rules, its invoice's refusal told beside the fields' problems. */
function parseForm({ fields, documentRefusal }: ReceivedForm): PrealertInput {
  const parsed = prealertPayloadSchema.safeParse(fields);
  const issues = [
    ...(parsed.success ? [] : toFieldIssues(parsed.error)),
    ...(documentRefusal === null
      ? []
      : [{ field: PREALERT_INVOICE_FIELD, message: documentRefusal }]),
  ];
  if (!parsed.success || issues.length > 0)
    throw new AppError('VALIDATION_ERROR', issues[0]!.message, { details: issues });
  return parsed.data;
}

const isMultipart = (request: Request) =>
  /^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '');

/**
 * Reads a pre-alert as JSON or as a multipart form (the invoice in `invoice`) and hands it to `use`
 * with the invoice stored; whatever refuses it (the shared rules, the service) leaves no file behind.
 */
export async function withPrealertPayload<T>(context: Context, use: Use<T>): Promise<T> {
  if (isMultipart(context.request)) {
    return withReceivedForm(
      context.request,
      INVOICE_UPLOAD,
      invoiceFolder(context.locals.portal.config),
      (form) => use(parseForm(form), form.document),
    );
  }
  return use(await parseJson(context, prealertPayloadSchema), null);
}

/** A page's form post: done, or refused with what was typed, so that the page shows it again beside the problems. */
export type PrealertFormOutcome<T> =
  { done: T } | { refusal: AppError; fields: Record<string, string> };

/** The pages' plain form post of a pre-alert (multipart, with its invoice), as withPrealertPayload. */
export async function submitPrealertForm<T>(
  context: Context,
  use: Use<T>,
): Promise<PrealertFormOutcome<T>> {
  let fields: Record<string, string> = {};
  try {
    if (!isMultipart(context.request))
      throw new AppError('VALIDATION_ERROR', m.upload_unreadable());
    const done = await withReceivedForm(
      context.request,
      INVOICE_UPLOAD,
      invoiceFolder(context.locals.portal.config),
      (form) => {
        fields = form.fields;
        return use(parseForm(form), form.document);
      },
    );
    return { done };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { refusal: error, fields };
  }
}

/** The first message per field of a refusal, as a form shows them under its inputs. */
export function refusalFieldErrors(refusal: AppError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const { field, message } of refusal.details ?? []) errors[field] ??= message;
  return errors;
}

/** The invoice as a download under the name the portal gives it, with its stored type and never sniffed as another. */
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
