/**
 * File imports (PROVIDER=file): CSV, XLSX and Magaya XML exports of warehouse receipts, uploaded on
 * /admin/imports or dropped in IMPORT_DIR, written into the mirror as a sync writes it, so that status
 * history, e-mails, webhooks and pre-alert matching react alike. docs/imports.md tells the admin's side.
 */
export {
  importReceipts,
  listImports,
  parseMappingField,
  readImport,
  readImportsState,
  requireFileProvider,
  type ImportDeps,
  type ImportRequest,
} from './service';
export { ImportFolder, type ImportFolderDeps } from './folder';
export { importErrorsCsv } from './errors-csv';
