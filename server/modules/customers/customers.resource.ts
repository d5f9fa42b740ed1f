import { sql } from 'drizzle-orm';
import { aliasedTable } from '@/server/query/relations';
import { defineResource } from '@/server/query/resource';
import { customers, licenseTiers, verticals } from './customers.table';

/** Searchable and selectable fields of `customer` (spec 3 "Customer"). */
export const customerResource = defineResource({
  name: 'customer',
  table: customers,
  fields: (t) => {
    const { table: owner, from: ownerFrom } = aliasedTable(customers, 'owner_subreseller');

    return {
      id: { kind: 'scalar', type: 'integer', sql: t.id },
      name: { kind: 'scalar', type: 'string', sql: t.name },
      comment: { kind: 'scalar', type: 'string', sql: t.comment },
      country: { kind: 'scalar', type: 'string', sql: t.country },
      location: { kind: 'scalar', type: 'string', sql: t.location },
      type: { kind: 'scalar', type: 'string', sql: t.type },
      vertical: { kind: 'scalar', type: 'enum', sql: t.vertical, enumValues: verticals },
      createdDate: { kind: 'scalar', type: 'datetime', sql: t.createdDate },
      restricted: { kind: 'scalar', type: 'boolean', sql: t.restricted },
      expirationDate: { kind: 'scalar', type: 'datetime', sql: t.expirationDate },
      force2FA: { kind: 'scalar', type: 'boolean', sql: t.force2FA },
      licenseTier: { kind: 'scalar', type: 'enum', sql: t.licenseTier, enumValues: licenseTiers },
      ownerSubresellerId: { kind: 'scalar', type: 'integer', sql: t.ownerSubresellerId },
      ownerSubresellerName: {
        kind: 'scalar',
        type: 'string',
        selectOnly: true,
        sql: sql`(select ${owner.name} from ${ownerFrom} where ${owner.id} = ${t.ownerSubresellerId})`,
      },
      // The network-owner marker: an object when the customer is one, absent otherwise.
      subreseller: {
        kind: 'scalar',
        type: 'json',
        sql: sql`case when ${t.isSubreseller} then json_build_object('id', ${t.id}, 'since', ${t.subresellerSince}) end`,
      },
      isSubreseller: { kind: 'scalar', type: 'boolean', sql: t.isSubreseller, selectable: false },
    };
  },
});
