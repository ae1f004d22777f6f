/** The SMTP connection of SMTP_URL (nodemailer); without it the portal sends no e-mail. */
import nodemailer, { type Transporter } from 'nodemailer';
import { config } from '../config';

export const mailEnabled = config.smtpUrl !== null;

let transporter: Transporter | undefined;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** RFC 2369 List-Unsubscribe, with RFC 8058's one-click POST. */
  unsubscribeUrl: string | null;
}

export async function sendMail(mail: OutgoingMail): Promise<void> {
  if (!config.smtpUrl) throw new Error('SMTP_URL is not set');
  // Short timeouts: a server that does not answer delays the outbox, it must not hold it for minutes.
  transporter ??= nodemailer.createTransport({ url: config.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  await transporter.sendMail({
    from: config.mailFrom,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    ...(mail.unsubscribeUrl && {
      list: { unsubscribe: mail.unsubscribeUrl },
      headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    }),
  });
}
