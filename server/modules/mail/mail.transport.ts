import nodemailer from 'nodemailer';

type OutgoingMail = { from: string; to: string; subject: string; text: string; html?: string };

/** One SMTP connection setup per delivery run; closed by the caller. */
export type MailTransport = { send: (mail: OutgoingMail) => Promise<void>; close: () => void };

const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** SMTP over `smtp://user:pass@host:port` (STARTTLS when offered) or `smtps://` (TLS from the start). */
export function smtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl, TIMEOUTS);

  return {
    send: async (mail) => {
      await transporter.sendMail(mail);
    },
    close: () => transporter.close(),
  };
}

/**
 * An error as it may be stored and logged: the SMTP URL's password never appears, and the
 * text is bounded. Servers sometimes echo the credentials they refused.
 */
export function safeErrorText(err: unknown, smtpUrl: string): string {
  let text = err instanceof Error ? err.message : String(err);
  const url = new URL(smtpUrl);
  for (const secret of [url.password, decodeURIComponent(url.password)]) {
    if (secret) text = text.split(secret).join('[redacted]');
  }
  text = text.split(smtpUrl).join('[smtp-url]');

  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}
