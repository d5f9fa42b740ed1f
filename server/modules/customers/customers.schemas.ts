import { z } from '@hono/zod-openapi';
import { projected } from '@/server/query/projection.schemas';
import { clearable, orNull, updateBody } from '@/server/http/update-body';
import { emailAddress, ianaTimeZone, intId, MAX_INT32, resourceName } from '@/server/http/wire.schemas';
import { builtInLimits, resourceKeys } from '@/server/modules/resource-limits/resource-keys.schemas';

export { licenseTiers, verticals } from '@/server/tenant/tenant.schemas';
import { licenseTiers, verticals } from '@/server/tenant/tenant.schemas';

/** Fields only ADMIN may write (spec 3 "Customer"); a network owner sending one gets 403. */
export const adminOnlyCustomerFields = [
  'needsToBeInvoiced',
  'resourceLimits',
  'freeLicenses',
  'browserSessionLicenses',
  'deviceSessionLimit',
  'storageSize',
] as const;

const dateTime = z.string().openapi({ format: 'date-time' });
const jsonObject = z.record(z.string(), z.unknown());

const ResourceLimitsSchema = z
  .object({
    // Each resource by its key, up to its maximum: the document lists them, so a form knows them (an unknown key or
    // a value above the maximum was a 400 no schema stated).
    overrides: z
      .object(Object.fromEntries(resourceKeys.map((key) => [key, z.number().int().min(0).max(builtInLimits[key].maxLimit).optional()])))
      .strict(),
  })
  .openapi('CustomerResourceLimits', {
    description: 'Per-customer limits of an ENTERPRISE customer; an omitted key inherits the BUSINESS limit',
  });

const SubresellerSchema = z
  .object({ id: intId, since: dateTime.optional() })
  .openapi('Subreseller', { description: 'Present when the customer is a network owner' });

export const CustomerSchema = projected(
  z.object({
    id: intId,
    name: z.string(),
    comment: z.string().optional(),
    country: z.string().optional(),
    location: z.string().optional(),
    type: z.string().optional(),
    vertical: z.enum(verticals).optional(),
    createdDate: dateTime.optional(),
    restricted: z.boolean().optional(),
    expirationDate: dateTime.optional(),
    force2FA: z.boolean().optional(),
    needsToBeInvoiced: z.boolean().optional(),
    licenseTier: z.enum(licenseTiers).optional(),
    resourceLimits: ResourceLimitsSchema.optional(),
    freeLicenses: z.number().int().optional(),
    browserSessionLicenses: z.number().int().optional(),
    deviceSessionLimit: z.number().int().optional().openapi({ description: '0 = unlimited' }),
    storageSize: z.number().int().optional().openapi({ description: 'Quota in bytes; absent = unlimited' }),
    activeLicenses: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'Computed: devices holding a licence of a licence order; returned when named in select' }),
    totalLicenses: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'Computed: sum of approved license order amounts; returned when named in select' }),
    currentCustomerFilesStorageSize: z.number().int().optional().openapi({ description: 'Bytes of stored media files (computed)' }),
    currentDatasourceStorageSize: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'Bytes stored by datasources (computed); returned when named in select' }),
    currentTotalCustomerStorageSize: z.number().int().optional().openapi({ description: 'Files plus datasource bytes (computed)' }),
    ownerSubresellerId: intId.optional(),
    ownerSubresellerName: z.string().optional().openapi({ description: 'Computed; returned when named in select' }),
    hiddenUIElementRules: jsonObject.optional(),
    customerMetadata: jsonObject.optional(),
    brandingGuideline: jsonObject.optional(),
    adnetworkNetworkId: z.string().optional(),
    contentDesignerEmail: z.string().optional(),
    supportEmail: z.string().optional(),
    enableAutomaticDistributionToDms: z.boolean().optional(),
    totalUserLoginCount: z
      .number()
      .int()
      .optional()
      .openapi({ description: "Computed: successful sign-ins of the customer's users; returned when named in select" }),
    totalUserPresenceTime: z
      .number()
      .int()
      .optional()
      .openapi({ description: "Computed: seconds the customer's users were active; returned when named in select" }),
    lastActivity: dateTime
      .optional()
      .openapi({ description: "Computed: the latest activity of the customer's users; returned when named in select" }),
    lastDeviceActivity: dateTime
      .optional()
      .openapi({ description: "Computed: the latest activity of the customer's devices; returned when named in select" }),
    defaultEmergencyContentId: z.string().optional(),
    defaultTimeZone: z
      .string()
      .optional()
      .openapi({ description: 'The time zone proposed when a device is claimed (settings/devices); absent when none is set' }),
    userFullAccessIfNotInTeam: z.boolean().optional(),
    accessResourcesWithoutTeam: z.boolean().optional(),
    isDeviceAndGroupCreationEnabledInRootForTeamUsers: z.boolean().optional(),
    isContentAndGroupCreationEnabledInRootForTeamUsers: z.boolean().optional(),
    isFileAndFolderCreationEnabledInRootForTeamUsers: z.boolean().optional(),
    subreseller: SubresellerSchema.optional(),
  }),
).openapi('Customer');

const email = emailAddress;

/** Attributes a create and an update share; ADMIN-only ones are checked by the service. */
const writable = {
  comment: z.string().max(2000).optional(),
  country: z.string().max(255).optional(),
  location: z.string().max(255).optional(),
  type: z.string().max(255).optional(),
  vertical: z.enum(verticals).optional(),
  licenseTier: z.enum(licenseTiers).optional(),
  force2FA: z.boolean().optional(),
  needsToBeInvoiced: z.boolean().optional().openapi({ description: 'ADMIN only' }),
  freeLicenses: z.number().int().min(0).max(MAX_INT32).optional().openapi({ description: 'ADMIN only' }),
  browserSessionLicenses: z.number().int().min(0).max(MAX_INT32).optional().openapi({ description: 'ADMIN only' }),
  deviceSessionLimit: z.number().int().min(0).max(MAX_INT32).optional().openapi({ description: 'ADMIN only; 0 = unlimited' }),
  enableAutomaticDistributionToDms: z.boolean().optional(),
};

/** Attributes that may have no value: null (or absent) on create; on update `""` removes the value. */
const removable = {
  expirationDate: z.iso.datetime({ offset: true }),
  resourceLimits: ResourceLimitsSchema,
  storageSize: z.number().int().min(0).openapi({ description: 'ADMIN only; no value = unlimited' }),
  hiddenUIElementRules: jsonObject,
  customerMetadata: jsonObject,
  brandingGuideline: jsonObject,
  adnetworkNetworkId: z.string().max(255),
  adnetworkApiKey: z.string().max(1000).openapi({ description: 'Secret: write-only, never returned' }),
  contentDesignerEmail: email,
  supportEmail: email,
};

export const CustomerCreateSchema = z
  .object({
    name: resourceName,
    ...writable,
    expirationDate: removable.expirationDate.nullable().optional(),
    resourceLimits: orNull(removable.resourceLimits).optional().openapi({ description: 'ADMIN only' }),
    storageSize: removable.storageSize.nullable().optional(),
    hiddenUIElementRules: removable.hiddenUIElementRules.nullable().optional(),
    customerMetadata: removable.customerMetadata.nullable().optional(),
    brandingGuideline: removable.brandingGuideline.nullable().optional(),
    adnetworkNetworkId: removable.adnetworkNetworkId.nullable().optional(),
    adnetworkApiKey: removable.adnetworkApiKey.nullable().optional(),
    contentDesignerEmail: removable.contentDesignerEmail.nullable().optional(),
    supportEmail: removable.supportEmail.nullable().optional(),
    createAsSubreseller: z.boolean().optional().openapi({ description: 'ADMIN only: create the customer as a network owner' }),
    ownerSubresellerId: intId.optional().openapi({ description: 'ADMIN only: the network owner the customer belongs to' }),
  })
  .openapi('CustomerCreate');

export const CustomerUpdateSchema = updateBody('CustomerUpdate', {
  name: resourceName,
  restricted: z.boolean().openapi({ description: 'true blocks all access and revokes the tokens of all its users at once' }),
  ...writable,
  expirationDate: clearable(removable.expirationDate),
  resourceLimits: clearable(removable.resourceLimits, 'ADMIN only'),
  storageSize: clearable(removable.storageSize),
  hiddenUIElementRules: clearable(removable.hiddenUIElementRules),
  customerMetadata: clearable(removable.customerMetadata),
  brandingGuideline: clearable(removable.brandingGuideline),
  adnetworkNetworkId: clearable(removable.adnetworkNetworkId),
  adnetworkApiKey: clearable(removable.adnetworkApiKey),
  contentDesignerEmail: clearable(removable.contentDesignerEmail),
  supportEmail: clearable(removable.supportEmail),
});

export const TeamSettingsSchema = updateBody('CustomerTeamSettings', {
  userFullAccessIfNotInTeam: z.boolean(),
  accessResourcesWithoutTeam: z.boolean(),
  isDeviceAndGroupCreationEnabledInRootForTeamUsers: z.boolean(),
  isContentAndGroupCreationEnabledInRootForTeamUsers: z.boolean(),
  isFileAndFolderCreationEnabledInRootForTeamUsers: z.boolean(),
});

/** PUT /api/customer/settings/devices: what the console proposes when a device is claimed. */
export const DeviceSettingsSchema = updateBody('CustomerDeviceSettings', {
  defaultTimeZone: clearable(
    ianaTimeZone,
    'The time zone proposed when a device is claimed; `""` removes it (the console then proposes the browser\'s)',
  ),
});

export type CustomerCreate = z.infer<typeof CustomerCreateSchema>;
export type CustomerUpdate = z.infer<typeof CustomerUpdateSchema>;
export type TeamSettings = z.infer<typeof TeamSettingsSchema>;
export type DeviceSettings = z.infer<typeof DeviceSettingsSchema>;
export type Customer = z.infer<typeof CustomerSchema>;
