import { z } from '@hono/zod-openapi';
import { intId } from '@/server/http/wire.schemas';
import { mailKinds, mailStatuses } from './mail.table';

export const MailStatusSchema = z
  .object({
    smtpConfigured: z
      .boolean()
      .openapi({ description: 'An SMTP server is configured (`SMTP_URL`); without one, messages wait in the outbox' }),
  })
  .openapi('MailStatus');

export const OutboxMessageSchema = z
  .object({
    id: z.string(),
    customerId: intId.optional().openapi({ description: 'The tenant the message is about' }),
    to: z.string(),
    subject: z.string(),
    kind: z.enum(mailKinds),
    status: z
      .enum(mailStatuses)
      .openapi({ description: 'PENDING: waiting (for the next attempt, or for an SMTP server); SENT; FAILED: given up after 8 attempts' }),
    attempts: z.number().int(),
    lastError: z.string().optional(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    sentAt: z.string().optional().openapi({ format: 'date-time' }),
  })
  .openapi('OutboxMessage', { description: 'A message of the outbox, without its body (bodies hold links with secrets)' });

export type MailStatus = z.infer<typeof MailStatusSchema>;
export type OutboxMessage = z.infer<typeof OutboxMessageSchema>;
