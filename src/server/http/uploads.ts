/**
 * Receiving uploads: one image (the branding), or a form whose fields travel with at most one document
 * (a pre-alert and its invoice). Multipart is parsed by formidable with the size limit enforced while
 * the body streams in, the format decided by the file's bytes (never its name or declared type), and
 * the file kept in UPLOADS_DIR under a name the server chooses. Whatever is refused leaves no file behind.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileTypeFromFile } from 'file-type';
import formidable, { errors as formidableErrors, multipart } from 'formidable';
import { m } from '~/paraglide/messages.js';
import { IMAGE_CONTENT_TYPES, type ImageExtension, type UploadRules } from '~/shared/branding';
import { bodyChunks, MAX_BODY_BYTES } from './body';
import { AppError } from '../errors';

/** Room for the multipart framing around the file: boundaries, part headers, a few small fields. */
const MULTIPART_OVERHEAD_BYTES = 16 * 1024;
const ORIGINAL_NAME_MAX = 255;

export interface ReceivedImage {
  /** Where it now lives in UPLOADS_DIR: random, with the extension of the detected format. */
  fileName: string;
  originalName: string;
  contentType: string;
  size: number;
}

interface IncomingFile {
  stream: WriteStream;
  filepath: string;
}

/** Receives the request's one image into `uploadsDir` (UPLOADS_DIR). */
export async function receiveImage(
  request: Request,
  rules: UploadRules,
  uploadsDir: string,
): Promise<ReceivedImage> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType) || !request.body)
    throw new AppError('VALIDATION_ERROR', rules.notImage());

  await mkdir(uploadsDir, { recursive: true });
  const incoming: IncomingFile[] = [];
  try {
    const file = await parseOneFile(request, rules, uploadsDir, incoming);
    const extension = await detectImageFormat(file, rules);
    const fileName = `${randomBytes(16).toString('hex')}.${extension}`;
    await rename(file.filepath, path.join(uploadsDir, fileName));
    return {
      fileName,
      originalName: displayName(file.originalFilename, extension),
      contentType: IMAGE_CONTENT_TYPES[extension],
      size: file.size,
    };
  } finally {
    // After a successful rename the temporary path is gone and this removes nothing.
    await Promise.all(incoming.map(discard));
  }
}

async function parseOneFile(
  request: Request,
  rules: UploadRules,
  uploadsDir: string,
  incoming: IncomingFile[],
): Promise<formidable.File> {
  const form = formidable({
    uploadDir: uploadsDir,
    enabledPlugins: [multipart],
    maxFiles: 1,
    maxFileSize: rules.maxBytes,
    // Counted chunk by chunk as the body arrives, unlike maxFileSize (checked when a file ends).
    maxTotalFileSize: rules.maxBytes,
    maxFields: 10,
    maxFieldsSize: 16 * 1024,
    filename: () => `.incoming-${randomBytes(12).toString('hex')}`,
    filter: (part) => part.name === rules.field,
    // Our own streams, so that a refused file is removed only once its stream is closed.
    fileWriteStreamHandler: (file) => {
      const { filepath } = file as unknown as formidable.File;
      const stream = createWriteStream(filepath, { flags: 'wx' });
      incoming.push({ stream, filepath });
      return stream;
    },
  });
  const headers: Record<string, string> = Object.fromEntries(request.headers);
  // Without a length formidable reads nothing unless it is told the body comes in chunks.
  if (!headers['content-length']) headers['transfer-encoding'] ??= 'chunked';
  // The whole body is bounded too, not only the file: parts formidable skips still stream through it.
  const chunks = bodyChunks(request, rules.maxBytes + MULTIPART_OVERHEAD_BYTES, rules.tooLarge());
  const body = Object.assign(Readable.from(chunks, { objectMode: false }), { headers });
  let files: formidable.Files;
  try {
    [, files] = await form.parse(body as unknown as IncomingMessage);
  } catch (error) {
    throw uploadError(error, rules);
  }
  const file = files[rules.field]?.[0];
  if (!file) throw new AppError('VALIDATION_ERROR', rules.notImage());
  return file;
}

async function detectImageFormat(
  file: formidable.File,
  rules: UploadRules,
): Promise<ImageExtension> {
  const detected = await fileTypeFromFile(file.filepath);
  // An animated PNG is a PNG to every browser.
  const extension = detected?.ext === 'apng' ? 'png' : detected?.ext;
  if (extension && Object.hasOwn(IMAGE_CONTENT_TYPES, extension))
    return extension as ImageExtension;
  // An image of another format (SVG, BMP …), or something merely named one, is told the accepted formats.
  const claimsImage = detected?.mime.startsWith('image/') || file.mimetype?.startsWith('image/');
  throw new AppError('VALIDATION_ERROR', claimsImage ? rules.notAllowed() : rules.notImage());
}

function uploadError(error: unknown, rules: Pick<UploadRules, 'notImage' | 'tooLarge'>): unknown {
  const code = error && typeof error === 'object' && 'code' in error ? error.code : undefined;
  switch (code) {
    case formidableErrors.biggerThanTotalMaxFileSize:
    case formidableErrors.biggerThanMaxFileSize:
      return new AppError('PAYLOAD_TOO_LARGE', rules.tooLarge());
    case formidableErrors.maxFilesExceeded:
      return new AppError('VALIDATION_ERROR', m.upload_one_file());
    case formidableErrors.noEmptyFiles:
    case formidableErrors.smallerThanMinFileSize:
      return new AppError('VALIDATION_ERROR', rules.notImage());
  }
  // Any other refusal of formidable's (broken framing, too many fields) is the sender's mistake.
  if (error && typeof error === 'object' && 'httpCode' in error)
    return new AppError('VALIDATION_ERROR', m.upload_unreadable());
  return error;
}

// eslint-disable-next-line no-control-regex -- control characters are what it removes
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** The sender's file name as a label: no folders, no control characters, a bounded length. */
function displayName(
  originalFilename: string | null,
  extension: string,
  fallbackStem = 'image',
): string {
  const name = (originalFilename ?? '')
    .split(/[\\/]/)
    .pop()!
    .replace(CONTROL_CHARACTERS, '')
    .trim();
  return (name || `${fallbackStem}.${extension}`).slice(0, ORIGINAL_NAME_MAX);
}

async function discard({ stream, filepath }: IncomingFile): Promise<void> {
  if (!stream.closed) {
    await new Promise<void>((resolve) => {
      stream.once('close', () => resolve());
      stream.destroy();
    });
  }
  await rm(filepath, { force: true });
}

/** What a form's document may be: its field, size and formats, and what a refusal says. */
export interface DocumentRules {
  field: string;
  maxBytes: number;
  /** The accepted formats: the extension a file is stored under, by its content type. */
  contentTypes: Readonly<Record<string, string>>;
  /** The name given to a file sent without one, before its extension. */
  fallbackName: string;
  /** No accepted format (or no file at all: an empty one). */
  notAllowed: () => string;
  tooLarge: () => string;
}

export interface ReceivedDocument {
  /** Where it now lives in the upload folder: random, with the extension of the detected format. */
  fileName: string;
  originalName: string;
  contentType: string;
  size: number;
}

/** A form as it came: its fields (the first value of each name), and its document, if one was chosen. */
export interface ReceivedForm {
  fields: Record<string, string>;
  document: ReceivedDocument | null;
  /**
   * Why the document was refused (not of an accepted format; it is not kept), so that the form's other
   * fields are judged too and every problem is told at once.
   */
  documentRefusal: string | null;
}

/**
 * Reads a multipart form into `dir` and hands it to `use`; the document is removed again when `use`
 * fails, so a refused request never leaves a file behind, whatever refused it (the form's rules, a
 * service, the database). Once `use` succeeds the file is whoever stored its name's.
 */
export async function withReceivedForm<T>(
  request: Request,
  rules: DocumentRules,
  dir: string,
  use: (form: ReceivedForm) => Promise<T>,
): Promise<T> {
  const form = await receiveForm(request, rules, dir);
  try {
    return await use(form);
  } catch (error) {
    if (form.document) await rm(path.join(dir, form.document.fileName), { force: true });
    throw error;
  }
}

/** The fields of a multipart form and its one document of `rules`, checked by its bytes and kept in `dir`. */
async function receiveForm(
  request: Request,
  rules: DocumentRules,
  dir: string,
): Promise<ReceivedForm> {
  const incoming: IncomingFile[] = [];
  try {
    const { fields, file } = await parseForm(request, rules, dir, incoming);
    if (!file) return { fields, document: null, documentRefusal: null };
    const detected = await fileTypeFromFile(file.filepath);
    const extension = detected?.ext;
    if (!extension || !Object.hasOwn(rules.contentTypes, extension))
      return { fields, document: null, documentRefusal: rules.notAllowed() };
    const fileName = `${randomBytes(16).toString('hex')}.${extension}`;
    await rename(file.filepath, path.join(dir, fileName));
    return {
      fields,
      document: {
        fileName,
        originalName: displayName(file.originalFilename, extension, rules.fallbackName),
        contentType: rules.contentTypes[extension]!,
        size: file.size,
      },
      documentRefusal: null,
    };
  } finally {
    await Promise.all(incoming.map(discard));
  }
}

/** A form's one file of any format (the service reads its bytes) and its fields. */
export interface ReceivedFile {
  fields: Record<string, string>;
  /** Where it is while `use` runs; removed after. */
  path: string;
  originalName: string;
}

/**
 * Reads a multipart form with one file of at most `rules.maxBytes` into `dir`, hands it to `use` and
 * removes the file after, whatever `use` did: an import reads it once and keeps nothing of it.
 */
export async function withReceivedFile<T>(
  request: Request,
  rules: Pick<DocumentRules, 'field' | 'maxBytes' | 'notAllowed' | 'tooLarge' | 'fallbackName'>,
  dir: string,
  use: (file: ReceivedFile) => Promise<T>,
): Promise<T> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType) || !request.body)
    throw new AppError('VALIDATION_ERROR', rules.notAllowed());
  const incoming: IncomingFile[] = [];
  try {
    const { fields, file } = await parseForm(request, rules, dir, incoming);
    if (!file) throw new AppError('VALIDATION_ERROR', rules.notAllowed());
    const extension = path.extname(file.originalFilename ?? '').slice(1) || 'csv';
    return await use({
      fields,
      path: file.filepath,
      originalName: displayName(file.originalFilename, extension, rules.fallbackName),
    });
  } finally {
    await Promise.all(incoming.map(discard));
  }
}

/**
 * A form's fields (the first value of each name) and its one file in `rules.field`, parsed into `dir`.
 * A file input left empty still sends its part, without a file name: no file. Every file begun is
 * listed in `incoming`, for the caller to discard.
 */
async function parseForm(
  request: Request,
  rules: Pick<DocumentRules, 'field' | 'maxBytes' | 'notAllowed' | 'tooLarge'>,
  dir: string,
  incoming: IncomingFile[],
): Promise<{ fields: Record<string, string>; file: formidable.File | undefined }> {
  await mkdir(dir, { recursive: true });
  const form = formidable({
    uploadDir: dir,
    enabledPlugins: [multipart],
    maxFiles: 1,
    maxFileSize: rules.maxBytes,
    maxTotalFileSize: rules.maxBytes,
    maxFields: 20,
    maxFieldsSize: MAX_BODY_BYTES,
    filename: () => `.incoming-${randomBytes(12).toString('hex')}`,
    filter: (part) => part.name === rules.field && Boolean(part.originalFilename),
    fileWriteStreamHandler: (file) => {
      const { filepath } = file as unknown as formidable.File;
      const stream = createWriteStream(filepath, { flags: 'wx' });
      incoming.push({ stream, filepath });
      return stream;
    },
  });
  const headers: Record<string, string> = Object.fromEntries(request.headers);
  if (!headers['content-length']) headers['transfer-encoding'] ??= 'chunked';
  const chunks = bodyChunks(
    request,
    rules.maxBytes + MULTIPART_OVERHEAD_BYTES + MAX_BODY_BYTES,
    rules.tooLarge(),
  );
  const body = Object.assign(Readable.from(chunks, { objectMode: false }), { headers });
  let fields: formidable.Fields;
  let files: formidable.Files;
  try {
    [fields, files] = await form.parse(body as unknown as IncomingMessage);
  } catch (error) {
    throw uploadError(error, { notImage: rules.notAllowed, tooLarge: rules.tooLarge });
  }
  const values = Object.fromEntries(
    Object.entries(fields).flatMap(([name, list]) =>
      list?.[0] === undefined ? [] : [[name, list[0]]],
    ),
  );
  return { fields: values, file: files[rules.field]?.[0] };
}
