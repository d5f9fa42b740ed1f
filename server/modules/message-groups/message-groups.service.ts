import { eq } from 'drizzle-orm';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { ServiceContext } from '@/server/context/service-context';
import type { Executor } from '@/server/db/client';
import { isForeignKeyViolation } from '@/server/db/errors';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, NotFoundError } from '@/server/errors';
import { auditOf, diffFields } from '@/server/modules/audit-log';
import { announceDeviceChange } from '@/server/modules/devices';
import {
  assertWritable,
  assignTeams,
  parseTeamIdsParam,
  readOnlyColumn,
  teamAccessCondition,
  teamListQuery,
  type TeamReadInput,
} from '@/server/modules/teams';
import { findPage, type ListInput } from '@/server/query';
import { screensOfGroup } from './message-group-screens';
import * as q from './message-groups.queries';
import { messageGroupResource } from './message-groups.resource';
import type { MessageGroup, MessageGroupCreate, MessageGroupUpdate } from './message-groups.schemas';
import { messageGroups, type MessageGroupRow } from './message-groups.table';

const ENTITY = 'messageGroup';
const audit = auditOf(ENTITY, (row: MessageGroupRow) => ({ entityId: row.id, entityName: row.name, customerId: row.customerId }));

/** GET /api/messageGroup: paged, searchable and sortable, with the team read parameters. */
export function listMessageGroups(ctx: ServiceContext, input: ListInput & TeamReadInput) {
  const team = teamListQuery(ctx, ENTITY, messageGroups.id, input);

  return findPage<MessageGroup>(ctx.db, {
    resource: messageGroupResource,
    scope: ctx.scope,
    where: [team.where],
    extraColumns: team.extraColumns,
    ...team.query,
  });
}

/** GET /api/messageGroup/{id}: one group the caller can see (404 otherwise). */
export async function getMessageGroup(ctx: ServiceContext, input: { id: number; select?: string }) {
  const found = await readMessageGroup(ctx.db, ctx, input.id, { select: input.select, visibleOnly: true });
  if (!found) throw new NotFoundError(ENTITY, input.id);

  return found;
}

/** POST /api/messageGroup (no resource limit names message groups); optional `teamIds` (`<id>:<readOnly>`). */
export async function createMessageGroup(ctx: ServiceContext, input: { body: MessageGroupCreate; teamIds?: string }) {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  const { body } = input;

  return withTransaction(ctx.db, async (tx) => {
    const row = await q.insertMessageGroup(tx, {
      customerId,
      name: body.name,
      weight: body.weight ?? 0,
      saturation: body.saturation ?? null,
      contentShuffleMode: body.contentShuffleMode ?? null,
    });
    if (parseTeamIdsParam(input.teamIds).length > 0) await assignTeams(tx, ctx, ENTITY, String(row.id), input.teamIds);
    await audit(tx, ctx, row, 'create', `Message group '${row.name}' created`, body);

    return (await readMessageGroup(tx, ctx, row.id, { visibleOnly: false }))!;
  });
}

/** PUT /api/messageGroup/{id}: partial (spec 1 rule 2). */
export async function updateMessageGroup(ctx: ServiceContext, input: { id: number; body: MessageGroupUpdate }) {
  return withTransaction(ctx.db, async (tx) => {
    const row = await writableMessageGroup(tx, ctx, input.id);
    const values: Partial<typeof messageGroups.$inferInsert> = {};
    for (const key of ['name', 'weight', 'saturation', 'contentShuffleMode'] as const) {
      if (input.body[key] !== undefined) (values as Record<string, unknown>)[key] = input.body[key];
    }
    const changes = diffFields(row, values);
    if (Object.keys(changes).length > 0) {
      await q.updateMessageGroup(tx, row, values);
      await announceGroupChange(tx, row);
      await audit(tx, ctx, row, 'update', `Message group '${row.name}' updated: ${Object.keys(changes).join(', ')}`, changes);
    }

    return (await readMessageGroup(tx, ctx, row.id, { visibleOnly: false }))!;
  });
}

/**
 * DELETE /api/messageGroup/{id}: removes the group and all its messages; refused (409
 * `messageGroup.error.inUse`) while a channel has it assigned (the assignment's foreign key decides, so a
 * channel assigning it concurrently cannot be left pointing at nothing).
 */
export async function deleteMessageGroup(ctx: ServiceContext, input: { id: number }): Promise<void> {
  try {
    await withTransaction(ctx.db, async (tx) => {
      const row = await writableMessageGroup(tx, ctx, input.id);
      await q.deleteMessageGroup(tx, row);
      await audit(tx, ctx, row, 'delete', `Message group '${row.name}' deleted with its messages`);
    });
  } catch (err) {
    if (isForeignKeyViolation(err))
      throw new ConflictError('messageGroup.error.inUse', 'The message group is assigned to a channel: remove it from the channel first', {
        id: input.id,
      });
    throw err;
  }
}

/** Tells the screens of the channels that play the group (its order, its messages) that their manifest changed. */
export async function announceGroupChange(tx: Executor, group: Pick<MessageGroupRow, 'id' | 'customerId'>): Promise<void> {
  await announceDeviceChange(tx, {
    customerId: group.customerId,
    deviceIds: await screensOfGroup(tx, group.customerId, group.id),
    kind: 'settings',
  });
}

async function readMessageGroup(db: Executor, ctx: ServiceContext, id: number, options: { select?: string; visibleOnly: boolean }) {
  const page = await findPage<MessageGroup>(db, {
    resource: messageGroupResource,
    scope: ctx.scope,
    where: [eq(messageGroups.id, id), options.visibleOnly ? teamAccessCondition(ctx, ENTITY, messageGroups.id) : undefined],
    select: options.select,
    extraColumns: readOnlyColumn(ctx, ENTITY, messageGroups.id, { select: options.select }),
    size: '1',
  });

  return page.content[0];
}

/** The row (locked) when the caller may write it: 404 when invisible, 403 through read-only teams. */
async function writableMessageGroup(tx: Executor, ctx: ServiceContext, id: number): Promise<MessageGroupRow> {
  const row = await q.lockMessageGroup(tx, ctx.scope, id);
  if (!row) throw new NotFoundError(ENTITY, id);
  await assertWritable(tx, ctx, ENTITY, String(row.id));

  return row;
}
