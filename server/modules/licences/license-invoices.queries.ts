import { and, eq, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { customers } from '@/server/tenant/customers.table';
import type { LicenseTierCounts } from './license-invoices.schemas';
import type { LicenseType, RecurrenceType } from './licences.schemas';
import { licenseOrders } from './licences.table';

/*
 * The invoice views' SQL (spec 3, the paragraph after "License order"). Every sum is PostgreSQL numeric: prices are
 * numeric(14,4), and the amounts leave the database as decimal text, converted to JSON numbers only at the edge.
 */

const o = licenseOrders;

/** Decimal places of `monthlyAverage` (spec 5 §6: rounded to cents only when shown). */
const MONTHLY_AVERAGE_SCALE = 6;

/**
 * An order's monthly recurring revenue: price × licences × the spec's multiplier (DAILY 30/f, WEEKLY 4.333333/f,
 * MONTHLY 1/f, YEARLY f/12, literally). The dividend is widened to 30 decimal places first, so the division keeps
 * them (numeric division otherwise keeps about 16 significant digits) and only the final sum is rounded.
 */
const monthlyRevenue = sql`case ${o.recurrenceType}
  when 'DAILY' then round(${o.pricePerDevice} * ${o.deviceLicenseCount} * 30, 30) / ${o.recurrenceFrequency}
  when 'WEEKLY' then round(${o.pricePerDevice} * ${o.deviceLicenseCount} * 4.333333, 30) / ${o.recurrenceFrequency}
  when 'MONTHLY' then round(${o.pricePerDevice} * ${o.deviceLicenseCount}, 30) / ${o.recurrenceFrequency}
  when 'YEARLY' then round(${o.pricePerDevice} * ${o.deviceLicenseCount} * ${o.recurrenceFrequency}, 30) / 12
end`;

const monthlyAverageText = sql<string>`round(sum(${monthlyRevenue}), ${sql.raw(String(MONTHLY_AVERAGE_SCALE))})::text`;

/**
 * The orders an invoice on `date` counts: approved SUBSCRIPTIONs whose invoice start is not set or on or before the
 * date. One without a price or currency has nothing to invoice and is left out (as is a recurrence-less one, which
 * approval already refuses).
 */
function invoiceable(date: Date): SQL {
  return and(
    eq(o.approved, true),
    eq(o.licensePayType, 'SUBSCRIPTION'),
    isNotNull(o.recurrenceType),
    isNotNull(o.recurrenceFrequency),
    isNotNull(o.pricePerDevice),
    isNotNull(o.currency),
    or(isNull(o.invoiceStartDate), lte(o.invoiceStartDate, date)),
  )!;
}

type RevenueRow = { currency: string; monthlyAverage: string };

/** The global view's statement (unexecuted, so the benchmark can EXPLAIN it): revenue per currency over every customer. */
export function revenueByCurrencyQuery(db: Executor, date: Date) {
  const currency = sql<string>`${o.currency}`;

  return db
    .select({ currency, monthlyAverage: monthlyAverageText })
    .from(o)
    .where(invoiceable(date))
    .groupBy(o.currency)
    .orderBy(o.currency);
}

/** The global view: monthly recurring revenue per currency over every customer's orders. */
export async function sumRevenueByCurrency(db: Executor, date: Date): Promise<RevenueRow[]> {
  return revenueByCurrencyQuery(db, date);
}

type InvoiceCustomer = { id: number; isNetworkOwner: boolean };

export async function findInvoiceCustomer(db: Executor, id: number): Promise<InvoiceCustomer | undefined> {
  const [row] = await db
    .select({ id: customers.id, isNetworkOwner: customers.isSubreseller })
    .from(customers)
    .where(eq(customers.id, id))
    .limit(1);

  return row;
}

/**
 * Which part of the invoice a row of `sumInvoice` belongs to: `total` (every counted order), `owner` (the network
 * owner's own orders), `members` (its members' orders together), or `revenue` (per currency only).
 */
export type InvoicePart = 'total' | 'owner' | 'members' | 'revenue';

export type InvoiceRow = {
  part: InvoicePart;
  currency: string;
  recurrenceType: RecurrenceType | null;
  frequency: number | null;
  licenseType: LicenseType | null;
  price: string | null;
  quantity: string;
  monthlyAverage: string;
};

/**
 * One statement for a customer's whole invoice: GROUPING SETS give the item lines of the total, of the owner's and
 * the members' orders (a network owner only), and the revenue per currency. Lines are ordered by recurrence type
 * (DAILY … YEARLY), frequency, currency, licence type (spec order) and price.
 */
export async function sumInvoice(db: Executor, input: { customer: InvoiceCustomer; date: Date }): Promise<InvoiceRow[]> {
  const { customer, date } = input;
  // The id as a literal, not a parameter: PostgreSQL matches the grouped expression to the selected one by its text.
  const side = sql`case when ${o.customerId} = ${sql.raw(String(Math.trunc(customer.id)))} then 'owner' else 'members' end`;
  const line = sql`${o.recurrenceType}, ${o.recurrenceFrequency}, ${o.currency}, ${o.licenseType}, ${o.pricePerDevice}`;
  const members = db.select({ id: customers.id }).from(customers).where(eq(customers.ownerSubresellerId, customer.id));
  const whose = customer.isNetworkOwner ? or(eq(o.customerId, customer.id), inArray(o.customerId, members)) : eq(o.customerId, customer.id);
  const sets = customer.isNetworkOwner ? sql`(${side}, ${line}), (${line}), (${o.currency})` : sql`(${line}), (${o.currency})`;
  // grouping() is 1 for a column rolled up in the row's set: the recurrence and the side tell the sets apart.
  const part = customer.isNetworkOwner
    ? sql<InvoicePart>`case when grouping(${o.recurrenceType}) = 1 then 'revenue' when grouping(${side}) = 1 then 'total' else ${side} end`
    : sql<InvoicePart>`case when grouping(${o.recurrenceType}) = 1 then 'revenue' else 'total' end`;

  return db
    .select({
      part,
      currency: sql<string>`${o.currency}`,
      recurrenceType: o.recurrenceType,
      frequency: o.recurrenceFrequency,
      licenseType: o.licenseType,
      price: sql<string | null>`${o.pricePerDevice}::text`,
      quantity: sql<string>`sum(${o.deviceLicenseCount})::text`,
      monthlyAverage: monthlyAverageText,
    })
    .from(o)
    .where(and(invoiceable(date), whose))
    .groupBy(sql`grouping sets (${sets})`)
    .orderBy(
      sql`${part}`,
      sql`array_position(array['DAILY','WEEKLY','MONTHLY','YEARLY'], ${o.recurrenceType})`,
      o.recurrenceFrequency,
      o.currency,
      sql`array_position(array['BASIC','PROFESSIONAL','DBA','ENTERPRISE','VIDEO_WALL'], ${o.licenseType})`,
      o.pricePerDevice,
    );
}

/** How many of the network owner's members have each licence tier (zeros for a customer with no members). */
export async function countMemberTiers(db: Executor, networkOwnerId: number): Promise<LicenseTierCounts> {
  const tierCount = (tier: string) => sql<number>`count(*) filter (where ${customers.licenseTier} = ${tier})::int`;
  const [row] = await db
    .select({ STARTER: tierCount('STARTER'), BUSINESS: tierCount('BUSINESS'), ENTERPRISE: tierCount('ENTERPRISE') })
    .from(customers)
    .where(eq(customers.ownerSubresellerId, networkOwnerId));

  return { STARTER: Number(row?.STARTER ?? 0), BUSINESS: Number(row?.BUSINESS ?? 0), ENTERPRISE: Number(row?.ENTERPRISE ?? 0) };
}
