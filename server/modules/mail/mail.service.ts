import { v7 as uuidv7 } from 'uuid';
import type { Logger } from 'pino';
import type { Config } from '@/server/config';
import type { Database, Executor } from '@/server/db/client';
import { findPage } from '@/server/query';
import * as q from './mail.queries';
import { mailMessageResource } from './mail.resource';
import type { OutboxMessage } from './mail.schemas';
import type { MailKind } from './mail.table';
import { safeErrorText, smtpTransport, type MailTransport } from './mail.transport';

export type MailDraft = {
  /** The tenant the message concerns (its deletion removes the message); null for service mail. */
  customerId: number | null;
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind: MailKind;
};

/** Attempts before a message is FAILED for good; the waits between them double from one minute. */
export const MAX_ATTEMPTS = 8;
const FIRST_RETRY_MS = 60_000;
const MAX_RETRY_MS = 6 * 60 * 60_000;
/** How long a claimed message belongs to its sender before another may try it. */
const LEASE_MS = 10 * 60_000;
const BATCH = 50;

/**
 * Puts a message in the outbox. Call it with the sender's transaction: a rolled-back write sends
 * nothing, a committed one is delivered by the `mail.deliver` job (and sooner through nudgeMailDelivery).
 */
export async function enqueueMail(tx: Executor, draft: MailDraft): Promise<string> {
  const id = uuidv7();
  await q.insertMessage(tx, {
    id,
    customerId: draft.customerId,
    to: draft.to,
    subject: draft.subject,
    textBody: draft.text,
    htmlBody: draft.html ?? null,
    kind: draft.kind,
  });

  return id;
}

export type DeliveryDeps = { db: Database; config: Config; log: Logger; transport?: (smtpUrl: string) => MailTransport };
export type DeliveryResult = { sent: number; retried: number; failed: number };

let warnedUnconfigured = false;

/** Delay before attempt `attempts + 1`: 1, 2, 4 … minutes, at most six hours. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/**
 * Sends every due PENDING message (`mail.deliver`). Without SMTP_URL nothing is claimed: messages wait
 * until mail is configured. Logs carry ids and kinds only, never bodies (they hold secret links).
 */
export async function deliverDueMail(deps: DeliveryDeps, now = new Date()): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, retried: 0, failed: 0 };
  const smtpUrl = deps.config.mail.smtpUrl;
  if (!smtpUrl) {
    if (!warnedUnconfigured) {
      warnedUnconfigured = true;
      deps.log.warn('mail is not configured (SMTP_URL): messages wait in the outbox');
    }

    return result;
  }
  let transport: MailTransport | undefined;
  try {
    for (;;) {
      const batch = await q.claimDueMessages(deps.db, { now, leaseUntil: new Date(now.getTime() + LEASE_MS), limit: BATCH });
      if (batch.length === 0) break;
      transport ??= (deps.transport ?? smtpTransport)(smtpUrl);
      for (const message of batch) {
        try {
          await transport.send({
            from: deps.config.mail.from,
            to: message.to,
            subject: message.subject,
            text: message.textBody,
            html: message.htmlBody ?? undefined,
          });
          await q.markSent(deps.db, message.id, now);
          result.sent++;
        } catch (err) {
          const error = safeErrorText(err, smtpUrl);
          const final = message.attempts >= MAX_ATTEMPTS;
          await q.markAttemptFailed(deps.db, message.id, {
            error,
            retryAt: final ? undefined : new Date(now.getTime() + retryDelayMs(message.attempts)),
          });
          if (final) result.failed++;
          else result.retried++;
          deps.log.warn({ mailId: message.id, kind: message.kind, attempts: message.attempts, final, error }, 'mail delivery failed');
        }
      }
      if (batch.length < BATCH) break;
    }
  } finally {
    transport?.close();
  }
  if (result.sent + result.retried + result.failed > 0) deps.log.info(result, 'mail delivered');

  return result;
}

type Nudge = () => void;
let nudge: Nudge | undefined;

/**
 * Asks this process's delivery to run now instead of at the next minute. A no-op where no job runs
 * (tests, JOBS_ENABLED=false). Call it after the enqueueing transaction committed.
 */
export function nudgeMailDelivery(): void {
  nudge?.();
}

/** Installs the nudge for a process that runs jobs; runs never overlap, and one more follows a busy run. */
export function installMailNudge(deps: DeliveryDeps): void {
  let running: Promise<void> | undefined;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;

      return;
    }
    running = deliverDueMail(deps)
      .then(
        () => undefined,
        (err: unknown) => deps.log.error({ err }, 'mail delivery failed'),
      )
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };
  nudge = run;
}

/** GET /api/mail/status: whether mail leaves the outbox (anyone who manages users may know). */
export function mailStatus(config: Config): { smtpConfigured: boolean } {
  return { smtpConfigured: Boolean(config.mail.smtpUrl) };
}

/** GET /api/mail/outbox (super admin): every tenant's messages, newest first (UUIDv7 ids are time-ordered). */
export async function listOutbox(db: Executor, input: { page?: string; size?: string; search?: string }) {
  return findPage<OutboxMessage>(db, {
    resource: mailMessageResource,
    search: input.search,
    sort: 'id,desc',
    page: input.page,
    size: input.size,
  });
}
