/** The SMTP connection of SMTP_URL (nodemailer); without it the portal sends no e-mail. */
// Type only: nodemailer is loaded by the first e-mail sent, not by every start.
import type { Transporter } from 'nodemailer';
import type { Config } from '../config';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The List-Unsubscribe header, with its one-click POST (List-Unsubscribe-Post). */
  unsubscribeUrl: string | null;
}

export class Mailer {
  readonly enabled: boolean;
  private transporter: Transporter | undefined;

  constructor(private readonly config: Pick<Config, 'smtpUrl' | 'mailFrom'>) {
    this.enabled = config.smtpUrl !== null;
  }

  async send(mail: OutgoingMail): Promise<void> {
    const { smtpUrl, mailFrom } = this.config;
    if (!smtpUrl) throw new Error('SMTP_URL is not set');
    const { default: nodemailer } = await import('nodemailer');
    // Short timeouts: a server that does not answer delays the outbox, it must not hold it for minutes.
    this.transporter ??= nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    await this.transporter.sendMail({
      from: mailFrom,
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

  /** Closes the pooled connection, if one was opened. */
  close(): void {
    this.transporter?.close();
  }
}
