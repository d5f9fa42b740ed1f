import { eq, sql } from 'drizzle-orm';
import { roles } from '@/server/context/roles';
import { customers } from '@/server/tenant/customers.table';
import { uiProfileResource } from '@/server/modules/ui-profiles';
import { aliasedTable } from '@/server/query/relations';
import { defineResource, relation } from '@/server/query/resource';
import { authProviders, editorLevels, userProfilePictures, users } from './users.table';
import { teamAssignmentsField } from '@/server/modules/teams';

/** The shape of a single user read (/me, /{id}, writes) when the client names no `select`. */
export const USER_DEFAULT_SELECT = '*,customer(id,name,expirationDate,force2FA),userInterfaceProfile(id,name)';

/** The user's `customer` object is the spec's four fields, not the whole customer resource. */
const userCustomerResource = defineResource({
  name: 'customer',
  table: customers,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    expirationDate: { kind: 'scalar', type: 'datetime', sql: t.expirationDate },
    force2FA: { kind: 'scalar', type: 'boolean', sql: t.force2FA },
  }),
});

/**
 * Searchable and selectable fields of `user` (spec 3 "User"); the password hash and TOTP secrets are
 * never exposed. `pinCodePresent` and `microsoftSsoEnabled` are left out: neither feature exists.
 */
export const userResource = defineResource({
  name: 'user',
  table: users,
  tenant: (t) => t.customerId,
  fields: (t) => {
    const { table: picture, from: pictureFrom } = aliasedTable(userProfilePictures, 'user_picture');
    const { table: customer, from: customerFrom } = aliasedTable(customers, 'user_customer');
    const hasPicture = sql`exists (select 1 from ${pictureFrom} where ${picture.userId} = ${t.id})`;
    const customerForces2FA = sql`exists (select 1 from ${customerFrom} where ${customer.id} = ${t.customerId} and ${customer.force2FA})`;

    return {
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
      forceToSet2FA: {
        kind: 'scalar',
        type: 'boolean',
        sql: sql`(not ${t.use2FA} and (${t.forceToSet2FA} or ${customerForces2FA}))`,
      },
      ssoLoginEnabled: { kind: 'scalar', type: 'boolean', sql: t.ssoLoginEnabled },
      usernamePasswordLoginEnabled: { kind: 'scalar', type: 'boolean', sql: t.usernamePasswordLoginEnabled },
      magicCodeLoginEnabled: { kind: 'scalar', type: 'boolean', sql: t.magicCodeLoginEnabled },
      oauthPasswordFlowEnabled: { kind: 'scalar', type: 'boolean', sql: t.oauthPasswordFlowEnabled },
      trustedAdmin: { kind: 'scalar', type: 'boolean', sql: t.trustedAdmin },
      lastLogin: { kind: 'scalar', type: 'datetime', sql: t.lastLogin },
      lastActivity: { kind: 'scalar', type: 'datetime', sql: t.lastActivity },
      createdDate: { kind: 'scalar', type: 'datetime', sql: t.createdDate },
      customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
      teamAssignments: teamAssignmentsField('user', t.id),
      hasProfilePicture: { kind: 'scalar', type: 'boolean', sql: hasPicture },
      profilePictureApiPath: {
        kind: 'scalar',
        type: 'string',
        searchable: false,
        sortable: false,
        sql: sql`case when ${hasPicture} then '/api/v2/user/' || ${t.id}::text || '/profilePicture' end`,
      },
      // Spec 1 Authentication item 11: a restricted customer blocks all access, an expired one locks out.
      active: {
        kind: 'scalar',
        type: 'boolean',
        sql: sql`exists (select 1 from ${customerFrom} where ${customer.id} = ${t.customerId} and not ${customer.restricted}
          and (${customer.expirationDate} is null or ${customer.expirationDate} > now()))`,
      },
      customer: relation.one(userCustomerResource, { on: (target) => eq(target.id, t.customerId), foreignKey: t.customerId }),
      userInterfaceProfile: relation.one(uiProfileResource, { on: (target) => eq(target.id, t.uiProfileId), foreignKey: t.uiProfileId }),
    };
  },
});
