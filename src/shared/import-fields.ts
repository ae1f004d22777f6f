/** The fields of a file import and its limits, without schemas: what the import screen carries to the browser. */
import { m } from '~/paraglide/messages.js';
import { formatSizeLimit } from './format';

/**
 * What a column of an export can be: the spec's receipt fields, and for packages their tracking
 * number and description.
 */
export const IMPORT_FIELDS = [
  'number',
  'receivedDate',
  'shipperName',
  'consigneeName',
  'pieces',
  'totalWeightValue',
  'totalVolumeValue',
  'destination',
  'status',
  'trackingNumber',
  'description',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** Without these a receipt cannot be placed: a file whose columns do not give them is refused. */
export const REQUIRED_IMPORT_FIELDS: readonly ImportField[] = [
  'number',
  'receivedDate',
  'consigneeName',
];

/** The largest file an import takes. */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/**
 * Why a file over IMPORT_MAX_BYTES is refused: by the server once it passes the limit, and by the
 * browser before sending it (on a slow link, minutes of upload for a refusal).
 */
export const importTooLarge = (): string =>
  m.import_too_large({ max: formatSizeLimit(IMPORT_MAX_BYTES) });
/** The multipart part that carries the file. */
export const IMPORT_FILE_FIELD = 'file';
/** How many rows the preview shows. */
export const IMPORT_PREVIEW_ROWS = 20;

export const IMPORT_MEDIA_TYPES = [
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/xml',
] as const;
