import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '@/server/db/transaction';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { deliverDueMail, enqueueMail, MAX_ATTEMPTS, type MailDraft } from './mail.service';
import { mailMessages } from './mail.table';
import { startSmtpSink, type SmtpSink } from './smtp-sink.test-kit';

const SECRET_LINK = 'https://console.test/set-password?token=very-secret-token-value';

function capturingLogger() {
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });

  return { log, lines };
}

function draft(overrides: Partial<MailDraft> = {}): MailDraft {
  return {
    customerId: null,
    to: 'someone@example.com',
    subject: 'Hello',
    text: `Your link: ${SECRET_LINK}`,
    kind: 'USER_PASSWORD_SETUP',
    ...overrides,
  };
}

async function rowOf(t: TestContext, id: string) {
  const [row] = await t.db.select().from(mailMessages).where(eq(mailMessages.id, id));

  return row!;
}

describe('without SMTP_URL', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('keeps messages PENDING and warns once that mail is not configured, never logging bodies', async () => {
    const id = await enqueueMail(t.db, draft());
    const { log, lines } = capturingLogger();
    expect(await deliverDueMail({ db: t.db, config: t.config, log })).toEqual({ sent: 0, retried: 0, failed: 0 });
    await deliverDueMail({ db: t.db, config: t.config, log });
    expect(lines.filter((l) => l.includes('mail is not configured'))).toHaveLength(1);
    expect(lines.join('')).not.toContain('very-secret-token-value');
    expect(await rowOf(t, id)).toMatchObject({ status: 'PENDING', attempts: 0, sentAt: null });
  });

  it('enqueues nothing when the enqueueing transaction rolls back', async () => {
    const before = (await t.db.select().from(mailMessages)).length;
    await expect(
      withTransaction(t.db, async (tx) => {
        await enqueueMail(tx, draft({ to: 'rolled-back@example.com' }));
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(await t.db.select().from(mailMessages)).toHaveLength(before);
  });
});

describe('with a real SMTP server', () => {
  let t: TestContext;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink({ credentials: { user: 'mailer', pass: 'smtp-pass-w0rd' } });
    t = await createTestContext({ SMTP_URL: sink.url, MAIL_FROM: 'Signage Test <no-reply@signage.test>' });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('authenticates, sends due messages from MAIL_FROM and marks them SENT', async () => {
    const id = await enqueueMail(t.db, draft({ to: 'first@example.com', subject: 'First', html: '<p>First</p>' }));
    const { log, lines } = capturingLogger();
    const now = new Date();
    expect(await deliverDueMail({ db: t.db, config: t.config, log }, now)).toEqual({ sent: 1, retried: 0, failed: 0 });
    const mail = sink.messages.find((m) => m.to.includes('first@example.com'))!;
    expect(mail).toMatchObject({ from: 'no-reply@signage.test', subject: 'First' });
    expect(mail.text).toContain(SECRET_LINK);
    expect(mail.raw).toContain('text/html');
    expect(await rowOf(t, id)).toMatchObject({ status: 'SENT', attempts: 1, sentAt: now, lastError: null });
    expect(lines.join('')).not.toContain('very-secret-token-value');
    expect(lines.join('')).not.toContain('smtp-pass-w0rd');

    // Sent messages are not sent again.
    expect(await deliverDueMail({ db: t.db, config: t.config, log })).toEqual({ sent: 0, retried: 0, failed: 0 });
  });

  it('leaves messages that are not due yet', async () => {
    const id = await enqueueMail(t.db, draft({ to: 'later@example.com' }));
    await t.db
      .update(mailMessages)
      .set({ nextAttemptAt: new Date(Date.now() + 60_000) })
      .where(eq(mailMessages.id, id));
    await deliverDueMail({ db: t.db, config: t.config, log: capturingLogger().log });
    expect(await rowOf(t, id)).toMatchObject({ status: 'PENDING', attempts: 0 });
    await t.db.delete(mailMessages).where(eq(mailMessages.id, id));
  });

  it('sends each message once when two deliveries run at the same time', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => enqueueMail(t.db, draft({ to: `parallel-${i}@example.com` }))));
    const deps = { db: t.db, config: t.config, log: capturingLogger().log };
    const [a, b] = await Promise.all([deliverDueMail(deps), deliverDueMail(deps)]);
    expect(a.sent + b.sent).toBe(6);
    for (let i = 0; i < 6; i++) expect(sink.messages.filter((m) => m.to.includes(`parallel-${i}@example.com`))).toHaveLength(1);
    for (const id of ids) expect((await rowOf(t, id)).status).toBe('SENT');
  });
});

describe('when the SMTP server refuses', () => {
  let t: TestContext;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink({ credentials: { user: 'mailer', pass: 'right-password' } });
    // The configured password is wrong: every attempt fails at AUTH.
    t = await createTestContext({ SMTP_URL: sink.url.replace('right-password', 'wrong-pass-s3cret') });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('schedules retries with growing waits, then marks the message FAILED; no secret in the error or the log', async () => {
    const id = await enqueueMail(t.db, draft({ to: 'unlucky@example.com' }));
    const { log, lines } = capturingLogger();
    let now = new Date();
    expect(await deliverDueMail({ db: t.db, config: t.config, log }, now)).toEqual({ sent: 0, retried: 1, failed: 0 });
    let row = await rowOf(t, id);
    expect(row).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect(row.nextAttemptAt.getTime() - now.getTime()).toBe(60_000);
    expect(row.lastError).toMatch(/auth|login|credentials|password/i);
    expect(row.lastError).not.toContain('wrong-pass-s3cret');

    // Not due before the wait is over.
    expect(await deliverDueMail({ db: t.db, config: t.config, log }, new Date(now.getTime() + 30_000))).toEqual({
      sent: 0,
      retried: 0,
      failed: 0,
    });

    now = new Date(now.getTime() + 60_000);
    await deliverDueMail({ db: t.db, config: t.config, log }, now);
    row = await rowOf(t, id);
    expect(row).toMatchObject({ status: 'PENDING', attempts: 2 });
    expect(row.nextAttemptAt.getTime() - now.getTime()).toBe(120_000);

    for (let attempt = 3; attempt <= MAX_ATTEMPTS; attempt++) {
      now = new Date(row.nextAttemptAt.getTime());
      await deliverDueMail({ db: t.db, config: t.config, log }, now);
      row = await rowOf(t, id);
    }
    expect(row).toMatchObject({ status: 'FAILED', attempts: MAX_ATTEMPTS, sentAt: null });
    // FAILED is final.
    expect(await deliverDueMail({ db: t.db, config: t.config, log }, new Date(now.getTime() + 86_400_000))).toEqual({
      sent: 0,
      retried: 0,
      failed: 0,
    });
    expect(sink.messages).toHaveLength(0);
    const logged = lines.join('');
    expect(logged).toContain('mail delivery failed');
    expect(logged).not.toContain('wrong-pass-s3cret');
    expect(logged).not.toContain('very-secret-token-value');
  });
});

describe('GET /api/mail/outbox', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('lists the queued messages, newest first, to a super admin only, never their bodies', async () => {
    const customer = await t.factories.customer();
    await enqueueMail(t.db, draft({ to: 'first@example.com', customerId: customer.id }));
    await enqueueMail(t.db, draft({ to: 'second@example.com', subject: 'Set up your password', customerId: customer.id }));
    const admin = await t.actor('ADMIN');
    const res = await t.request('GET', '/api/mail/outbox?size=10', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.content.slice(0, 2)).toEqual([
      expect.objectContaining({
        to: 'second@example.com',
        subject: 'Set up your password',
        status: 'PENDING',
        kind: 'USER_PASSWORD_SETUP',
        customerId: customer.id,
        createdAt: expect.any(String),
      }),
      expect.objectContaining({ to: 'first@example.com' }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain('very-secret-token-value');
    const owner = await t.actor('OWNER', { customerId: customer.id });
    expect((await t.request('GET', '/api/mail/outbox', { token: owner.token })).status).toBe(403);
  });
});
