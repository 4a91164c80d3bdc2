import nodemailer from 'nodemailer';
import type { Mailer } from './mailer.ts';

/** Sends through an SMTP server (SMTP_URL), from MAIL_FROM. */
export function createSmtpMailer(options: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.url);
  return {
    async send(mail) {
      await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
