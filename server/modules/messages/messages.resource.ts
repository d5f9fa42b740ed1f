import { sql } from 'drizzle-orm';
import { assignmentRelation, channelRuleFields } from '@/server/modules/campaigns';
import { deviceContents } from '@/server/modules/content/content.table';
import { messageGroups } from '@/server/modules/message-groups/message-groups.table';
import { defineResource } from '@/server/query/resource';
import { messageAssignmentKinds } from './message-assignments';
import { messages, messageTypes } from './messages.table';

/**
 * Searchable, selectable and sortable fields of `message` (spec 2, version 2 reads). The assignment lists
 * (`contentAssignments` …) are answered by the service after the page is read; here the assignment tables
 * are collections for `search` (`messageContentAssignments.contentId=…`).
 */
export const messageResource = defineResource({
  name: 'message',
  table: messages,
  tenant: (t) => t.customerId,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
    messageGroupId: { kind: 'scalar', type: 'integer', sql: t.messageGroupId },
    messageGroupName: {
      kind: 'scalar',
      type: 'string',
      sql: sql`(select g.name from ${messageGroups} g where g.id = ${t.messageGroupId})`,
    },
    type: { kind: 'scalar', type: 'enum', enumValues: messageTypes, sql: t.type },
    ...channelRuleFields(t),
    isPlayedElementsCappedByItemCount: { kind: 'scalar', type: 'boolean', sql: t.isPlayedElementsCappedByItemCount },
    contentId: { kind: 'scalar', type: 'uuid', sql: t.contentId },
    contentName: { kind: 'scalar', type: 'string', sql: sql`(select dc.name from ${deviceContents} dc where dc.id = ${t.contentId})` },
    teamAccessList: { kind: 'scalar', type: 'json', sql: t.teamAccessList },
    ...Object.fromEntries(messageAssignmentKinds.map((kind) => [kind.searchField, assignmentRelation(kind, t.id)])),
  }),
});

/** The fields the service answers after reading a page (not columns of the statement). */
export const messageListFields = messageAssignmentKinds.map((k) => k.listField);
