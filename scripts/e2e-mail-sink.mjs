// An SMTP server for the e2e run: the service under test sends its mail here (SMTP_URL), and each
// received message is written as JSON ({to, subject, text}) into a directory the tests read (E2E_MAIL_DIR).
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

function decodeText(raw) {
  const part =
    /Content-Type: text\/plain[^]*?\r\n\r\n([^]*?)(?:\r\n--|$)/i.exec(raw)?.[1] ?? raw.split('\r\n\r\n').slice(1).join('\r\n\r\n');

  return part.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

export async function startMailSink(dir) {
  let seq = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1]?.replace(/\r\n[ \t]/g, ' ') ?? '';
        const to = session.envelope.rcptTo.map((r) => r.address);
        const name = `${Date.now()}-${String(seq++).padStart(6, '0')}-${randomBytes(3).toString('hex')}.json`;
        writeFileSync(join(dir, name), JSON.stringify({ to, subject, text: decodeText(raw) }));
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

  return { url: `smtp://127.0.0.1:${server.server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}
