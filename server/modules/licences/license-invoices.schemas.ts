import { z } from '@hono/zod-openapi';
import type { LicenseTier } from '@/server/tenant/tenant.schemas';
import { licenseTypes, RecurrenceSchema } from './licences.schemas';

/*
 * Wire shapes of the invoice views (spec 3, the paragraph after "License order"; spec 5 §6). No server imports: the
 * console imports these for its types.
 */

export const InvoiceQuerySchema = z.object({
  date: z.iso.datetime({ offset: true }).openapi({
    param: { name: 'date', in: 'query' },
    description: 'ISO-8601 date-time (required): orders whose invoice start is on or before it (or not set) are counted',
    example: '2026-12-01T00:00:00.000Z',
  }),
});

const RecurringRevenueSchema = z
  .object({
    currency: z.string().openapi({ example: 'EUR' }),
    monthlyAverage: z.number().openapi({
      description: 'Monthly recurring revenue in the currency, exact to 6 decimal places (rounded to cents only when shown)',
      example: 59.5,
    }),
  })
  .openapi('RecurringRevenue');

const InvoiceItemSchema = z
  .object({
    licenseType: z.enum(licenseTypes),
    quantity: z.number().int().openapi({ description: 'Licences at this price: the sum of the orders’ `deviceLicenseCount`' }),
    price: z.number().openapi({ description: 'The price per device and recurrence period (exact to 4 decimal places)' }),
  })
  .openapi('InvoiceItem', { description: 'One line: `quantity` licences of a type at one unit `price`' });

const InvoiceTableSchema = z
  .object({
    recurrence: RecurrenceSchema,
    currency: z.string(),
    items: z.array(InvoiceItemSchema),
  })
  .openapi('InvoiceTable', { description: 'The invoiced licences of one recurrence in one currency' });

const LicenseTierCountsSchema = z
  .object({ STARTER: z.number().int(), BUSINESS: z.number().int(), ENTERPRISE: z.number().int() } satisfies Record<
    LicenseTier,
    z.ZodNumber
  >)
  .openapi('LicenseTierCounts', { description: 'How many of the network’s members have each licence tier' });

export const GlobalInvoiceSchema = z
  .object({ recurringRevenueList: z.array(RecurringRevenueSchema).openapi({ description: 'One entry per currency, by currency code' }) })
  .openapi('GlobalInvoice');

export const CustomerInvoiceSchema = z
  .object({
    recurringRevenueList: z
      .array(RecurringRevenueSchema)
      .openapi({ description: 'Per currency, over the orders of `totalInvoiceTables` (a network owner: its own and its members’)' }),
    totalInvoiceTables: z.array(InvoiceTableSchema).openapi({
      description: 'Everything invoiced to the customer: its own orders and, for a network owner, its members’ orders',
    }),
    networkOwnerInvoiceTables: z
      .array(InvoiceTableSchema)
      .openapi({ description: 'A network owner’s own orders (empty for a customer that is no network owner)' }),
    networkMembersInvoiceTables: z
      .array(InvoiceTableSchema)
      .openapi({ description: 'The orders of a network owner’s members together (empty for a customer that is no network owner)' }),
    networkMemberLicenseTierCounts: LicenseTierCountsSchema,
  })
  .openapi('CustomerInvoice');

export type RecurringRevenue = z.infer<typeof RecurringRevenueSchema>;
export type InvoiceTable = z.infer<typeof InvoiceTableSchema>;
export type LicenseTierCounts = z.infer<typeof LicenseTierCountsSchema>;
export type GlobalInvoice = z.infer<typeof GlobalInvoiceSchema>;
export type CustomerInvoice = z.infer<typeof CustomerInvoiceSchema>;
