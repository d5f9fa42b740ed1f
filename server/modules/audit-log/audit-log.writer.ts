import { eq, sql } from 'drizzle-orm';
import type { Actor, ActorKind } from '@/server/context/actor';
import type { Executor } from '@/server/db/client';
import { customers } from '@/server/tenant/customers.table';
import { auditLog } from './audit-log.table';

/** Who wrote, as the audit row records it (built from the actor by `authorOf`). */
export type AuditAuthor = {
  kind: ActorKind;
  userId?: string;
  email?: string;
  /** A job's or an API key's name. */
  name?: string;
  device?: { id: string; name?: string };
  requestId?: string;
};

export type AuditEntry = {
  action: string;
  entityType: string;
  entityId?: string | number;
  entityName?: string;
  customerId?: number;
  customerName?: string;
  message: string;
  changes?: Record<string, unknown>;
  logLevel?: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  device?: { id: string; name?: string };
  content?: { id: string; name?: string };
  datasource?: { id: string; name?: string };
};

const MAX_MESSAGE = 500;
// Field names whose values never reach the log, however deeply nested.
const SECRET_FIELD = /pass(word)?|secret|token|totp|api_?key|credential|hash/i;

/** Removes secret values from a change set, keeping the fact that they changed. */
function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_FIELD.test(k) ? '[redacted]' : redactSecrets(v)]),
    );
  }

  return value;
}

/**
 * Records one successful write. Call it inside the write's transaction, so the entry
 * exists exactly when the change does (DECISIONS §7).
 */
export async function writeAudit(tx: Executor, author: AuditAuthor, entry: AuditEntry): Promise<void> {
  const message = entry.message.length > MAX_MESSAGE ? `${entry.message.slice(0, MAX_MESSAGE - 1)}…` : entry.message;
  await tx.insert(auditLog).values({
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId === undefined ? null : String(entry.entityId),
    entityName: entry.entityName ?? null,
    customerId: entry.customerId ?? null,
    // Writers that know only the customer's id get its name here, so every entry names its tenant.
    customerName:
      entry.customerName ??
      (entry.customerId === undefined
        ? null
        : sql`(select ${customers.name} from ${customers} where ${eq(customers.id, entry.customerId)})`),
    message,
    changes: entry.changes ? (redactSecrets(entry.changes) as Record<string, unknown>) : null,
    logLevel: entry.logLevel ?? 'INFO',
    actorKind: author.kind,
    actorName: author.name ?? null,
    userId: author.userId ?? null,
    userEmail: author.email ?? null,
    requestId: author.requestId ?? null,
    deviceId: (entry.device ?? author.device)?.id ?? null,
    deviceName: (entry.device ?? author.device)?.name ?? null,
    contentId: entry.content?.id ?? null,
    contentName: entry.content?.name ?? null,
    datasourceId: entry.datasource?.id ?? null,
    datasourceName: entry.datasource?.name ?? null,
  });
}

/** The audit author for whoever acts: a user by id and email, a device by itself, a key or job by name. */
function authorOf(ctx: { actor: Actor; requestId?: string }): AuditAuthor {
  const { actor, requestId } = ctx;
  switch (actor.kind) {
    case 'user':
      return { kind: 'user', userId: actor.userId, email: actor.email, requestId };
    case 'device':
      return { kind: 'device', device: { id: actor.deviceId, name: actor.deviceName }, requestId };
    case 'apiKey':
      return { kind: 'apiKey', name: actor.name, requestId };
    case 'system':
      return { kind: 'system', name: actor.job, requestId };
  }
}

/**
 * Records a change made by whoever acts in `ctx`: the author comes from the actor, and an entry of the
 * actor's own customer is named without a look-up.
 */
export async function auditChange(tx: Executor, ctx: { actor: Actor; requestId?: string }, entry: AuditEntry): Promise<void> {
  const own = ctx.actor.kind !== 'system' && entry.customerId === ctx.actor.customerId ? ctx.actor.customerName : undefined;
  await writeAudit(tx, authorOf(ctx), { ...entry, customerName: entry.customerName ?? own });
}

/** What an entry is about: the entity and its tenant. */
export type AuditSubject = Pick<AuditEntry, 'entityId' | 'entityName' | 'customerId' | 'customerName'>;

/**
 * The audit writer of one entity type, declared once by its module:
 * `const auditTeam = auditOf('team', (team: TeamRow) => ({ entityId: team.id, entityName: team.name, customerId: team.customerId }))`,
 * then `auditTeam(tx, ctx, team, 'update', message, changes)` inside the write's transaction.
 */
export function auditOf<T>(entityType: string, describe: (item: T) => AuditSubject) {
  return (
    tx: Executor,
    ctx: { actor: Actor; requestId?: string },
    item: T,
    action: string,
    message: string,
    changes?: Record<string, unknown>,
  ) => auditChange(tx, ctx, { entityType, ...describe(item), action, message, changes });
}

/** Describes what changed between two versions of an entity, for the audit message. */
export function diffFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of Object.keys(after)) {
    const a = before[key];
    const b = after[key];
    if (JSON.stringify(a) !== JSON.stringify(b)) changes[key] = { from: a ?? null, to: b ?? null };
  }

  return changes;
}
