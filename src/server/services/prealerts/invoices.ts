/**
 * Pre-alerts' purchase invoices: files in UPLOADS_DIR/prealerts under names the server chose, read
 * back only by those who see their pre-alert, and removed by housekeeping once no pre-alert names them.
 */
import { open, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { m } from '~/paraglide/messages.js';
import type { PublicUser } from '~/shared/validation';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { AppError } from '../../errors';
import type { ScopeDeps } from '../receipts';
import { prealertInScope } from './rows';

/** An invoice file no pre-alert names is removed once this old: younger, its upload may be on its way to its row. */
const ORPHAN_INVOICE_AGE_MS = 60 * 60_000;
/** Invoice files looked up in one query by housekeeping. */
const INVOICE_LOOKUP_CHUNK = 500;

/** The folder of the invoices, inside UPLOADS_DIR. */
export const invoiceFolder = (config: Pick<Config, 'uploadsDir'>) =>
  path.join(config.uploadsDir, 'prealerts');

/** An invoice already stored in the invoice folder under a name the server chose. */
export interface NewInvoice {
  fileName: string;
  originalName: string;
  contentType: string;
  size: number;
}

export async function removeInvoiceFile(
  deps: { config: Pick<Config, 'uploadsDir'> },
  fileName: string | null,
): Promise<void> {
  if (fileName === null) return;
  await rm(path.join(invoiceFolder(deps.config), fileName), { force: true });
}

/**
 * Removes the files of the invoice folder that no pre-alert names and that are over an hour old: an
 * upload whose request ended before its pre-alert was stored, a file a crash left between a change and
 * the removal of the file it replaced. Housekeeping.
 */
export async function purgeOrphanInvoices({
  db,
  clock,
  config,
}: {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'uploadsDir'>;
}): Promise<void> {
  const folder = invoiceFolder(config);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const before = clock.now() - ORPHAN_INVOICE_AGE_MS;
  const old: string[] = [];
  for (const name of names) {
    const info = await stat(path.join(folder, name)).catch(() => null);
    if (info?.isFile() && info.mtimeMs < before) old.push(name);
  }
  for (let start = 0; start < old.length; start += INVOICE_LOOKUP_CHUNK) {
    const chunk = old.slice(start, start + INVOICE_LOOKUP_CHUNK);
    const named = await db.models.Prealert.findAll({
      attributes: ['invoiceFileName'],
      where: { invoiceFileName: chunk },
      raw: true,
    });
    const kept = new Set(named.map((row) => row.invoiceFileName));
    await Promise.all(
      chunk
        .filter((name) => !kept.has(name))
        .map((name) => rm(path.join(folder, name), { force: true })),
    );
  }
}

export interface InvoiceFile {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  size: number;
  /**
   * The name to save it under, made of the portal's own data: `invoice-<pre-alert id>` with the extension
   * of the type its bytes were found to be. The name it was uploaded with is the customer's to choose
   * (`invoice.hta`), so it is only ever shown as text.
   */
  name: string;
}

/** The invoice of a pre-alert the user sees; 404 when there is none. */
export async function readInvoice(
  deps: ScopeDeps & { config: Pick<Config, 'uploadsDir'> },
  user: PublicUser,
  id: number,
): Promise<InvoiceFile> {
  const row = await prealertInScope(deps, user, id);
  if (row.invoiceFileName === null) throw new AppError('NOT_FOUND', m.prealert_no_invoice());
  let handle: FileHandle;
  try {
    handle = await open(path.join(invoiceFolder(deps.config), row.invoiceFileName));
  } catch {
    throw new AppError('NOT_FOUND', m.prealert_no_invoice());
  }
  let size: number;
  try {
    ({ size } = await handle.stat());
  } catch (error) {
    await handle.close();
    throw error;
  }
  return {
    body: Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>,
    contentType: row.invoiceContentType ?? 'application/octet-stream',
    size,
    // Stored under a name the server chose, with the extension of the type its bytes were checked as.
    name: `invoice-${row.id}${path.extname(row.invoiceFileName)}`,
  };
}
