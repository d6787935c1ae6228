// E-mail through nodemailer: SMTP when SMTP_URL is configured, otherwise a log-only transport
// (nodemailer's JSON transport builds the message, a log line records that it would have gone).
import type { Transporter } from 'nodemailer';
import type { Config } from '../../config';
import type { Logger } from '../../logger';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  template: string;
  /** Message-ID header (the same on a resend of one e-mail); nodemailer makes one when unset. */
  messageId?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** One transport for the app, built at the first e-mail (SMTP connections are reused): nodemailer's
 * 1.5 MB of heap stays out of an instance that sends none (config.ts has checked SMTP_URL). */
export function createMailer(config: Config, logger: Logger): Mailer {
  let transport: Transporter | undefined;
  const open = (): Transporter => {
    const nodemailer = require('nodemailer') as typeof import('nodemailer');
    return config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : nodemailer.createTransport({ jsonTransport: true });
  };
  return {
    async send(mail) {
      transport ??= open();
      const info = await transport.sendMail({
        from: config.mailFrom,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.messageId ? { messageId: mail.messageId } : {}),
        // The template name travels with the message for a provider that renders templates.
        headers: { 'X-Email-Template': mail.template },
      });
      if (!config.smtpUrl) {
        // Log-only: the recipient's domain, never the whole address.
        logger.info(
          { messageId: info.messageId, toDomain: mail.to.split('@').pop(), subject: mail.subject, template: mail.template },
          'e-mail (log-only transport)',
        );
      }
    },
    close: () => transport?.close(),
  };
}

/** `{{ key }}` placeholders filled from vars; unknown placeholders stay as written. */
export function fillPlaceholders(text: string, vars: Record<string, string>): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (whole, key: string) => (Object.hasOwn(vars, key) ? vars[key] : whole));
}

declare module '../../context' {
  interface ModuleServices {
    mailer: Mailer;
  }
}
