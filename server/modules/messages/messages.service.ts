import enLabels from '@/messages/en/labels.json';
import { and, eq, type SQL } from 'drizzle-orm';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import { auditOf } from '@/server/modules/audit-log';
import { findRootDeviceGroup } from '@/server/modules/folders';
import {
  applyAssignments,
  assertValidityOrder,
  checkReferences,
  savedBy,
  teamAccessOf,
  attachAssignmentLists,
  parseCampaignId,
  splitSelect,
} from '@/server/modules/campaigns';
import { announceGroupChange } from '@/server/modules/message-groups';
import { normalizeTags } from '@/server/modules/tags';
import { assertWritable, readOnlyExpression, teamAccessCondition } from '@/server/modules/teams';
import { findPage, type ListInput } from '@/server/query';
import { messageAssignmentKinds } from './message-assignments';
import * as q from './messages.queries';
import { messageListFields, messageResource } from './messages.resource';
import type { Message, MessageCreate, MessageUpdate } from './messages.schemas';
import { messages, type MessageRow } from './messages.table';

/*
 * Messages (sub-channels): a message belongs to a message group and is seen and written by whoever sees and
 * writes its group (the group's teams). Every write is one transaction with its audit entry, and tells the
 * screens of the channels that play the group that their manifest changed.
 */

const auditMessage = auditOf('message', (row: Pick<MessageRow, 'id' | 'name' | 'customerId'>) => ({
  entityId: row.id,
  entityName: row.name,
  customerId: row.customerId,
}));

type Caller = Pick<ServiceContext, 'actor' | 'scope'>;

/** Visible when its group is (team visibility of message groups). */
const messageAccess = (ctx: Caller): SQL | undefined => teamAccessCondition(ctx, 'messageGroup', messages.messageGroupId);

/** A message the caller changes: 404 when not in the scope or its group is invisible, 403 through read-only teams. Row-locked. */
async function writableMessage(tx: Executor, ctx: ServiceContext, rawId: string | number): Promise<MessageRow> {
  const id = parseCampaignId(rawId);
  const found =
    id === undefined
      ? undefined
      : await q.lockMessage(tx, {
          where: and(eq(messages.id, id), scopeCondition(ctx.scope, messages.customerId)),
          visible: messageAccess(ctx),
          readOnly: readOnlyExpression(ctx, 'messageGroup', messages.messageGroupId),
        });
  if (!found || !found.visible) throw new NotFoundError('message', rawId);
  if (found.readOnly)
    throw new ForbiddenError('Your teams give read-only access to this message group', 'team.error.readOnly', {
      resourceType: 'messageGroup',
      id: found.row.messageGroupId,
    });

  return found.row;
}

/** Tells the screens of the channels that play the message's group that their manifest changed. */
const announceMessageChange = (tx: Executor, row: Pick<MessageRow, 'customerId' | 'messageGroupId'>) =>
  announceGroupChange(tx, { id: row.messageGroupId, customerId: row.customerId });

const tagCondition = (condition: MessageCreate['deviceTagCondition']) => condition && { ...condition, tags: normalizeTags(condition.tags) };

/** The scalar fields of a body as columns (absent: not in the result). */
function scalarChanges(body: MessageCreate | MessageUpdate): q.MessageChanges {
  const changes: Record<string, unknown> = {
    name: body.name,
    enabled: body.enabled,
    weight: body.weight,
    saturation: body.saturation,
    isPlayedElementsCappedByItemCount: body.isPlayedElementsCappedByItemCount,
    contentId: body.contentId?.toLowerCase(),
    contentShuffleMode: body.contentShuffleMode,
    orderingMode: body.orderingMode,
    skipDefaultPage: body.skipDefaultPage,
    defaultDuration: body.defaultDuration,
    affectedDateRanges: body.affectedDateRanges,
    validFrom: body.validFrom,
    validTo: body.validTo,
    deviceTagCondition: tagCondition(body.deviceTagCondition),
    contentTagCondition: tagCondition(body.contentTagCondition),
    fileTagCondition: tagCondition(body.fileTagCondition),
    teamAccessList: teamAccessOf(body.teamAccessList) ?? undefined,
    contentQuickFilterId: body.contentQuickFilterId?.toLowerCase(),
    fileQuickFilterId: body.fileQuickFilterId?.toLowerCase(),
    deviceQuickFilterId: body.deviceQuickFilterId?.toLowerCase(),
  };

  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as q.MessageChanges;
}

/** The ids a body names that are checked like a campaign's (assignments, quick filters, teams) plus `contentId`. */
async function checkMessageReferences(tx: Executor, customerId: number, body: MessageCreate | MessageUpdate): Promise<void> {
  const withContent = body.contentId
    ? { ...body, contentAssignment: { assignments: [...(body.contentAssignment?.assignments ?? []), { contentId: body.contentId }] } }
    : body;
  await checkReferences(tx, customerId, withContent, messageAssignmentKinds);
}

const asMessages = (saved: { lastSaved: Date; lastSavedByEmail: string | null }) => ({
  lastSaved: saved.lastSaved,
  lastSavedByEmail: saved.lastSavedByEmail,
});

/** POST /api/message (APPROVER): a message in a group of the selected tenant (404 for another tenant's group). */
export async function createMessage(ctx: ServiceContext, input: MessageCreate): Promise<Message> {
  return withTransaction(ctx.db, async (tx) => {
    const customerId = targetCustomerId(ctx.scope, ctx.actor);
    const group = await q.findGroupOf(tx, customerId, input.messageGroupId);
    if (!group) throw new NotFoundError('messageGroup', input.messageGroupId);
    await assertWritable(tx, ctx, 'messageGroup', String(group.id));
    await checkMessageReferences(tx, customerId, input);
    const mode = input.deviceSelectionMode ?? 'DYNAMIC';
    const row = await q.insertMessage(tx, {
      ...scalarChanges(input),
      customerId,
      messageGroupId: group.id,
      name: input.name,
      type: input.type,
      version: '2.0',
      deviceSelectionMode: mode,
      creatorEmail: ctx.actor.email,
      ...asMessages(savedBy(ctx)),
    });
    const body = { ...input };
    if (mode === 'DYNAMIC' && (input.deviceGroupAssignment?.assignments ?? []).length === 0) {
      const root = await findRootDeviceGroup(tx, customerId);
      if (root) body.deviceGroupAssignment = { assignments: [{ deviceGroupId: root.id }] };
    }
    await applyAssignments(tx, row, body, messageAssignmentKinds);
    await auditMessage(tx, ctx, row, 'create', `Sub-channel '${row.name}' created (${enLabels.channelType[row.type]})`, {
      type: row.type,
      messageGroupId: row.messageGroupId,
    });
    await announceMessageChange(tx, row);

    return readMessage(tx, ctx, row.id);
  });
}

/** PUT /api/message/{id} (APPROVER): the fields sent; additive assignment objects; `type`, `deviceSelectionMode`, `messageGroupId`, `version` ignored. */
export async function updateMessage(ctx: ServiceContext, rawId: string | number, input: MessageUpdate): Promise<Message> {
  return withTransaction(ctx.db, async (tx) => {
    const row = await writableMessage(tx, ctx, rawId);
    await checkMessageReferences(tx, row.customerId, input);
    const changes = scalarChanges(input);
    if (input.resetValidFrom) changes.validFrom = null;
    if (input.resetValidTo) changes.validTo = null;
    assertValidityOrder(row, changes);
    if (row.type === 'CONTENT' && changes.contentId === null)
      throw new ValidationError('request.error.invalid', 'A CONTENT message plays a content: contentId', { field: 'contentId' });
    const assigned = await applyAssignments(tx, row, input, messageAssignmentKinds);
    await q.updateMessageRow(tx, row, { ...changes, ...asMessages(savedBy(ctx)) });
    const name = changes.name ?? row.name;
    await auditMessage(tx, ctx, { ...row, name }, 'update', `Sub-channel '${name}' saved`, {
      fields: [...Object.keys(changes), ...assigned],
    });
    await announceMessageChange(tx, row);

    return readMessage(tx, ctx, row.id);
  });
}

/** DELETE /api/message/{id} (APPROVER): the message and its assignments. */
export async function deleteMessage(ctx: ServiceContext, rawId: string | number): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const row = await writableMessage(tx, ctx, rawId);
    await q.deleteMessageRow(tx, row);
    await auditMessage(tx, ctx, row, 'delete', `Sub-channel '${row.name}' deleted`);
    await announceMessageChange(tx, row);
  });
}

/** GET /api/v2/message: filtered (`messageGroupId`), searched, sorted and paged in one statement; assignment lists per page. */
export async function listMessages(ctx: ServiceContext, input: ListInput & { messageGroupId?: number }) {
  const { sort, select: rawSelect, messageGroupId, ...query } = input;
  const { select, extras } = splitSelect<string>(rawSelect, [], messageListFields);
  const page = await findPage<Message>(ctx.db, {
    resource: messageResource,
    scope: ctx.scope,
    where: [messageAccess(ctx), messageGroupId === undefined ? undefined : eq(messages.messageGroupId, messageGroupId)],
    select,
    sort: sort.length > 0 ? sort : ['weight,asc', 'name,asc'],
    ...query,
  });
  await attachAssignmentLists(ctx.db, page.content, extras, messageAssignmentKinds);

  return page;
}

/** One message as the caller sees it (404 when invisible); without `select` with its assignment lists. */
async function readMessage(db: Executor, ctx: Caller, rawId: string | number, rawSelect?: string): Promise<Message> {
  const id = parseCampaignId(rawId);
  if (id === undefined) throw new NotFoundError('message', rawId);
  const { select, extras } = splitSelect<string>(rawSelect, messageListFields, messageListFields);
  const page = await findPage<Message>(db, {
    resource: messageResource,
    scope: ctx.scope,
    where: [eq(messages.id, id), messageAccess(ctx)],
    select,
    size: '1',
  });
  const item = page.content[0];
  if (!item) throw new NotFoundError('message', rawId);
  await attachAssignmentLists(db, page.content, extras, messageAssignmentKinds);

  return item;
}

/** GET /api/v2/message/{id}. */
export function getMessage(ctx: ServiceContext, id: string | number, select?: string): Promise<Message> {
  return readMessage(ctx.db, ctx, id, select);
}
