import { eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { roles } from '@/server/auth/roles';
import { customerResource } from '@/server/modules/customers/customers.resource';
import { customers } from '@/server/modules/customers/customers.table';
import { defineResource } from '@/server/query/resource';
import { authProviders, editorLevels, users } from './users.table';

/** Searchable and selectable fields of `user` (spec 3 "User"); the password hash and TOTP secret are never exposed. */
export const userResource = defineResource({
  name: 'user',
  table: users,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    email: { kind: 'scalar', type: 'string', sql: t.email },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    role: { kind: 'scalar', type: 'enum', sql: t.role, enumValues: roles },
    authProvider: { kind: 'scalar', type: 'enum', sql: t.authProvider, enumValues: authProviders },
    editorLevel: { kind: 'scalar', type: 'enum', sql: t.editorLevel, enumValues: editorLevels },
    language: { kind: 'scalar', type: 'string', sql: t.language },
    comment: { kind: 'scalar', type: 'string', sql: t.comment },
    address: { kind: 'scalar', type: 'string', sql: t.address },
    readOnly: { kind: 'scalar', type: 'boolean', sql: t.readOnly },
    restricted: { kind: 'scalar', type: 'boolean', sql: t.restricted },
    use2FA: { kind: 'scalar', type: 'boolean', sql: t.use2FA },
    forceToSet2FA: { kind: 'scalar', type: 'boolean', sql: t.forceToSet2FA },
    ssoLoginEnabled: { kind: 'scalar', type: 'boolean', sql: t.ssoLoginEnabled },
    usernamePasswordLoginEnabled: { kind: 'scalar', type: 'boolean', sql: t.usernamePasswordLoginEnabled },
    magicCodeLoginEnabled: { kind: 'scalar', type: 'boolean', sql: t.magicCodeLoginEnabled },
    oauthPasswordFlowEnabled: { kind: 'scalar', type: 'boolean', sql: t.oauthPasswordFlowEnabled },
    trustedAdmin: { kind: 'scalar', type: 'boolean', sql: t.trustedAdmin },
    lastLogin: { kind: 'scalar', type: 'datetime', sql: t.lastLogin },
    lastActivity: { kind: 'scalar', type: 'datetime', sql: t.lastActivity },
    createdDate: { kind: 'scalar', type: 'datetime', sql: t.createdDate },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
    customer: {
      kind: 'relation',
      cardinality: 'one',
      target: () => customerResource as never,
      on: (self: PgTable, target: PgTable) => eq((target as typeof customers).id, (self as typeof users).customerId),
      foreignKey: (self: PgTable) => (self as typeof users).customerId,
    },
  }),
});
