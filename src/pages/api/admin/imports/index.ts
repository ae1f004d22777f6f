import { auditActor } from '~/server/http/audit-actor';
import { parseWith } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { withReceivedFile } from '~/server/http/uploads';
import { describeEndpoint } from '~/server/http/api-description';
import {
  importReceipts,
  listImports,
  parseMappingField,
  requireFileProvider,
} from '~/server/services/imports';
import { okEnvelope } from '~/shared/envelope';
import {
  IMPORT_FILE_FIELD,
  IMPORT_MAX_BYTES,
  IMPORT_MEDIA_TYPES,
  importFormSchema,
  importResultSchema,
  importRunSchema,
  importTooLarge,
} from '~/shared/imports';
import { m } from '~/paraglide/messages.js';
import path from 'node:path';
import * as z from 'zod/mini';

const IMPORT_UPLOAD = {
  field: IMPORT_FILE_FIELD,
  maxBytes: IMPORT_MAX_BYTES,
  fallbackName: 'import',
  notAllowed: () => m.import_not_a_format(),
  tooLarge: importTooLarge,
};

export const GET = handle(async (context) => {
  requireRole(context, 'admin');
  requireFileProvider(context.locals.portal.config);
  return ok(await listImports(context.locals.portal));
});

export const POST = handle(async (context) => {
  requireRole(context, 'admin');
  const { portal } = context.locals;
  requireFileProvider(portal.config);
  const result = await withReceivedFile(
    context.request,
    IMPORT_UPLOAD,
    path.join(portal.config.uploadsDir, 'imports'),
    async (file) => {
      const form = parseWith(importFormSchema, file.fields);
      return importReceipts(portal, {
        path: file.path,
        fileName: file.originalName,
        dryRun: form.dryRun ?? false,
        full: form.full ?? false,
        mapping: parseMappingField(form.mapping),
        via: 'upload',
        by: auditActor(context),
      });
    },
  );
  return ok(result);
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'The import history',
    description:
      'The last 50 imports, newest first: who imported which file and when, its counts and its ' +
      'row errors. PROVIDER=file only.',
    access: ['admin'],
    answer: { status: 200, body: okEnvelope(z.array(importRunSchema)) },
    errors: { 409: 'The portal does not run on imports (PROVIDER is not file) (CONFLICT).' },
  },
  POST: {
    summary: 'Import receipts from a file',
    description:
      'A CSV, XLSX or Magaya XML export, judged by its bytes. `dryRun=true` reads it and answers ' +
      'the counts and the first 20 rows without writing; `mapping` (a JSON object from field to ' +
      'header) places columns the portal does not recognise, and is saved for the next file with ' +
      'the same header row; `full=true` removes the receipts the file does not name. Bad rows are ' +
      'answered in `errors` with their spreadsheet row numbers; the good ones land. When a ' +
      'required field (number, receivedDate, consigneeName) has no column, a 400 names them in ' +
      '`details` (`mapping.<field>`), with the file’s headers (`headers.<index>`). PROVIDER=file ' +
      'only.',
    access: ['admin'],
    body: importFormSchema,
    upload: {
      field: IMPORT_FILE_FIELD,
      maxBytes: IMPORT_MAX_BYTES,
      mediaTypes: IMPORT_MEDIA_TYPES,
    },
    answer: { status: 200, body: okEnvelope(importResultSchema) },
    errors: { 409: 'The portal does not run on imports (PROVIDER is not file) (CONFLICT).' },
  },
});
