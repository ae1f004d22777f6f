/**
 * Status e-mails: after a sync that changed statuses, each customer who opted in and sees at least one
 * changed receipt gets one digest for that sync, in their language, through the outbox. Each carries
 * a signed one-click unsubscribe link (RFC 8058) that needs no sign-in.
 */
import { QueryTypes } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import { baseLocale, isLocale } from '~/shared/locale';
import { statusLabel } from '~/shared/format';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { signValue, verifySignedValue } from '../encryption';
import { inLocale } from '../locale';
import { escapeHtml, linkInEmail as portalLinkInEmail } from '../mail/compose';
import type { AppKeys } from '../secrets';
import { enqueueMessages, type Outbox, type OutboxEntry } from './outbox';
import type { StatusChange } from './receipt-history';

/** What writing a digest takes: the portal's address and name, and the key that signs its links. */
export interface DigestDeps {
  config: Pick<Config, 'publicUrl' | 'productName'>;
  keys: Pick<AppKeys, 'statusEmailUnsubscribe'>;
}

export interface StatusEmailDeps extends DigestDeps {
  db: Database;
  clock: Clock;
  outbox: Outbox;
}

const linkInEmail = ({ config }: DigestDeps, path: string) => portalLinkInEmail(config.publicUrl, path);

/** The link in every status e-mail that turns them off: the user's id, signed. */
export function unsubscribeUrl(deps: DigestDeps, userId: number): string {
  return linkInEmail(deps, `/email/unsubscribe/${signValue(deps.keys.statusEmailUnsubscribe, `u${userId}`)}`);
}

/** Turns status e-mails off for the user a link was made for; false when the link is not one of ours. */
export async function unsubscribeByToken({ db, keys }: { db: Database; keys: Pick<AppKeys, 'statusEmailUnsubscribe'> }, token: string): Promise<boolean> {
  const value = token.length <= 200 ? verifySignedValue(keys.statusEmailUnsubscribe, token) : null;
  const userId = value && /^u\d{1,15}$/.test(value) ? Number(value.slice(1)) : null;
  if (userId === null) return false;
  await db.models.User.update({ statusEmails: false }, { where: { id: userId } });
  return true;
}

interface Recipient {
  id: number;
  email: string;
  fullName: string | null;
  username: string;
  locale: string | null;
  consigneeId: number;
}

export interface DigestLine {
  receiptId: number;
  number: string;
  from: string;
  to: string;
}

/** One digest in the reader's language: plain text, and a small HTML part saying the same. */
export function composeDigest(deps: DigestDeps, recipient: { name: string; userId: number }, lines: DigestLine[]): Omit<OutboxEntry, 'to'> {
  const { config } = deps;
  const receiptUrl = (receiptId: number) => linkInEmail(deps, `/receipts/${receiptId}`);
  const unsubscribe = unsubscribeUrl(deps, recipient.userId);
  const change = (line: DigestLine) => m.email_status_line({ number: line.number, from: statusLabel(line.from), to: statusLabel(line.to) });
  const text = [
    m.email_greeting({ name: recipient.name }),
    '',
    m.email_status_intro(),
    '',
    ...lines.flatMap((line) => [change(line), `  ${receiptUrl(line.receiptId)}`]),
    '',
    m.email_footer_why({ product: config.productName }),
    m.email_footer_unsubscribe({ url: unsubscribe }),
  ].join('\n');
  const html = [
    `<p>${escapeHtml(m.email_greeting({ name: recipient.name }))}</p>`,
    `<p>${escapeHtml(m.email_status_intro())}</p>`,
    '<ul>',
    ...lines.map((line) => `<li><a href="${escapeHtml(receiptUrl(line.receiptId))}">${escapeHtml(change(line))}</a></li>`),
    '</ul>',
    `<p style="color:#666;font-size:12px">${escapeHtml(m.email_footer_why({ product: config.productName }))} ` +
      `<a href="${escapeHtml(unsubscribe)}">${escapeHtml(m.email_unsubscribe_link())}</a></p>`,
  ].join('\n');
  return { userId: recipient.userId, subject: m.email_status_subject({ product: config.productName }), text, html, unsubscribeUrl: unsubscribe };
}

/** The customers to tell about these consignees' receipts: opted in, active, with an address. */
function recipientsFor(db: Database, consigneeIds: number[]): Promise<Recipient[]> {
  return db.sequelize.query<Recipient>(
    `SELECT u."id", u."email", u."fullName", u."username", u."locale", a."consigneeId"
       FROM "users" u JOIN "consignee_assignments" a ON a."userId" = u."id"
      WHERE u."role" = 'viewer' AND u."isActive" = :yes AND u."statusEmails" = :yes AND u."email" IS NOT NULL
        AND a."consigneeId" IN (:consigneeIds)`,
    { type: QueryTypes.SELECT, replacements: { consigneeIds, yes: true } },
  );
}

/** Queues one digest per customer for the status changes of one sync (first mirrorings aside). */
export async function announceStatusChanges(deps: StatusEmailDeps, changes: StatusChange[]): Promise<number> {
  const moved = changes.filter((change): change is StatusChange & { from: string } => change.from !== null);
  if (moved.length === 0) return 0;
  const linesByConsignee = new Map<number, DigestLine[]>();
  for (const change of moved) {
    if (change.consigneeId === null) continue;
    const lines = linesByConsignee.get(change.consigneeId) ?? [];
    lines.push({ receiptId: change.receiptId, number: change.number, from: change.from, to: change.to });
    linesByConsignee.set(change.consigneeId, lines);
  }
  if (linesByConsignee.size === 0) return 0;
  const recipients = new Map<number, { recipient: Recipient; lines: DigestLine[] }>();
  for (const row of await recipientsFor(deps.db, [...linesByConsignee.keys()])) {
    const entry = recipients.get(row.id) ?? { recipient: row, lines: [] };
    entry.lines.push(...(linesByConsignee.get(row.consigneeId) ?? []));
    recipients.set(row.id, entry);
  }
  const messages = [...recipients.values()].map(({ recipient, lines }) =>
    inLocale(isLocale(recipient.locale) ? recipient.locale : baseLocale, () => ({
      ...composeDigest(
        deps,
        { name: recipient.fullName || recipient.username, userId: recipient.id },
        lines.sort((a, b) => a.number.localeCompare(b.number)),
      ),
      to: recipient.email,
    })),
  );
  await enqueueMessages(deps, messages);
  return messages.length;
}
