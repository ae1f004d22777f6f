/**
 * Telling the provider of pre-alerts, when it offers them: new, changed, withdrawn and linked
 * pre-alerts each write an outbox job (forwardJob) in the transaction that changed them, and the
 * outbox's handler (createPrealertForwarder, which the composition root registers) sends the
 * pre-alert's state of the moment, so an outage of the provider loses nothing.
 */
import * as z from 'zod/mini';
import { DAY_MS } from '~/shared/constants';
import type { Database } from '../../db/database';
import type { Logger } from '../../logger';
import {
  ProviderRefusal,
  type ProviderClient,
  type ProviderPrealert,
} from '../../provider/contract';
import { JobRefused, type JobHandler } from '../outbox';
import { isoTime, readPrealertRows, type PrealertRow } from './rows';

/** The outbox's kind for telling the provider of a pre-alert. */
export const PREALERT_FORWARD_JOB = 'provider.prealert';
/**
 * Telling the provider is retried for a week. A pre-alert is worth telling until its package comes,
 * usually within days: an outage over a long weekend, or a connection that waits for an admin to renew
 * it, must not lose one. Past a week the package has mostly come, and the admin's stale list shows
 * what is still expected.
 */
const FORWARD_GIVE_UP_MS = 7 * DAY_MS;
const FORWARD_FIRST_RETRY_MS = 60_000;

/**
 * The outbox job that tells the provider a pre-alert's state as it is when the job runs. A pre-alert's
 * jobs run one at a time, in the order written: an edit's save still under way when a withdrawal's job
 * runs could otherwise reach the provider after the withdrawal. Every transaction that writes one has
 * written (so locked) the pre-alert's row first, so the jobs' order is their transactions' order.
 */
export const forwardJob = (prealertId: number) => ({
  kind: PREALERT_FORWARD_JOB,
  payload: { prealertId },
  orderingKey: `prealert:${prealertId}`,
});

const forwardPayloadSchema = z.object({ prealertId: z.number().check(z.int(), z.positive()) });

export interface PrealertForwardingDeps {
  db: Database;
  provider: ProviderClient;
  log: Logger;
}

/** A pre-alert as the provider is told of it. */
function toProviderPrealert(row: PrealertRow): ProviderPrealert {
  return {
    id: Number(row.id),
    consigneeId: Number(row.consigneeId),
    carrier: row.carrier,
    trackingNumber: row.trackingNumber,
    shipper: row.shipper,
    description: row.description,
    declaredValue: { amount: (Number(row.declaredValueCents) / 100).toFixed(2), currency: 'USD' },
    hasInvoice: row.invoiceFileName !== null,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
  };
}

/**
 * Tells the provider what it should know of a pre-alert now, when it offers pre-alerts: a waiting one
 * is saved (an upsert by the portal's id, so a retry or an edit is harmless), and one withdrawn or
 * already arrived is withdrawn, since nothing waits for it any more. Each job sends the state of the
 * moment; a pre-alert's jobs run one after another (their ordering key), so the last word sent is the
 * state after its last change.
 */
export async function forwardPrealert(
  deps: PrealertForwardingDeps,
  payload: unknown,
): Promise<void> {
  const parsed = forwardPayloadSchema.safeParse(payload);
  if (!parsed.success) throw new JobRefused('The job names no pre-alert');
  const { prealertId } = parsed.data;
  try {
    if (!(await deps.provider.readCapabilities()).prealerts) return;
    const [row] = await readPrealertRows(deps.db, 'p."id" = :prealertId', { prealertId });
    if (row && row.receiptId === null) await deps.provider.savePrealert(toProviderPrealert(row));
    else await deps.provider.withdrawPrealert(prealertId);
  } catch (error) {
    // A refusal of the request as it is stays a refusal however often it is sent.
    if (error instanceof ProviderRefusal) throw new JobRefused(error.message);
    throw error;
  }
}

/** The outbox's handler of PREALERT_FORWARD_JOB, which the composition root registers. */
export function createPrealertForwarder(deps: PrealertForwardingDeps): JobHandler {
  return {
    run: (payload) => forwardPrealert(deps, payload),
    firstRetryMs: FORWARD_FIRST_RETRY_MS,
    giveUpAfterMs: FORWARD_GIVE_UP_MS,
    async gaveUp(payload, job, error) {
      deps.log.error(
        { component: 'prealerts', jobId: job.id, attempts: job.attempts, payload, error },
        'A pre-alert could not be told to the provider; given up (the admin sees it among the ' +
          'stale pre-alerts if its package does not come)',
      );
    },
  };
}
