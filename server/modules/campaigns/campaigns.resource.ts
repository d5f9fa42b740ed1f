import { eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { advertisers } from '@/server/modules/advertisers/advertisers.table';
import { customers } from '@/server/tenant/customers.table';
import { quickFilters } from '@/server/modules/quick-filters/quick-filters.table';
import { teamAssignmentsField } from '@/server/modules/teams';
import { defineResource, relation, type FieldDefinition, type RelationField } from '@/server/query/resource';
import { assignmentKinds, type AssignmentKind } from './campaign-assignments';
import {
  campaignLevels,
  campaigns,
  campaignTypes,
  contentShuffleModes,
  deviceSelectionModes,
  orderingModes,
  playbackSlotItemTypes,
} from './campaigns.table';

const customerRefResource = defineResource({
  name: 'customer',
  table: customers,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
  }),
});

const advertiserRefResource = defineResource({
  name: 'advertiser',
  table: advertisers,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
  }),
});

const quickFilterRefResource = defineResource({
  name: 'quickFilter',
  table: quickFilters,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
  }),
});

/** `creator` / `lastSavedBy`: e-mail and name copied onto the row (they outlive the user). */
const personResource = (name: string, email: 'creatorEmail' | 'lastSavedByEmail', person: 'creatorName' | 'lastSavedByName') =>
  defineResource({
    name,
    table: campaigns,
    fields: (t) => ({
      email: { kind: 'scalar', type: 'string', sql: t[email] },
      name: { kind: 'scalar', type: 'string', sql: t[person] },
    }),
  });

const creatorResource = personResource('creator', 'creatorEmail', 'creatorName');
const lastSavedByResource = personResource('lastSavedBy', 'lastSavedByEmail', 'lastSavedByName');

function personRelation(t: typeof campaigns, resource: typeof creatorResource, email: 'creatorEmail' | 'lastSavedByEmail'): RelationField {
  return relation.one(resource, {
    on: (target) => eq(target.id, t.id),
    foreignKey: sql`case when ${t[email]} is not null then ${t.id} end`,
    sameRow: sql`(${t[email]} is not null)`,
  });
}

const quickFilterRelation = (column: AnyPgColumn) =>
  relation.one(quickFilterRefResource, { on: (target) => eq(target.id, column), foreignKey: column });

/**
 * `campaignContentAssignments.contentId` (`messageContentAssignments.contentId`…): each assignment table as a
 * searchable collection of the campaign or message whose id column is `ownerId`.
 */
export function assignmentRelation(kind: AssignmentKind, ownerId: AnyPgColumn): RelationField {
  const resource = defineResource({
    name: kind.searchField,
    table: kind.table,
    fields: (t) => {
      const columns = t as unknown as Record<string, AnyPgColumn>;
      const fields: Record<string, FieldDefinition> = {
        [kind.itemKey]: { kind: 'scalar', type: kind.idType === 'uuid' ? 'uuid' : 'integer', sql: columns[kind.itemKey]! },
      };
      if (kind.weighted) fields.weight = { kind: 'scalar', type: 'integer', sql: columns.weight! };

      return fields;
    },
  });

  return relation.many(resource, {
    on: (target) => sql`${(target as unknown as Record<string, AnyPgColumn>)[kind.ownerKey]} = ${ownerId}`,
  });
}

/** A date column as the instant 00:00 UTC of that day (answered as epoch ms; searchable by ms or ISO). */
const dayStart = (column: AnyPgColumn) => sql`(${column}::timestamp at time zone 'UTC')`;

/** The columns a campaign and a message (sub-channel) share, by their field names. */
const _channelRuleColumns = [
  'version',
  'enabled',
  'weight',
  'saturation',
  'validFrom',
  'validTo',
  'defaultDuration',
  'contentShuffleMode',
  'orderingMode',
  'skipDefaultPage',
  'affectedDateRanges',
  'deviceTagCondition',
  'contentTagCondition',
  'fileTagCondition',
  'deviceSelectionMode',
  'contentQuickFilterId',
  'fileQuickFilterId',
  'deviceQuickFilterId',
  'creatorEmail',
  'lastSavedByEmail',
  'createdDate',
  'lastSaved',
] as const;
type ChannelRuleColumns = Record<(typeof _channelRuleColumns)[number], AnyPgColumn>;

/** The fields campaigns and messages share (play rules, targeting, validity, who saved): declared once for both resources. */
export function channelRuleFields(t: ChannelRuleColumns): Record<string, FieldDefinition> {
  return {
    version: { kind: 'scalar', type: 'string', sql: t.version },
    enabled: { kind: 'scalar', type: 'boolean', sql: t.enabled },
    weight: { kind: 'scalar', type: 'integer', sql: t.weight },
    saturation: { kind: 'scalar', type: 'number', sql: t.saturation },
    validFrom: { kind: 'scalar', type: 'epochMs', sql: dayStart(t.validFrom) },
    validTo: { kind: 'scalar', type: 'epochMs', sql: dayStart(t.validTo) },
    defaultDuration: { kind: 'scalar', type: 'integer', sql: t.defaultDuration },
    contentShuffleMode: { kind: 'scalar', type: 'enum', enumValues: contentShuffleModes, sql: t.contentShuffleMode },
    orderingMode: { kind: 'scalar', type: 'enum', enumValues: orderingModes, sql: t.orderingMode },
    skipDefaultPage: { kind: 'scalar', type: 'boolean', sql: t.skipDefaultPage },
    affectedDateRanges: { kind: 'scalar', type: 'json', sql: t.affectedDateRanges },
    deviceTagCondition: { kind: 'scalar', type: 'json', sql: t.deviceTagCondition },
    contentTagCondition: { kind: 'scalar', type: 'json', sql: t.contentTagCondition },
    fileTagCondition: { kind: 'scalar', type: 'json', sql: t.fileTagCondition },
    deviceSelectionMode: { kind: 'scalar', type: 'enum', enumValues: deviceSelectionModes, sql: t.deviceSelectionMode },
    contentQuickFilterId: { kind: 'scalar', type: 'uuid', sql: t.contentQuickFilterId },
    fileQuickFilterId: { kind: 'scalar', type: 'uuid', sql: t.fileQuickFilterId },
    deviceQuickFilterId: { kind: 'scalar', type: 'uuid', sql: t.deviceQuickFilterId },
    creatorEmail: { kind: 'scalar', type: 'string', sql: t.creatorEmail },
    lastSavedByEmail: { kind: 'scalar', type: 'string', sql: t.lastSavedByEmail },
    createdDate: { kind: 'scalar', type: 'datetime', sql: t.createdDate },
    lastSavedAt: { kind: 'scalar', type: 'epochMs', sql: t.lastSaved },
  };
}

/**
 * Searchable, selectable and sortable fields of `campaign` (spec 2 "Campaign", version 2 reads). The
 * assignment lists (`contentAssignments` …), `teamAssignments` as `[{id, name}]`, `teamAccessList` and
 * `affectedScreenCount` are answered by the service after the page is read (one statement per list for the
 * page); here the assignment tables are collections for `search` only.
 */
export const campaignResource = defineResource({
  name: 'campaign',
  table: campaigns,
  tenant: (t) => t.customerId,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
    level: { kind: 'scalar', type: 'enum', enumValues: campaignLevels, sql: t.level },
    type: { kind: 'scalar', type: 'enum', enumValues: campaignTypes, sql: t.type },
    ...channelRuleFields(t),
    tags: { kind: 'scalar', type: 'stringArray', sql: t.tags },
    locked: { kind: 'scalar', type: 'boolean', sql: t.locked },
    duration: { kind: 'scalar', type: 'integer', sql: t.duration },
    skipInvalidFiles: { kind: 'scalar', type: 'boolean', sql: t.skipInvalidFiles },
    affectedHours: { kind: 'scalar', type: 'json', sql: t.affectedHours },
    affectedDays: { kind: 'scalar', type: 'json', sql: t.affectedDays },
    advertiserId: { kind: 'scalar', type: 'uuid', sql: t.advertiserId },
    advertiserName: { kind: 'scalar', type: 'string', sql: sql`(select a.name from ${advertisers} a where a.id = ${t.advertiserId})` },
    playedAssetTeamAccessList: { kind: 'scalar', type: 'json', sql: t.playedAssetTeamAccessList },
    playMultipleItemsInSinglePlaybackSlot: { kind: 'scalar', type: 'boolean', sql: t.playMultipleItemsInSinglePlaybackSlot },
    playAllItemsInSinglePlaybackSlot: { kind: 'scalar', type: 'boolean', sql: t.playAllItemsInSinglePlaybackSlot },
    playbackSlotItemType: { kind: 'scalar', type: 'enum', enumValues: playbackSlotItemTypes, sql: t.playbackSlotItemType },
    playbackSlotDuration: { kind: 'scalar', type: 'integer', sql: t.playbackSlotDuration },
    playbackSlotNumberOfElementsToPlay: { kind: 'scalar', type: 'integer', sql: t.playbackSlotNumberOfElementsToPlay },
    createDate: { kind: 'scalar', type: 'epochMs', sql: t.createdDate },
    customer: relation.one(customerRefResource, { on: (target) => eq(target.id, t.customerId), foreignKey: t.customerId }),
    creator: personRelation(t, creatorResource, 'creatorEmail'),
    lastSavedBy: personRelation(t, lastSavedByResource, 'lastSavedByEmail'),
    contentQuickFilter: quickFilterRelation(t.contentQuickFilterId),
    fileQuickFilter: quickFilterRelation(t.fileQuickFilterId),
    deviceQuickFilter: quickFilterRelation(t.deviceQuickFilterId),
    advertiser: relation.one(advertiserRefResource, { on: (target) => eq(target.id, t.advertiserId), foreignKey: t.advertiserId }),
    ...Object.fromEntries(assignmentKinds.map((kind) => [kind.searchField, assignmentRelation(kind, t.id)])),
    teamAssignments: teamAssignmentsField('campaign', t.id),
  }),
});

/** The fields the service answers after reading a page (they are not columns of the statement). */
export const pageExtraFields = [
  'affectedScreenCount',
  'teamAccessList',
  'teamAssignments',
  ...assignmentKinds.map((k) => k.listField),
] as const;
