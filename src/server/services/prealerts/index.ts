/**
 * Pre-alerts: a customer announces a package on its way to the warehouse for one of their consignees,
 * with its purchase invoice if they like. Each is linked to the receipt its package arrives on: by the
 * sync, as it writes the receipt (the reaction to its pages), when it is made after the package came,
 * or by an admin. New, changed and withdrawn pre-alerts are told to the provider through the outbox
 * when it offers them, so an outage of its loses nothing. A customer sees, makes, changes and
 * downloads only for their own consignees.
 *
 * This is the pre-alerts' public face: what other modules may import. Behind it, one file a concern:
 * - `customer.ts`: a customer's pre-alerts, read and written;
 * - `invoices.ts`: their invoice files;
 * - `matching.ts`: links to the receipts their packages came on, and the sync's reaction;
 * - `forwarding.ts`: telling the provider, through the outbox;
 * - `admin.ts`: the admin's view, and links made or undone by hand;
 * - `receipt-view.ts`: a receipt with its pre-alerts (`GET /api/receipts/{id}`);
 * - `rows.ts`: a pre-alert read as the API shows it, which all of them share.
 */
export {
  listAdminPrealerts,
  listExpectedPrealerts,
  listUnmatchedReceiptsOf,
  matchPrealert,
  unmatchPrealert,
} from './admin';
export {
  createPrealert,
  deletePrealert,
  getPrealert,
  listPrealerts,
  updatePrealert,
} from './customer';
export { createPrealertForwarder, PREALERT_FORWARD_JOB } from './forwarding';
export {
  invoiceFolder,
  purgeOrphanInvoices,
  readInvoice,
  type InvoiceFile,
  type NewInvoice,
} from './invoices';
export { matchArrivedPackages, prealertMatchingReaction } from './matching';
export { getReceiptWithPrealerts } from './receipt-view';
