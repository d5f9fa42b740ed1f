import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as an SMTP server received it, with the text part decoded (quoted-printable). */
type ReceivedMail = { from: string; to: string[]; subject: string; text: string; raw: string };

export type SmtpSink = { url: string; messages: ReceivedMail[]; close: () => Promise<void> };

/**
 * A real SMTP server in the test process on a random port (tests only). With `credentials`, AUTH
 * PLAIN/LOGIN is required and checked; `rejectRecipients` answers every RCPT TO with a 550.
 */
export async function startSmtpSink(
  options: { credentials?: { user: string; pass: string }; rejectRecipients?: boolean } = {},
): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: options.credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.credentials,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      const ok = auth.username === options.credentials?.user && auth.password === options.credentials?.pass;
      callback(ok ? null : new Error('Invalid username or password'), ok ? { user: auth.username } : undefined);
    },
    onRcptTo(_address, _session, callback) {
      callback(options.rejectRecipients ? Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }) : null);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1]?.replace(/\r\n[ \t]/g, ' ') ?? '',
          text: textPart(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const auth = options.credentials
    ? `${encodeURIComponent(options.credentials.user)}:${encodeURIComponent(options.credentials.pass)}@`
    : '';

  return {
    url: `smtp://${auth}127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The text/plain part (or the whole body), quoted-printable decoded. */
function textPart(raw: string): string {
  const part =
    /Content-Type: text\/plain[^]*?\r\n\r\n([^]*?)(?:\r\n--|$)/i.exec(raw)?.[1] ?? raw.split('\r\n\r\n').slice(1).join('\r\n\r\n');

  return part.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
