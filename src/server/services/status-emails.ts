/**
 * Status e-mails: after a sync that changed statuses, each customer who opted in and sees at least one
 * changed receipt gets one digest for that sync, in their language, through the outbox. Each carries
 * a signed one-click unsubscribe link (RFC 8058) that needs no sign-in.
 */
import { QueryTypes } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import { baseLocale, isLocale } from '~/shared/locale';
import { statusLabel } from '~/shared/format';
import { config } from '../config';
import { sequelize } from '../db';
import { User } from '../db/models';
import { deriveKey, signValue, verifySignedValue } from '../encryption';
import { inLocale } from '../http/locale';
import { loadAppSecret } from '../secrets';
import { enqueueMessages, type OutboxEntry } from './outbox';
import type { StatusChange } from './receipt-history';

const unsubscribeKey = () => deriveKey(loadAppSecret(), 'status-email-unsubscribe');

/** The link in every status e-mail that turns them off: the user's id, signed. */
export function unsubscribeUrl(userId: number): string {
  return new URL(`/email/unsubscribe/${signValue(unsubscribeKey(), `u${userId}`)}`, config.publicUrl).href;
}

/** Turns status e-mails off for the user a link was made for; false when the link is not one of ours. */
export async function unsubscribeByToken(token: string): Promise<boolean> {
  const value = token.length <= 200 ? verifySignedValue(unsubscribeKey(), token) : null;
  const userId = value && /^u\d{1,15}$/.test(value) ? Number(value.slice(1)) : null;
  if (userId === null) return false;
  await User.update({ statusEmails: false }, { where: { id: userId } });
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

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);

const receiptUrl = (receiptId: number) => new URL(`/receipts/${receiptId}`, config.publicUrl).href;

/** One digest in the reader's language: plain text, and a small HTML part saying the same. */
export function composeDigest(recipient: { name: string; userId: number }, lines: DigestLine[]): Omit<OutboxEntry, 'to'> {
  const unsubscribe = unsubscribeUrl(recipient.userId);
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
function recipientsFor(consigneeIds: number[]): Promise<Recipient[]> {
  return sequelize.query<Recipient>(
    `SELECT u."id", u."email", u."fullName", u."username", u."locale", a."consigneeId"
       FROM "users" u JOIN "consignee_assignments" a ON a."userId" = u."id"
      WHERE u."role" = 'viewer' AND u."isActive" = :yes AND u."statusEmails" = :yes AND u."email" IS NOT NULL
        AND a."consigneeId" IN (:consigneeIds)`,
    { type: QueryTypes.SELECT, replacements: { consigneeIds, yes: true } },
  );
}

/** Queues one digest per customer for the status changes of one sync (first mirrorings aside). */
export async function announceStatusChanges(changes: StatusChange[]): Promise<number> {
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
  for (const row of await recipientsFor([...linesByConsignee.keys()])) {
    const entry = recipients.get(row.id) ?? { recipient: row, lines: [] };
    entry.lines.push(...(linesByConsignee.get(row.consigneeId) ?? []));
    recipients.set(row.id, entry);
  }
  const messages = [...recipients.values()].map(({ recipient, lines }) =>
    inLocale(isLocale(recipient.locale) ? recipient.locale : baseLocale, () => ({
      ...composeDigest({ name: recipient.fullName || recipient.username, userId: recipient.id }, lines.sort((a, b) => a.number.localeCompare(b.number))),
      to: recipient.email,
    })),
  );
  await enqueueMessages(messages);
  return messages.length;
}
