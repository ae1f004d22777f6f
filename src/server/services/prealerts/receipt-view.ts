/**
 * A receipt with the pre-alerts linked to it, as `GET /api/receipts/{id}` and the receipt's page show
 * it: here, not in receipts.ts, for the receipts know nothing of pre-alerts.
 */
import type { ReceiptWithPrealerts } from '~/shared/prealerts';
import type { PublicUser } from '~/shared/validation';
import { readReceiptPrealerts, getReceipt, type ScopeDeps, type LastSyncTime } from '../receipts';

/** A receipt the user sees, with the pre-alerts of its consignee linked to it. */
export async function getReceiptWithPrealerts(
  deps: ScopeDeps & { lastSync: LastSyncTime },
  user: PublicUser,
  id: number,
): Promise<ReceiptWithPrealerts> {
  const receipt = await getReceipt(deps, user, id);
  const prealerts = await readReceiptPrealerts(deps, [id]);
  return { ...receipt, prealerts: prealerts.get(id) ?? [] };
}
