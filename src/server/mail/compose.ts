/** What every e-mail of the portal shares: links that open in the e-mail's language, and safe HTML. */
import { getLocale } from '~/paraglide/runtime.js';
import { LOCALE_LINK_PARAMETER } from '~/shared/locale';

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );

/** An address of the portal for a link in an e-mail: it opens in the language the e-mail is written in. */
export function linkInEmail(publicUrl: URL, path: string): string {
  const url = new URL(path, publicUrl);
  url.searchParams.set(LOCALE_LINK_PARAMETER, getLocale());
  return url.href;
}

export interface LinkEmail {
  subject: string;
  greeting: string;
  /** What happened and what the link is for. */
  intro: string;
  linkText: string;
  url: string;
  /** How long the link works, and what to do if the mail was not expected. */
  note: string;
}

/** An e-mail whose point is one link: plain text, and a small HTML part saying the same. */
export function composeLinkEmail(mail: LinkEmail): { subject: string; text: string; html: string } {
  const text = [mail.greeting, '', mail.intro, '', mail.url, '', mail.note].join('\n');
  const html = [
    `<p>${escapeHtml(mail.greeting)}</p>`,
    `<p>${escapeHtml(mail.intro)}</p>`,
    `<p><a href="${escapeHtml(mail.url)}">${escapeHtml(mail.linkText)}</a></p>`,
    `<p style="color:#666;font-size:12px">${escapeHtml(mail.note)}</p>`,
  ].join('\n');
  return { subject: mail.subject, text, html };
}

export interface NoticeEmail {
  subject: string;
  greeting: string;
  /** What happened, a paragraph each. */
  paragraphs: string[];
  /** What it touched, one line each (the API tokens revoked); none leaves the list out. */
  items?: string[];
  /** What to do if it was not expected. */
  note: string;
}

/** An e-mail that tells of a change to the account and holds no link: plain text, and HTML saying the same. */
export function composeNoticeEmail(mail: NoticeEmail): {
  subject: string;
  text: string;
  html: string;
} {
  const items = mail.items ?? [];
  const text = [
    mail.greeting,
    '',
    ...mail.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...items.map((item) => `- ${item}`),
    ...(items.length ? [''] : []),
    mail.note,
  ].join('\n');
  const html = [
    `<p>${escapeHtml(mail.greeting)}</p>`,
    ...mail.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ...(items.length
      ? [`<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`]
      : []),
    `<p style="color:#666;font-size:12px">${escapeHtml(mail.note)}</p>`,
  ].join('\n');
  return { subject: mail.subject, text, html };
}
