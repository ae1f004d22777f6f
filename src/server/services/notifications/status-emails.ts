/**
 * Status e-mails: after a sync that changed statuses, each customer who opted in and sees at least one
 * changed receipt gets one digest for that sync, in their language, through the outbox. The digest also
 * says which of their pre-alerted packages arrived at the Miami warehouse. Each carries a signed
 * one-click unsubscribe link that needs no sign-in.
 */
import { QueryTypes } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import { baseLocale, isLocale } from '~/shared/locale';
import { statusLabel } from '~/shared/format';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { signValue, verifySignedValue } from '../../encryption';
import { inLocale } from '../../locale';
import { escapeHtml, linkInEmail as portalLinkInEmail } from '../../mail/compose';
import type { Mailer } from '../../mail/mailer';
import type { AppKeys } from '../../secrets';
import { enqueueMessages, type Outbox, type OutboxEntry } from '../outbox';
import type { ArrivalLine, NewsReaction, StatusChange } from '../sync-reactions';

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

const linkInEmail = ({ config }: DigestDeps, path: string) =>
  portalLinkInEmail(config.publicUrl, path);

/** The link in every status e-mail that turns them off: the user's id, signed. */
export function unsubscribeUrl(deps: DigestDeps, userId: number): string {
  return linkInEmail(
    deps,
    `/email/unsubscribe/${signValue(deps.keys.statusEmailUnsubscribe, `u${userId}`)}`,
  );
}

/** Turns status e-mails off for the user a link was made for; false when the link is not one of ours. */
export async function unsubscribeByToken(
  { db, keys }: { db: Database; keys: Pick<AppKeys, 'statusEmailUnsubscribe'> },
  token: string,
): Promise<boolean> {
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

/** A section of the digest: its introduction and its lines, each with the receipt it links to. */
interface DigestSection {
  intro: string;
  lines: Array<{ text: string; receiptId: number }>;
}

/** One digest in the reader's language: plain text, and a small HTML part saying the same. */
export function composeDigest(
  deps: DigestDeps,
  recipient: { name: string; userId: number },
  lines: DigestLine[],
  arrivals: ArrivalLine[] = [],
): Omit<OutboxEntry, 'to'> {
  const { config } = deps;
  const receiptUrl = (receiptId: number) => linkInEmail(deps, `/receipts/${receiptId}`);
  const unsubscribe = unsubscribeUrl(deps, recipient.userId);
  const sections: DigestSection[] = [
    {
      intro: m.email_status_intro(),
      lines: lines.map((line) => ({
        text: m.email_status_line({
          number: line.number,
          from: statusLabel(line.from),
          to: statusLabel(line.to),
        }),
        receiptId: line.receiptId,
      })),
    },
    {
      intro: m.prealert_email_arrived_intro(),
      lines: arrivals.map((arrival) => ({
        text: m.prealert_email_arrived_line({
          trackingNumber: arrival.trackingNumber,
          shipper: arrival.shipper,
          number: arrival.number,
        }),
        receiptId: arrival.receiptId,
      })),
    },
  ].filter((section) => section.lines.length > 0);
  const text = [
    m.email_greeting({ name: recipient.name }),
    ...sections.flatMap((section) => [
      '',
      section.intro,
      '',
      ...section.lines.flatMap((line) => [line.text, `  ${receiptUrl(line.receiptId)}`]),
    ]),
    '',
    m.email_footer_why({ product: config.productName }),
    m.email_footer_unsubscribe({ url: unsubscribe }),
  ].join('\n');
  const html = [
    `<p>${escapeHtml(m.email_greeting({ name: recipient.name }))}</p>`,
    ...sections.flatMap((section) => [
      `<p>${escapeHtml(section.intro)}</p>`,
      '<ul>',
      ...section.lines.map(
        (line) =>
          `<li><a href="${escapeHtml(receiptUrl(line.receiptId))}">${escapeHtml(line.text)}</a></li>`,
      ),
      '</ul>',
    ]),
    `<p style="color:#666;font-size:12px">${escapeHtml(m.email_footer_why({ product: config.productName }))} ` +
      `<a href="${escapeHtml(unsubscribe)}">${escapeHtml(m.email_unsubscribe_link())}</a></p>`,
  ].join('\n');
  // Only arrivals to tell: the subject says so; any status change makes it the usual digest.
  const subject =
    lines.length === 0
      ? m.prealert_email_arrived_subject({ product: config.productName })
      : m.email_status_subject({ product: config.productName });
  return { userId: recipient.userId, subject, text, html, unsubscribeUrl: unsubscribe };
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

/**
 * Queues one digest per customer for the status changes of one sync (first mirrorings aside) and the
 * pre-alerted packages it found arrived.
 */
export async function announceStatusChanges(
  deps: StatusEmailDeps,
  changes: StatusChange[],
  arrivals: ArrivalLine[] = [],
): Promise<number> {
  const moved = changes.filter(
    (change): change is StatusChange & { from: string } => change.from !== null,
  );
  if (moved.length === 0 && arrivals.length === 0) return 0;
  const byConsignee = new Map<number, { lines: DigestLine[]; arrivals: ArrivalLine[] }>();
  const newsOf = (consigneeId: number) => {
    const news = byConsignee.get(consigneeId) ?? { lines: [], arrivals: [] };
    byConsignee.set(consigneeId, news);
    return news;
  };
  for (const change of moved) {
    if (change.consigneeId !== null)
      newsOf(change.consigneeId).lines.push({
        receiptId: change.receiptId,
        number: change.number,
        from: change.from,
        to: change.to,
      });
  }
  for (const arrival of arrivals) newsOf(arrival.consigneeId).arrivals.push(arrival);
  if (byConsignee.size === 0) return 0;
  const recipients = new Map<
    number,
    { recipient: Recipient; lines: DigestLine[]; arrivals: ArrivalLine[] }
  >();
  for (const row of await recipientsFor(deps.db, [...byConsignee.keys()])) {
    const entry = recipients.get(row.id) ?? { recipient: row, lines: [], arrivals: [] };
    const news = byConsignee.get(row.consigneeId);
    entry.lines.push(...(news?.lines ?? []));
    entry.arrivals.push(...(news?.arrivals ?? []));
    recipients.set(row.id, entry);
  }
  const byNumber = (a: { number: string }, b: { number: string }) =>
    a.number.localeCompare(b.number);
  const messages = [...recipients.values()].map(({ recipient, lines, arrivals: arrived }) =>
    inLocale(isLocale(recipient.locale) ? recipient.locale : baseLocale, () => ({
      ...composeDigest(
        deps,
        { name: recipient.fullName || recipient.username, userId: recipient.id },
        lines.sort(byNumber),
        arrived.sort(byNumber),
      ),
      to: recipient.email,
    })),
  );
  await enqueueMessages(deps, messages);
  return messages.length;
}

/** The reaction after a sync: its digests, when the portal sends e-mail. */
export function statusDigestReaction(
  deps: StatusEmailDeps & { mailer: Pick<Mailer, 'enabled'> },
): NewsReaction {
  return async (news) => {
    if (deps.mailer.enabled) await announceStatusChanges(deps, news.statusChanges, news.arrivals);
  };
}
