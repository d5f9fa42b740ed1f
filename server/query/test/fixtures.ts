import { eq, sql } from 'drizzle-orm';
import { bigint, boolean, date, doublePrecision, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { defineResource, relation, type ResourceDefinition } from '../resource';

/** Small tables covering every field type and relation kind, shared by the query tests. */
export const folders = pgTable('folders', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  parentId: uuid('parent_id'),
});

const teams = pgTable('teams', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
});

export const items = pgTable('items', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description'),
  count: integer('count'),
  big: bigint('big', { mode: 'bigint' }),
  price: doublePrecision('price'),
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  modifiedAt: timestamp('modified_at', { withTimezone: true }),
  day: date('day'),
  status: text('status'),
  tags: text('tags').array(),
  folderPath: uuid('folder_path').array(),
  meta: jsonb('meta'),
  folderId: uuid('folder_id'),
  secret: text('secret'),
});

export const teamAssignments = pgTable('team_assignments', {
  itemId: uuid('item_id').notNull(),
  teamId: uuid('team_id').notNull(),
});

export const FOLDER_DDL = `
  create table folders (id uuid primary key, name text not null, parent_id uuid references folders(id));
  create table teams (id uuid primary key, name text not null);
  create table items (
    id uuid primary key, name text not null, description text, count integer, big bigint, price double precision,
    active boolean not null default true, created_at timestamptz not null, modified_at timestamptz, day date,
    status text, tags text[], folder_path uuid[], meta jsonb, folder_id uuid references folders(id), secret text);
  create table team_assignments (item_id uuid not null references items(id), team_id uuid not null references teams(id));
`;

export const folderResource: ResourceDefinition<typeof folders> = defineResource({
  name: 'folder',
  table: folders,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    parentId: { kind: 'scalar', type: 'uuid', sql: t.parentId },
    parent: relation.one(folderResource, { on: (target) => eq(target.id, t.parentId), foreignKey: t.parentId }),
    items: relation.many(itemResource, { on: (target) => eq(target.folderId, t.id) }),
  }),
});

export const teamResource = defineResource({
  name: 'team',
  table: teams,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
  }),
});

export const teamAssignmentResource: ResourceDefinition<typeof teamAssignments> = defineResource({
  name: 'teamAssignment',
  table: teamAssignments,
  fields: (t) => ({
    teamId: { kind: 'scalar', type: 'uuid', sql: t.teamId },
    item: relation.one(itemResource, { on: (target) => eq(target.id, t.itemId) }),
    team: relation.one(teamResource, { on: (target) => eq(target.id, t.teamId) }),
  }),
});

export const itemResource: ResourceDefinition<typeof items> = defineResource({
  name: 'item',
  table: items,
  maxPageSize: 50,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    description: { kind: 'scalar', type: 'string', sql: t.description },
    count: { kind: 'scalar', type: 'integer', sql: t.count },
    big: { kind: 'scalar', type: 'integer', sql: t.big },
    price: { kind: 'scalar', type: 'number', sql: t.price },
    active: { kind: 'scalar', type: 'boolean', sql: t.active },
    createdAt: { kind: 'scalar', type: 'datetime', sql: t.createdAt },
    modifiedAt: { kind: 'scalar', type: 'epochMs', sql: t.modifiedAt },
    day: { kind: 'scalar', type: 'date', sql: t.day },
    status: { kind: 'scalar', type: 'enum', sql: t.status, enumValues: ['DRAFT', 'LIVE'] },
    tags: { kind: 'scalar', type: 'stringArray', sql: t.tags },
    folderPath: { kind: 'scalar', type: 'path', sql: t.folderPath },
    meta: { kind: 'scalar', type: 'json', sql: t.meta },
    folderId: { kind: 'scalar', type: 'uuid', sql: t.folderId },
    secret: { kind: 'scalar', type: 'string', sql: t.secret, selectOnly: true },
    hidden: { kind: 'scalar', type: 'string', sql: t.secret, selectable: false, sortable: false },
    nameLength: { kind: 'scalar', type: 'integer', sql: sql`length(${t.name})`, selectOnly: true },
    folder: relation.one(folderResource, { on: (target) => eq(target.id, t.folderId), foreignKey: t.folderId }),
    teamAssignments: relation.many(teamAssignmentResource, { on: (target) => eq(target.itemId, t.id) }),
  }),
});
