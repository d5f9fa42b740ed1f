import { and, eq, sql, type SQL } from 'drizzle-orm';
import { aliasedTable } from '@/server/query/relations';
import { defineResource, relation } from '@/server/query/resource';
import { users } from '@/server/modules/users/users.table';
import { customerStatisticSql } from '@/server/tenant/customer-statistics';
import { customers, licenseTiers, verticals } from '@/server/tenant/customers.table';

/** What reads answer when the client names no `select`: the primitives plus the network-owner object. */
export const CUSTOMER_DEFAULT_SELECT = '*,subreseller';

/** The `subreseller` object of a network owner: the customer row itself, seen through `isSubreseller`. */
const subresellerResource = defineResource({
  name: 'subreseller',
  table: customers,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    since: { kind: 'scalar', type: 'datetime', sql: t.subresellerSince },
  }),
});

/** Searchable and selectable fields of `customer` (spec 3 "Customer"). `adnetworkApiKey` is a secret and never listed. */
export const customerResource = defineResource({
  name: 'customer',
  table: customers,
  tenant: (t) => t.id,
  fields: (t) => {
    const { table: owner, from: ownerFrom } = aliasedTable(customers, 'owner_subreseller');
    const { table: member, from: memberFrom } = aliasedTable(users, 'customer_user');
    // The tenant's own users (not a network owner's member tenants); one index range scan on app_user.customer_id.
    const overUsers = (aggregate: SQL) => sql`(select ${aggregate} from ${memberFrom} where ${member.customerId} = ${t.id})`;
    const customerId = sql`${t.id}`;
    const datasourceStorage = customerStatisticSql('currentDatasourceStorageSize', customerId);

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
      needsToBeInvoiced: { kind: 'scalar', type: 'boolean', sql: t.needsToBeInvoiced },
      licenseTier: { kind: 'scalar', type: 'enum', sql: t.licenseTier, enumValues: licenseTiers },
      resourceLimits: { kind: 'scalar', type: 'json', sql: t.resourceLimits },
      freeLicenses: { kind: 'scalar', type: 'integer', sql: t.freeLicenses },
      browserSessionLicenses: { kind: 'scalar', type: 'integer', sql: t.browserSessionLicenses },
      deviceSessionLimit: { kind: 'scalar', type: 'integer', sql: t.deviceSessionLimit },
      storageSize: { kind: 'scalar', type: 'integer', sql: t.storageSize },
      // Computed: devices assigned and approved license order amounts, contributed by their modules (customer-statistics.ts).
      activeLicenses: { kind: 'scalar', type: 'integer', selectOnly: true, sql: customerStatisticSql('activeLicenses', customerId) },
      totalLicenses: { kind: 'scalar', type: 'integer', selectOnly: true, sql: customerStatisticSql('totalLicenses', customerId) },
      // The files' bytes as the quota counts them (raised by uploads, lowered by the file delete trigger).
      currentCustomerFilesStorageSize: { kind: 'scalar', type: 'integer', sql: t.usedStorageSize },
      currentDatasourceStorageSize: { kind: 'scalar', type: 'integer', selectOnly: true, sql: datasourceStorage },
      // Not select-only: it was answered by default before datasources existed, and clients read it so.
      currentTotalCustomerStorageSize: { kind: 'scalar', type: 'integer', sql: sql`(${t.usedStorageSize} + ${datasourceStorage})` },
      ownerSubresellerId: { kind: 'scalar', type: 'integer', sql: t.ownerSubresellerId },
      ownerSubresellerName: {
        kind: 'scalar',
        type: 'string',
        selectOnly: true,
        sql: sql`(select ${owner.name} from ${ownerFrom} where ${owner.id} = ${t.ownerSubresellerId})`,
      },
      hiddenUIElementRules: { kind: 'scalar', type: 'json', sql: t.hiddenUIElementRules },
      customerMetadata: { kind: 'scalar', type: 'json', sql: t.customerMetadata },
      brandingGuideline: { kind: 'scalar', type: 'json', sql: t.brandingGuideline },
      adnetworkNetworkId: { kind: 'scalar', type: 'string', sql: t.adnetworkNetworkId },
      contentDesignerEmail: { kind: 'scalar', type: 'string', sql: t.contentDesignerEmail },
      supportEmail: { kind: 'scalar', type: 'string', sql: t.supportEmail },
      enableAutomaticDistributionToDms: { kind: 'scalar', type: 'boolean', sql: t.enableAutomaticDistributionToDms },
      // Computed from the tenant's users (server/modules/users/user-activity.queries.ts); presence time in seconds.
      totalUserLoginCount: {
        kind: 'scalar',
        type: 'integer',
        selectOnly: true,
        sql: overUsers(sql`coalesce(sum(${member.loginCount}), 0)::bigint`),
      },
      totalUserPresenceTime: {
        kind: 'scalar',
        type: 'integer',
        selectOnly: true,
        sql: overUsers(sql`coalesce(sum(${member.presenceTimeSeconds}), 0)::bigint`),
      },
      lastActivity: { kind: 'scalar', type: 'datetime', selectOnly: true, sql: overUsers(sql`max(${member.lastActivity})`) },
      lastDeviceActivity: {
        kind: 'scalar',
        type: 'datetime',
        selectOnly: true,
        sql: customerStatisticSql('lastDeviceActivity', customerId),
      },
      defaultEmergencyContentId: { kind: 'scalar', type: 'uuid', sql: t.defaultEmergencyContentId },
      defaultTimeZone: { kind: 'scalar', type: 'string', sql: t.defaultTimeZone },
      userFullAccessIfNotInTeam: { kind: 'scalar', type: 'boolean', sql: t.userFullAccessIfNotInTeam },
      accessResourcesWithoutTeam: { kind: 'scalar', type: 'boolean', sql: t.accessResourcesWithoutTeam },
      isDeviceAndGroupCreationEnabledInRootForTeamUsers: { kind: 'scalar', type: 'boolean', sql: t.deviceCreationInRootForTeamUsers },
      isContentAndGroupCreationEnabledInRootForTeamUsers: { kind: 'scalar', type: 'boolean', sql: t.contentCreationInRootForTeamUsers },
      isFileAndFolderCreationEnabledInRootForTeamUsers: { kind: 'scalar', type: 'boolean', sql: t.fileCreationInRootForTeamUsers },
      // A to-one relation (not a json scalar) so that `subreseller=!NULL` / `=NULL` can be searched.
      subreseller: relation.one(subresellerResource, {
        on: (target) => and(eq(target.id, t.id), t.isSubreseller)!,
        foreignKey: sql`case when ${t.isSubreseller} then ${t.id} end`,
      }),
      isSubreseller: { kind: 'scalar', type: 'boolean', sql: t.isSubreseller, selectable: false },
    };
  },
});
