import { z } from '@hono/zod-openapi';
import { clearable, updateBody } from '@/server/http/update-body';
import { combinationIssue, intId, resourceName } from '@/server/http/wire.schemas';

/*
 * Wire shapes of licence orders and packages (spec 3 "License order", "License orders and invoices"; spec 5 §6).
 * No server imports: the console imports these for its forms and types.
 */

/** Spec 3 "License order" `licenseType` (DBA is the legacy Broadcaster). */
export const licenseTypes = ['BASIC', 'PROFESSIONAL', 'DBA', 'ENTERPRISE', 'VIDEO_WALL'] as const;
/** Spec 3 Device `licenseStatus` (the devices module's column, the dashboard's counts). */
export const licenseStatuses = ['UN_LICENSED', 'FREE', 'LICENSED', 'TRIAL'] as const;
export const licensePayTypes = ['SUBSCRIPTION', 'ONETIME'] as const;
export const recurrenceTypes = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;

export type LicenseType = (typeof licenseTypes)[number];
export type RecurrenceType = (typeof recurrenceTypes)[number];
type LicensePayType = (typeof licensePayTypes)[number];

/** The largest price the numeric(14,4) column holds, with room: ten digits before the point. */
const MAX_PRICE = 9_999_999_999;
/** The largest count of licences one order grants (a sanity cap far above any real order). */
const MAX_DEVICE_LICENSE_COUNT = 1_000_000;
const MAX_FREQUENCY = 1000;

const licenseType = z
  .enum(licenseTypes)
  .openapi({ description: 'BASIC = Lite, PROFESSIONAL, DBA = Broadcaster (legacy), ENTERPRISE = Premium, VIDEO_WALL' });
const licensePayType = z.enum(licensePayTypes);
const pricePerDevice = z
  .number()
  .min(0)
  .max(MAX_PRICE)
  .openapi({ description: 'Per device and recurrence period; kept exactly to 4 decimal places (finer digits are rounded)', example: 12.5 });
const currency = z
  .string()
  .regex(/^[A-Za-z]{3}$/)
  .transform((value) => value.toUpperCase())
  .openapi({ description: 'An ISO 4217 code (three letters, kept in upper case)', example: 'EUR', pattern: '^[A-Za-z]{3}$' });
const deviceLicenseCount = z.number().int().min(1).max(MAX_DEVICE_LICENSE_COUNT);
const orderDate = z.iso.datetime({ offset: true }).openapi({ description: 'ISO-8601', example: '2026-11-01T00:00:00.000Z' });
const comment = z.string().max(4000);
const poNumber = z.string().max(255);
const invoiceSystemId = z.string().max(255);
const isoDateTime = z.string().openapi({ format: 'date-time' });

export const RecurrenceSchema = z
  .object({
    recurrenceType: z.enum(recurrenceTypes),
    frequency: z.number().int().min(1).max(MAX_FREQUENCY).openapi({ description: 'Every `frequency` periods' }),
  })
  .openapi('LicenseRecurrence', { description: 'How often a SUBSCRIPTION is invoiced: every `frequency` days, weeks, months or years' });

export type Recurrence = z.infer<typeof RecurrenceSchema>;

type Template = {
  licenseType?: LicenseType | null;
  licensePayType?: LicensePayType | null;
  recurrence?: Recurrence | null;
  pricePerDevice?: number | null;
  currency?: string | null;
};

type IssueSink = Parameters<typeof combinationIssue>[0];

/**
 * The rules between the fields of a template (a package, or an order without one): a recurrence exactly for a
 * SUBSCRIPTION, a price only with its currency. `complete`: the type and the pay type are required too.
 */
function templateIssues(value: Template, ctx: IssueSink, options: { complete: boolean }): void {
  if (options.complete && !value.licenseType) combinationIssue(ctx, ['licenseType'], 'licenseType is required without a licensePackageId');
  if (options.complete && !value.licensePayType)
    combinationIssue(ctx, ['licensePayType'], 'licensePayType is required without a licensePackageId');
  if (value.licensePayType === 'SUBSCRIPTION' && !value.recurrence)
    combinationIssue(ctx, ['recurrence'], 'A SUBSCRIPTION needs its recurrence');
  if (value.licensePayType === 'ONETIME' && value.recurrence) combinationIssue(ctx, ['recurrence'], 'A ONETIME order has no recurrence');
  if ((value.pricePerDevice ?? null) !== null && !value.currency) combinationIssue(ctx, ['currency'], 'A price needs its currency');
}

// ---------------------------------------------------------------------------------------------------------------
// Packages

const packageFields = {
  name: resourceName.openapi({ description: 'Unique; 1 to 255 characters' }),
  licenseType,
  licensePayType,
  recurrence: RecurrenceSchema.optional().openapi({ description: 'Required for a SUBSCRIPTION, refused for ONETIME' }),
  pricePerDevice: pricePerDevice.optional(),
  currency: currency.optional().openapi({ description: 'Required with a price' }),
};

export const LicensePackageCreateSchema = z
  .object(packageFields)
  .superRefine((value, ctx) => templateIssues(value, ctx, { complete: true }))
  .openapi('LicensePackageCreate', {
    description: 'A recurrence exactly for a SUBSCRIPTION; a price only with its currency (400 `request.error.invalidCombination`)',
  });

export const LicensePackageUpdateSchema = updateBody(
  'LicensePackageUpdate',
  {
    name: packageFields.name,
    licenseType,
    licensePayType,
    recurrence: RecurrenceSchema,
    pricePerDevice: clearable(pricePerDevice),
    currency: clearable(currency),
  },
  'The result must keep the create rules (400 `request.error.invalidCombination`); changing the pay type to ONETIME removes the recurrence. Orders made from the package keep their copies.',
);

export type LicensePackageCreate = z.infer<typeof LicensePackageCreateSchema>;
export type LicensePackageUpdate = z.infer<typeof LicensePackageUpdateSchema>;

export const LicensePackageSchema = z
  .object({
    id: intId,
    name: z.string().optional(),
    licenseType: licenseType.optional(),
    licensePayType: licensePayType.optional(),
    recurrence: RecurrenceSchema.optional(),
    pricePerDevice: z.number().optional(),
    currency: z.string().optional(),
    createdDate: isoDateTime.optional(),
  })
  .openapi('LicensePackage');

export type LicensePackage = z.infer<typeof LicensePackageSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Orders

const ref = (name: string, shape: z.ZodRawShape) => z.object(shape).openapi(name);
const UserRefSchema = ref('LicenseOrderUser', { id: z.string(), name: z.string().optional(), email: z.string().optional() });

export const LicenseOrderSchema = z
  .object({
    id: intId,
    customerId: intId.optional(),
    customer: ref('LicenseOrderCustomer', { id: intId, name: z.string().optional() }).optional(),
    orderDate: isoDateTime.optional(),
    createDate: isoDateTime.optional(),
    deviceLicenseCount: z.number().int().optional(),
    pricePerDevice: z.number().optional(),
    currency: z.string().optional(),
    comment: z.string().optional(),
    poNumber: z.string().optional(),
    approved: z.boolean().optional(),
    approveDate: isoDateTime.optional(),
    invoiceStartDate: isoDateTime.optional(),
    licenseType: licenseType.optional(),
    licensePayType: licensePayType.optional(),
    recurrence: RecurrenceSchema.optional(),
    managedInInvoiceSystem: z.boolean().optional(),
    invoiceSystemId: z.string().optional(),
    licensePackageId: intId.optional(),
    licensePackage: ref('LicenseOrderPackage', {
      id: intId,
      name: z.string().optional(),
      licenseType: licenseType.optional(),
      licensePayType: licensePayType.optional(),
      pricePerDevice: z.number().optional(),
      currency: z.string().optional(),
    }).optional(),
    approvedByUser: UserRefSchema.optional(),
    soldByUser: UserRefSchema.optional().openapi({ description: 'The user who created the order' }),
    assignedDeviceCount: z.number().int().optional().openapi({ description: 'Devices holding a licence of the order' }),
  })
  .openapi('LicenseOrder');

export type LicenseOrder = z.infer<typeof LicenseOrderSchema>;

/** The fields of spec 3's limited customer view, exactly. */
export const LIMITED_VIEW_FIELDS = [
  'id',
  'licenseType',
  'licensePayType',
  'recurrence',
  'orderDate',
  'comment',
  'deviceLicenseCount',
  'assignedDeviceCount',
  'approved',
  'poNumber',
] as const;

export const LicenseOrderLimitedSchema = z
  .object({
    id: intId,
    licenseType: licenseType.optional(),
    licensePayType: licensePayType.optional(),
    recurrence: RecurrenceSchema.optional(),
    orderDate: isoDateTime.optional(),
    comment: z.string().optional(),
    deviceLicenseCount: z.number().int().optional(),
    assignedDeviceCount: z.number().int().optional(),
    approved: z.boolean().optional(),
    poNumber: z.string().optional(),
  })
  .openapi('LicenseOrderLimited', { description: "Spec 3's limited customer view of a licence order" });

export type LicenseOrderLimited = z.infer<typeof LicenseOrderLimitedSchema>;

export const LicenseOrderCustomerCreateSchema = z
  .object({
    orderDate,
    deviceLicenseCount,
    licensePackageId: intId.optional().openapi({ description: 'A package: the order takes its type, pay type, recurrence and price' }),
    licenseType: licenseType.optional().openapi({
      description: 'The type asked for, without a package (an extension of the spec; the ADMIN may change it before approving)',
    }),
    comment: comment.optional(),
    poNumber: poNumber.optional(),
  })
  .openapi('LicenseOrderCustomerCreate');

export type LicenseOrderCustomerCreate = z.infer<typeof LicenseOrderCustomerCreateSchema>;

const adminFields = {
  orderDate,
  deviceLicenseCount,
  licensePackageId: intId
    .optional()
    .openapi({ description: "A package: its type, pay type, recurrence, price and currency are used (the body's are ignored)" }),
  licenseType: licenseType.optional(),
  licensePayType: licensePayType.optional(),
  recurrence: RecurrenceSchema.optional(),
  pricePerDevice: pricePerDevice.optional(),
  currency: currency.optional(),
  comment: comment.optional(),
  poNumber: poNumber.optional(),
  approved: z.boolean().optional().openapi({ description: 'true: created approved (approveDate and approvedByUser set)' }),
  invoiceStartDate: z.iso.datetime({ offset: true }).optional(),
  managedInInvoiceSystem: z.boolean().optional(),
  invoiceSystemId: invoiceSystemId.optional(),
};

export const LicenseOrderCreateSchema = z
  .object(adminFields)
  .superRefine((value, ctx) => {
    if (value.licensePackageId === undefined) templateIssues(value, ctx, { complete: true });
  })
  .openapi('LicenseOrderCreate', {
    description:
      'Without `licensePackageId`, `licenseType` and `licensePayType` are required, and `recurrence` for a SUBSCRIPTION (refused for ONETIME); a price needs its currency (400 `request.error.invalidCombination`).',
  });

export type LicenseOrderCreate = z.infer<typeof LicenseOrderCreateSchema>;

/** What stays changeable once an order is approved (with `approved: true` itself, which changes nothing then). */
export const MUTABLE_WHEN_APPROVED = ['comment', 'invoiceStartDate', 'managedInInvoiceSystem', 'invoiceSystemId'] as const;

export const LicenseOrderUpdateSchema = updateBody(
  'LicenseOrderUpdate',
  {
    orderDate,
    deviceLicenseCount,
    licensePackageId: clearable(intId, 'A package: its type, pay type, recurrence, price and currency replace the order’s'),
    licenseType,
    licensePayType,
    recurrence: RecurrenceSchema,
    pricePerDevice: clearable(pricePerDevice),
    currency: clearable(currency),
    comment: clearable(comment),
    poNumber: clearable(poNumber),
    approved: z
      .boolean()
      .openapi({ description: 'true approves the order (sets approveDate and approvedByUser); an approved order stays approved' }),
    invoiceStartDate: clearable(z.iso.datetime({ offset: true })),
    managedInInvoiceSystem: z.boolean(),
    invoiceSystemId: clearable(invoiceSystemId),
  },
  'ADMIN. An approved order keeps everything but `comment`, `invoiceStartDate`, `managedInInvoiceSystem` and `invoiceSystemId` (409 `licenseOrder.error.approvedImmutable` for a change of anything else). Approving needs the type and pay type (and the recurrence of a SUBSCRIPTION): 409 `licenseOrder.error.incomplete`. Changing the pay type to ONETIME removes the recurrence.',
);

export type LicenseOrderUpdate = z.infer<typeof LicenseOrderUpdateSchema>;

export const UnapprovedCountSchema = z
  .number()
  .int()
  .min(0)
  .openapi('UnapprovedLicenseOrderCount', { description: 'Unapproved licence orders in the caller’s scope', example: 3 });

const count = (description: string) => z.number().int().min(0).openapi({ description });

const LicenseTypeCountSchema = z
  .object({
    ordered: count('Licences of this type in the approved orders'),
    assigned: count('Devices of the customer holding a licence of an approved order of this type'),
    free: count('ordered − assigned, never below 0'),
  })
  .openapi('LicenseTypeCount');

export const LicenseDashboardSchema = z
  .object({
    totalLicenseCount: count('Licences of the approved orders (the customer’s `totalLicenses`)'),
    assignedLicenseCount: count('Devices of the customer holding a licence of one of its approved orders'),
    unAssignedLicenseCount: count('total − assigned, never below 0'),
    deviceStatusCounts: z
      .object({
        UN_LICENSED: count('Devices with licenseStatus UN_LICENSED'),
        FREE: count('Devices with licenseStatus FREE'),
        LICENSED: count('Devices with licenseStatus LICENSED'),
        TRIAL: count('Devices with licenseStatus TRIAL'),
      })
      .openapi({ description: 'The customer’s devices by `licenseStatus`; every status is present' }),
    licenseTypeCounts: z
      .object({
        BASIC: LicenseTypeCountSchema,
        PROFESSIONAL: LicenseTypeCountSchema,
        DBA: LicenseTypeCountSchema,
        ENTERPRISE: LicenseTypeCountSchema,
        VIDEO_WALL: LicenseTypeCountSchema,
      })
      .openapi({ description: 'Per licence type (the order’s type); every type is present' }),
    browserSessionLimit: count('The customer’s `deviceSessionLimit`: devices that may be connected at once, 0 = unlimited'),
    activeBrowserSessionCount: count('Devices of the customer connected (WebSocket) right now'),
    freeCount: count('The customer’s `freeLicenses`'),
    usedFreeCount: count('Devices with licenseStatus FREE'),
  })
  .openapi('LicenseDashboard', { description: "A customer's licence dashboard (spec 3); every count computed from orders and devices" });

export type LicenseDashboard = z.infer<typeof LicenseDashboardSchema>;
