import { sql } from 'drizzle-orm';
import { defineResource } from '@/server/query/resource';
import { contentTemplates } from './content.table';
import { contentDataToWire } from './slide-document.schemas';

/** The starter templates (global: no tenant column). `data` only when selected. */
export const contentTemplateResource = defineResource({
  name: 'template',
  table: contentTemplates,
  fields: (t) => {
    const width = sql`(${t.data}->'pages'->0->'pageData'->'screenSize'->>'width')::int`;
    const height = sql`(${t.data}->'pages'->0->'pageData'->'screenSize'->>'height')::int`;

    return {
      id: { kind: 'scalar', type: 'uuid', sql: t.id },
      name: { kind: 'scalar', type: 'string', sql: t.name },
      description: { kind: 'scalar', type: 'string', sql: t.description },
      structureType: { kind: 'scalar', type: 'enum', enumValues: ['SLIDE', 'COMPLEX'], sql: t.structureType },
      tags: { kind: 'scalar', type: 'stringArray', sql: t.tags },
      position: { kind: 'scalar', type: 'integer', sql: t.position, selectable: false },
      orientation: {
        kind: 'scalar',
        type: 'enum',
        enumValues: ['landscape', 'portrait', 'square'],
        sql: sql`case when ${width} > ${height} then 'landscape' when ${width} < ${height} then 'portrait' else 'square' end`,
      },
      data: { kind: 'scalar', type: 'json', selectOnly: true, sql: t.data, toWire: contentDataToWire },
    };
  },
});
