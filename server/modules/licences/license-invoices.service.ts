import type { ServiceContext } from '@/server/context/service-context';
import { NotFoundError } from '@/server/errors';
import * as q from './license-invoices.queries';
import type { CustomerInvoice, GlobalInvoice, InvoiceTable, RecurringRevenue } from './license-invoices.schemas';

/*
 * The invoice views (spec 3, the paragraph after "License order"): ADMIN only, by the route. The sums are the
 * database's (license-invoices.queries.ts); this file only shapes its rows and turns decimal text into JSON numbers.
 */

const NO_TIERS = { STARTER: 0, BUSINESS: 0, ENTERPRISE: 0 };

/** GET /api/customer/global/view/invoice: monthly recurring revenue per currency over every customer. */
export async function getGlobalInvoice(ctx: ServiceContext, input: { date: string }): Promise<GlobalInvoice> {
  const rows = await q.sumRevenueByCurrency(ctx.db, new Date(input.date));

  return { recurringRevenueList: rows.map(revenueOf) };
}

/**
 * GET /api/customer/{customerId}/view/invoice: the customer's revenue and invoice tables; a network owner's also
 * split into its own and its members' orders, with its members' licence tiers. 404 for an unknown customer.
 */
export async function getCustomerInvoice(ctx: ServiceContext, input: { customerId: number; date: string }): Promise<CustomerInvoice> {
  const customer = await q.findInvoiceCustomer(ctx.db, input.customerId);
  if (!customer) throw new NotFoundError('customer', input.customerId);
  const rows = await q.sumInvoice(ctx.db, { customer, date: new Date(input.date) });
  const tiers = customer.isNetworkOwner ? await q.countMemberTiers(ctx.db, customer.id) : NO_TIERS;

  return {
    recurringRevenueList: rows.filter((row) => row.part === 'revenue').map(revenueOf),
    totalInvoiceTables: tablesOf(rows, 'total'),
    networkOwnerInvoiceTables: tablesOf(rows, 'owner'),
    networkMembersInvoiceTables: tablesOf(rows, 'members'),
    networkMemberLicenseTierCounts: tiers,
  };
}

function revenueOf(row: { currency: string; monthlyAverage: string }): RecurringRevenue {
  return { currency: row.currency, monthlyAverage: Number(row.monthlyAverage) };
}

/** The item lines of one part, one table per recurrence and currency, in the order the query gives them. */
function tablesOf(rows: q.InvoiceRow[], part: q.InvoicePart): InvoiceTable[] {
  const tables = new Map<string, InvoiceTable>();
  for (const row of rows) {
    if (row.part !== part || row.recurrenceType === null || row.frequency === null || row.licenseType === null) continue;
    const key = `${row.recurrenceType}/${row.frequency}/${row.currency}`;
    let table = tables.get(key);
    if (!table) {
      table = { recurrence: { recurrenceType: row.recurrenceType, frequency: row.frequency }, currency: row.currency, items: [] };
      tables.set(key, table);
    }
    table.items.push({ licenseType: row.licenseType, quantity: Number(row.quantity), price: Number(row.price) });
  }

  return [...tables.values()];
}
