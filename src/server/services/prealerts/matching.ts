/**
 * Linking pre-alerts to the receipts their packages came on: by the sync, as it writes a page
 * (prealertMatchingReaction, registered by the composition root), when a pre-alert is made after its
 * package came, or by an admin. Every link goes through linkPrealertToReceipt.
 */
import { QueryTypes, type Transaction } from 'sequelize';
import type { PrealertMatchedBy } from '../../db/models';
import { enqueueJobs } from '../outbox';
import type { ArrivalLine, PageReaction, WrittenReceipt } from '../sync-reactions';
import { queueWebhookEvent, type WebhookEventDeps } from '../webhooks';
import { forwardJob } from './forwarding';
import { SELECT_PREALERTS, toPrealert, type PrealertRow } from './rows';

/**
 * Links a pre-alert to the receipt its package came on, once: only while the pre-alert waits, and only
 * when the receipt is its consignee's. A tracking number is typed by a customer and may be mistyped or
 * guessed, so it never proves whose package it is: a link across consignees would show one customer's
 * pre-alert, value and invoice on another's receipt, and tell the first about a receipt they may not
 * see. A package whose number matches another consignee's pre-alert stays unlinked, for the admin's
 * view (the receipt without a pre-alert, the pre-alert gone stale). Answers whether it linked them.
 */
export async function linkPrealertToReceipt(
  deps: WebhookEventDeps,
  link: { prealertId: number; receiptId: number; matchedBy: PrealertMatchedBy },
  transaction: Transaction,
  /** False for a pre-alert made this moment: the provider never heard of it. */
  providerKnowsIt = true,
): Promise<boolean> {
  const { db, clock } = deps;
  const linked = await db.sequelize.query(
    `UPDATE "prealerts" SET "receiptId" = :receiptId, "matchedAt" = :now, "matchedBy" = :matchedBy
      WHERE "id" = :prealertId AND "receiptId" IS NULL
        AND "consigneeId" = (SELECT r."consigneeId" FROM "receipts" r WHERE r."id" = :receiptId)
        AND (:matchedBy = 'admin' OR "declinedReceiptId" IS NULL OR "declinedReceiptId" <> :receiptId)
      RETURNING "id"`,
    { replacements: { ...link, now: new Date(clock.now()) }, type: QueryTypes.SELECT, transaction },
  );
  if (linked.length !== 1) return false;
  // Every link, the sync's and the admin's, is told to the provider (nothing waits for that package any
  // more) and announced to the webhooks that take pre-alert events.
  if (providerKnowsIt) await enqueueJobs(deps, [forwardJob(link.prealertId)], transaction);
  const [row] = await db.sequelize.query<PrealertRow>(`${SELECT_PREALERTS} WHERE p."id" = :id`, {
    replacements: { id: link.prealertId },
    type: QueryTypes.SELECT,
    transaction,
  });
  await queueWebhookEvent(
    deps,
    { type: 'prealert.matched', receiptId: link.receiptId, prealert: toPrealert(row!) },
    transaction,
  );
  return true;
}

/**
 * Unlinks the pre-alerts of these receipts that are no longer their consignees' (the provider gave the
 * receipt to another consignee, or deleted it): they wait for their package again.
 */
export async function releasePrealertsOfReceipts(
  deps: WebhookEventDeps,
  receiptIds: number[],
  transaction: Transaction,
): Promise<void> {
  if (receiptIds.length === 0) return;
  const released = await deps.db.sequelize.query<{ id: number }>(
    `UPDATE "prealerts" SET "receiptId" = NULL, "matchedAt" = NULL, "matchedBy" = NULL
      WHERE "receiptId" IN (:receiptIds)
        AND NOT EXISTS (SELECT 1 FROM "receipts" r WHERE r."id" = "prealerts"."receiptId"
        AND r."consigneeId" = "prealerts"."consigneeId")
      RETURNING "id"`,
    { replacements: { receiptIds }, type: QueryTypes.SELECT, transaction },
  );
  // Waiting again: the provider is told to expect them.
  await enqueueJobs(
    deps,
    released.map((row) => forwardJob(Number(row.id))),
    transaction,
  );
}

/**
 * Links the waiting pre-alerts whose packages came on these receipts (the sync's page, in its
 * transaction): the same tracking number, the same consignee. Answers what arrived, for the digest.
 */
export async function matchArrivedPackages(
  deps: WebhookEventDeps,
  receipts: WrittenReceipt[],
  transaction: Transaction,
): Promise<ArrivalLine[]> {
  await releasePrealertsOfReceipts(
    deps,
    receipts.map((receipt) => receipt.id),
    transaction,
  );
  const receiptsByKey = new Map<string, WrittenReceipt[]>();
  for (const receipt of receipts) {
    for (const key of new Set(receipt.trackingKeys)) {
      if (key === null || receipt.consigneeId === null) continue;
      receiptsByKey.set(key, [...(receiptsByKey.get(key) ?? []), receipt]);
    }
  }
  if (receiptsByKey.size === 0) return [];
  const waiting = await deps.db.models.Prealert.findAll({
    attributes: ['id', 'consigneeId', 'trackingNumber', 'shipper', 'declinedReceiptId'],
    where: { trackingNumber: [...receiptsByKey.keys()], receiptId: null },
    order: [['id', 'ASC']],
    raw: true,
    transaction,
  });
  const arrivals: ArrivalLine[] = [];
  for (const prealert of waiting) {
    const receipt = receiptsByKey
      .get(prealert.trackingNumber)
      ?.find(
        (candidate) =>
          candidate.consigneeId === prealert.consigneeId &&
          candidate.id !== prealert.declinedReceiptId,
      );
    if (!receipt) continue;
    if (
      await linkPrealertToReceipt(
        deps,
        { prealertId: prealert.id, receiptId: receipt.id, matchedBy: 'arrival' },
        transaction,
      )
    ) {
      arrivals.push({
        receiptId: receipt.id,
        number: receipt.number,
        consigneeId: prealert.consigneeId,
        trackingNumber: prealert.trackingNumber,
        shipper: prealert.shipper,
      });
    }
  }
  return arrivals;
}

/**
 * The sync's reaction to a page: the pre-alerts of the receipts it removed wait for their packages
 * again, and the waiting ones whose packages came on the receipts it wrote are linked. Its news: what arrived.
 */
export function prealertMatchingReaction(deps: WebhookEventDeps): PageReaction {
  return async (page, _news, transaction) => {
    await releasePrealertsOfReceipts(deps, page.removed, transaction);
    return { arrivals: await matchArrivedPackages(deps, page.written, transaction) };
  };
}
