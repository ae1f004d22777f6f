/**
 * File imports (PROVIDER=file): the fields a column can be mapped to, the form's fields, the answer and
 * the history. The endpoint and the import screen use these same schemas.
 */
import * as z from 'zod/mini';

export * from './import-fields';
import { IMPORT_FIELDS } from './import-fields';

const flag = z.optional(
  z.pipe(
    z.enum(['true', 'false', 'on', '1', '0']),
    z.transform((value) => value === 'true' || value === 'on' || value === '1'),
  ),
);

/** `mapping`: a JSON object from field to the header of the column that holds it. */
export const importMappingSchema = z.partialRecord(
  z.enum(IMPORT_FIELDS),
  z.string().check(z.maxLength(200)),
);
export type ImportMapping = z.infer<typeof importMappingSchema>;

/** The form's fields beside the file, as multipart text. */
export const importFormSchema = z.object({
  dryRun: flag,
  full: flag,
  mapping: z.optional(z.string().check(z.maxLength(10_000))),
});

export const importRowErrorSchema = z.object({
  row: z.number(),
  column: z.string(),
  message: z.string(),
});
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

/** A receipt of the preview, as the portal read it. */
export const importPreviewRowSchema = z.object({
  row: z.number(),
  number: z.string(),
  receivedDate: z.nullable(z.string()),
  shipperName: z.string(),
  consigneeName: z.string(),
  pieces: z.number(),
  totalWeightValue: z.number(),
  totalVolumeValue: z.number(),
  destination: z.string(),
  status: z.string(),
  trackingNumber: z.nullable(z.string()),
  description: z.string(),
});
export type ImportPreviewRow = z.infer<typeof importPreviewRowSchema>;

export const importResultSchema = z.object({
  dryRun: z.boolean(),
  format: z.enum(['csv', 'xlsx', 'xml']),
  created: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  removed: z.number(),
  errors: z.array(importRowErrorSchema),
  /** The file's headers, and which field each mapped column fills. */
  headers: z.array(z.string()),
  mapping: importMappingSchema,
  /** The first rows as the portal reads them. */
  preview: z.array(importPreviewRowSchema),
});
export type ImportResult = z.infer<typeof importResultSchema>;

export const importRunSchema = z.object({
  id: z.number(),
  fileName: z.string(),
  format: z.string(),
  via: z.enum(['upload', 'folder']),
  username: z.nullable(z.string()),
  full: z.boolean(),
  created: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  removed: z.number(),
  errors: z.array(importRowErrorSchema),
  at: z.string(),
});
export type ImportRun = z.infer<typeof importRunSchema>;

/** What Token Management shows with PROVIDER=file: the last import and the folder. */
export const importsStateSchema = z.object({
  folder: z.string(),
  last: z.nullable(importRunSchema),
});
export type ImportsState = z.infer<typeof importsStateSchema>;
