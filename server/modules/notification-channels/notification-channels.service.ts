import { eq } from 'drizzle-orm';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { ServiceContext } from '@/server/context/service-context';
import type { Executor } from '@/server/db/client';
import { isForeignKeyViolation, isUniqueViolation } from '@/server/db/errors';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, NotFoundError, ValidationError } from '@/server/errors';
import { INVALID_COMBINATION } from '@/server/http/wire.schemas';
import { auditOf, diffFields } from '@/server/modules/audit-log';
import {
  assertWritable,
  assignTeams,
  parseTeamIdsParam,
  readOnlyColumn,
  teamAccessCondition,
  teamListQuery,
  type TeamReadInput,
} from '@/server/modules/teams';
import { findPage, type ListInput, MAX_PAGE_SIZE } from '@/server/query';
import * as q from './notification-channels.queries';
import { findUsersOf } from './notification-deliveries.queries';
import { notificationChannelResource } from './notification-channels.resource';
import {
  notifyIssues,
  type NotificationChannel,
  type NotificationChannelCreate,
  type NotificationChannelType,
  type NotificationChannelUpdate,
  type SimpleNotificationChannel,
} from './notification-channels.schemas';
import { notificationChannels, type NotificationChannelRow } from './notification-channels.table';
import { newWebhookSecret, sealSecret } from './webhook-signing';

const ENTITY = 'notificationChannel';
const auditChannel = auditOf(ENTITY, (row: NotificationChannelRow) => ({
  entityId: row.id,
  entityName: row.name,
  customerId: row.customerId,
}));
const BY_NAME = ['name,asc'];

/** GET /api/alertRuleNotificationChannel: paged, searchable and sortable (by name unless sorted), team read parameters. */
export function listNotificationChannels(ctx: ServiceContext, input: ListInput & TeamReadInput) {
  const team = teamListQuery(ctx, ENTITY, notificationChannels.id, input);
  const { sort, ...query } = team.query;

  return findPage<NotificationChannel>(ctx.db, {
    resource: notificationChannelResource,
    scope: ctx.scope,
    where: [team.where],
    extraColumns: team.extraColumns ?? readOnlyColumn(ctx, ENTITY, notificationChannels.id, { select: query.select }),
    sort: sort.length > 0 ? sort : BY_NAME,
    ...query,
  });
}

/** GET /api/alertRuleNotificationChannel/simple: `{content: [{id, name}]}` of the channels the caller sees, by name (at most 1 000). */
export async function listSimpleNotificationChannels(
  ctx: ServiceContext,
  input: { search?: string },
): Promise<{ content: SimpleNotificationChannel[] }> {
  const page = await findPage<SimpleNotificationChannel>(ctx.db, {
    resource: notificationChannelResource,
    scope: ctx.scope,
    where: [teamAccessCondition(ctx, ENTITY, notificationChannels.id)],
    select: 'id,name',
    search: input.search,
    sort: BY_NAME,
    size: String(MAX_PAGE_SIZE),
  });

  return { content: page.content };
}

/** GET /api/alertRuleNotificationChannel/{channelId}: one channel the caller sees (404 otherwise), with `readOnly`. */
export async function getNotificationChannel(ctx: ServiceContext, input: { id: number; select?: string }): Promise<NotificationChannel> {
  const found = await readNotificationChannel(ctx.db, ctx, input.id, { select: input.select, visibleOnly: true });
  if (!found) throw new NotFoundError(ENTITY, input.id);

  return found;
}

/**
 * POST /api/alertRuleNotificationChannel: names unique per customer (409); SMS only when configured; USER_NOTIFICATION
 * names users of the customer; a WEBHOOK gets its signing secret, answered here once; optional `teamIds`.
 */
export async function createNotificationChannel(
  ctx: ServiceContext,
  input: { body: NotificationChannelCreate; teamIds?: string },
): Promise<NotificationChannel> {
  const { body } = input;
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  assertTypeOffered(ctx, body.channelType);

  return uniqueName(body.name, () =>
    withTransaction(ctx.db, async (tx) => {
      await assertUsersOf(tx, { customerId, channelType: body.channelType, notify: body.notify });
      const row = await q.insertNotificationChannel(tx, {
        customerId,
        name: body.name,
        comment: body.comment,
        channelType: body.channelType,
        notify: body.notify,
      });
      const secret = body.channelType === 'WEBHOOK' ? await giveSecret(tx, ctx, row) : undefined;
      if (parseTeamIdsParam(input.teamIds).length > 0) await assignTeams(tx, ctx, ENTITY, String(row.id), input.teamIds);
      await auditChannel(tx, ctx, row, 'create', `Notification channel '${row.name}' created`, {
        name: row.name,
        comment: row.comment,
        channelType: row.channelType,
        notify: row.notify,
      });

      return { ...(await readNotificationChannel(tx, ctx, row.id, { visibleOnly: false }))!, secret };
    }),
  );
}

/**
 * PUT /api/alertRuleNotificationChannel/{channelId}: partial (spec 1 rule 2). The `notify` entries afterwards must be of
 * the type afterwards, whichever of the two the body changes.
 */
export async function updateNotificationChannel(
  ctx: ServiceContext,
  input: { id: number; body: NotificationChannelUpdate },
): Promise<NotificationChannel> {
  const { body } = input;

  return uniqueName(body.name ?? '', () =>
    withTransaction(ctx.db, async (tx) => {
      const row = await writableNotificationChannel(tx, ctx, input.id);
      if (body.channelType !== undefined && body.channelType !== row.channelType) assertTypeOffered(ctx, body.channelType);
      const channelType = body.channelType ?? (row.channelType as NotificationChannelType);
      const notify = body.notify ?? row.notify;
      const issues = notifyIssues(channelType, notify).map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
      if (issues.length > 0)
        throw new ValidationError(
          INVALID_COMBINATION,
          `Invalid value '${issues[0]!.path}' for a ${channelType} channel: ${issues[0]!.message}`,
          {
            target: 'json',
            issues,
          },
        );
      if (body.channelType !== undefined || body.notify !== undefined)
        await assertUsersOf(tx, { customerId: row.customerId, channelType, notify });
      const values: Partial<typeof notificationChannels.$inferInsert> = {};
      for (const key of ['name', 'comment', 'channelType', 'notify', 'enabled'] as const) {
        if (body[key] !== undefined) (values as Record<string, unknown>)[key] = body[key];
      }
      if (body.enabled !== undefined && body.enabled !== row.enabled)
        values.disabledReason = body.enabled ? null : `Disabled by ${ctx.actor.email}`;
      const changes = diffFields(row, values);
      const isNewWebhook = channelType === 'WEBHOOK' && row.channelType !== 'WEBHOOK';
      // The secret belongs to the WEBHOOK: a channel that stops being one loses it, one that becomes one gets a new one.
      if (row.channelType === 'WEBHOOK' && channelType !== 'WEBHOOK')
        Object.assign(values, { secretSealed: null, previousSecretSealed: null, previousSecretUntil: null, secretRotatedAt: null });
      const secret = isNewWebhook ? await giveSecret(tx, ctx, row) : undefined;
      if (Object.keys(changes).length > 0) {
        await q.updateNotificationChannel(tx, row, values);
        const name = values.name ?? row.name;
        await auditChannel(
          tx,
          ctx,
          { ...row, name },
          'update',
          `Notification channel '${name}' updated: ${Object.keys(changes).join(', ')}`,
          changes,
        );
      }

      return { ...(await readNotificationChannel(tx, ctx, row.id, { visibleOnly: false }))!, secret };
    }),
  );
}

/**
 * DELETE /api/alertRuleNotificationChannel/{channelId}. Refused (409 `notificationChannel.error.inUse`) while an alert
 * rule uses the channel: the hook is the foreign key. Whatever references a channel (the alert rules of the alerts
 * issue) does so with a plain foreign key (`NO ACTION`, Drizzle's default; `on delete restrict` raised 23001 on PGlite,
 * which `isForeignKeyViolation` does not take),
 * and the violation it raises inside this transaction is the refusal, so a rule taking the channel concurrently
 * cannot be left pointing at nothing.
 */
export async function deleteNotificationChannel(ctx: ServiceContext, input: { id: number }): Promise<void> {
  try {
    await withTransaction(ctx.db, async (tx) => {
      const row = await writableNotificationChannel(tx, ctx, input.id);
      await q.deleteNotificationChannel(tx, row);
      await auditChannel(tx, ctx, row, 'delete', `Notification channel '${row.name}' deleted`);
    });
  } catch (err) {
    if (isForeignKeyViolation(err))
      throw new ConflictError(
        'notificationChannel.error.inUse',
        'An alert rule uses the notification channel: remove it from the rule first',
        {
          id: input.id,
        },
      );
    throw err;
  }
}

/** SMS is offered only when the server can send it (spec 2; `SMS_WEBHOOK_URL`, spec 5 §5). */
function assertTypeOffered(ctx: ServiceContext, channelType: NotificationChannelType): void {
  if (channelType === 'SMS' && !ctx.config.sms.webhookUrl)
    throw new ValidationError(
      'notificationChannel.error.smsNotConfigured',
      'SMS delivery is not configured on this server (SMS_WEBHOOK_URL)',
      {
        setting: 'SMS_WEBHOOK_URL',
        issues: [{ path: 'channelType', message: 'SMS delivery is not configured on this server' }],
      },
    );
}

/** USER_NOTIFICATION names users of the channel's customer (400 `notificationChannel.error.unknownUser` naming the entries). */
async function assertUsersOf(
  tx: Executor,
  input: { customerId: number; channelType: NotificationChannelType; notify: readonly string[] },
): Promise<void> {
  if (input.channelType !== 'USER_NOTIFICATION') return;
  const found = new Set((await findUsersOf(tx, { customerId: input.customerId, ids: [...input.notify] })).map((id) => id.toLowerCase()));
  const missing = input.notify.flatMap((id, i) => (found.has(id.toLowerCase()) ? [] : [{ id, i }]));
  if (missing.length > 0)
    throw new ValidationError('notificationChannel.error.unknownUser', `No user of the tenant has the id '${missing[0]!.id}'`, {
      target: 'json',
      issues: missing.map(({ i }) => ({ path: `notify.${i}`, message: 'No user of the tenant has this id' })),
    });
}

/** A new signing secret for the WEBHOOK channel `row`, stored sealed; the caller answers it once. */
async function giveSecret(tx: Executor, ctx: ServiceContext, row: NotificationChannelRow): Promise<string> {
  const secret = newWebhookSecret();
  await q.updateNotificationChannel(tx, row, {
    secretSealed: sealSecret(ctx.config, row.id, secret),
    previousSecretSealed: null,
    previousSecretUntil: null,
    secretRotatedAt: null,
  });

  return secret;
}

async function readNotificationChannel(db: Executor, ctx: ServiceContext, id: number, options: { select?: string; visibleOnly: boolean }) {
  const page = await findPage<NotificationChannel>(db, {
    resource: notificationChannelResource,
    scope: ctx.scope,
    where: [eq(notificationChannels.id, id), options.visibleOnly ? teamAccessCondition(ctx, ENTITY, notificationChannels.id) : undefined],
    select: options.select,
    extraColumns: readOnlyColumn(ctx, ENTITY, notificationChannels.id, { select: options.select }),
    size: '1',
  });

  return page.content[0];
}

/** The row (locked) when the caller may write it: 404 when invisible, 403 through read-only teams. */
async function writableNotificationChannel(tx: Executor, ctx: ServiceContext, id: number): Promise<NotificationChannelRow> {
  const row = await q.lockNotificationChannel(tx, ctx.scope, id);
  if (!row) throw new NotFoundError(ENTITY, id);
  await assertWritable(tx, ctx, ENTITY, String(row.id));

  return row;
}

async function uniqueName<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, 'notification_channel_customer_name_key'))
      throw new ConflictError('notificationChannel.error.nameExists', `A notification channel named '${name}' already exists`, { name });
    throw err;
  }
}
