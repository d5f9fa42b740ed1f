import { eq } from 'drizzle-orm';
import { resolveTenantScope } from '@/server/auth/tenant-scope';
import type { ServiceContext } from '@/server/context/service-context';
import type { TenantScope } from '@/server/context/tenant-scope';
import { csvLine, csvStream } from '@/server/csv';
import type { Executor } from '@/server/db/client';
import { ForbiddenError, NotFoundError } from '@/server/errors';
import { findPage, type ListInput, MAX_PAGE_SIZE } from '@/server/query';
import * as q from './licences.queries';
import { LICENSE_ORDER_DEFAULT_SELECT, licenseOrderResource } from './licences.resource';
import {
  LIMITED_VIEW_FIELDS,
  type LicenseDashboard,
  type LicenseOrder,
  type LicenseOrderLimited,
  type LicenseType,
} from './licences.schemas';
import { licenseOrders } from './licences.table';

/** GET /api/licenseOrder: the full entity, paged, in the caller's scope; newest order first unless sorted. */
export function listLicenseOrders(ctx: ServiceContext, input: ListInput) {
  const { sort, ...query } = input;

  return findPage<LicenseOrder>(ctx.db, {
    resource: licenseOrderResource,
    scope: ctx.scope,
    defaultSelect: LICENSE_ORDER_DEFAULT_SELECT,
    sort: sort.length > 0 ? sort : ['orderDate,desc'],
    ...query,
  });
}

/** GET /api/licenseOrder/{id}: one order of the caller's scope (404 otherwise). */
export async function getLicenseOrder(ctx: ServiceContext, input: { id: number; select?: string }): Promise<LicenseOrder> {
  const found = await readOrder(ctx.db, ctx.scope, input.id, input.select);
  if (!found) throw new NotFoundError('licenseOrder', input.id);

  return found;
}

/**
 * GET /api/licenseOrder/getByCustomer/{customerId} and getAllApprovedForCustomer/{customerId}: spec 3's limited
 * view of every order of the customer (approved ones only for the latter), newest first. A customer outside the
 * caller's scope answers 404, as a missing one does.
 */
export async function listCustomerOrders(
  ctx: ServiceContext,
  input: { customerId: number; approvedOnly: boolean },
): Promise<LicenseOrderLimited[]> {
  const scope = await pathCustomerScope(ctx, input.customerId);
  const items: LicenseOrderLimited[] = [];
  // Every order, a page at a time: a customer has few, and a cut-off list would hide licences.
  for (let page = 0; ; page++) {
    const result = await findPage<LicenseOrderLimited>(ctx.db, {
      resource: licenseOrderResource,
      scope,
      where: [input.approvedOnly ? eq(licenseOrders.approved, true) : undefined],
      // As a projection the client did not name: nulls are left out (DECISIONS §2).
      defaultSelect: LIMITED_VIEW_FIELDS.join(','),
      sort: ['orderDate,desc'],
      page: String(page),
      size: String(MAX_PAGE_SIZE),
    });
    items.push(...result.content);
    if (result.last) return items;
  }
}

/** GET /api/licenseOrder/getUnapprovedLicenseOrderCount: unapproved orders in the caller's scope. */
export function countUnapprovedLicenseOrders(ctx: ServiceContext): Promise<number> {
  return q.countUnapproved(ctx.db, ctx.scope);
}

/**
 * GET /api/customer/{customerId}/license/dashboard: the customer's licences ordered, assigned and free (in total
 * and per type), its devices by licence status, its connected devices against `deviceSessionLimit`, and its free
 * licences. Counted in one statement (`findLicenseDashboard`); a customer outside the caller's scope answers 404.
 */
export async function getLicenseDashboard(ctx: ServiceContext, input: { customerId: number }): Promise<LicenseDashboard> {
  await pathCustomerScope(ctx, input.customerId);
  const row = await q.findLicenseDashboard(ctx.db, input.customerId);
  if (!row) throw new NotFoundError('customer', input.customerId);
  const statusCount = new Map(row.statuses.map((s) => [s.status, Number(s.n)]));
  const types = new Map(row.types.map((t) => [t.type, { ordered: Number(t.ordered), assigned: Number(t.assigned) }]));
  const total = row.types.reduce((sum, t) => sum + Number(t.ordered), 0);
  const assigned = row.types.reduce((sum, t) => sum + Number(t.assigned), 0);
  const perType = (type: LicenseType) => {
    const { ordered, assigned: held } = types.get(type) ?? { ordered: 0, assigned: 0 };

    return { ordered, assigned: held, free: Math.max(0, ordered - held) };
  };

  return {
    totalLicenseCount: total,
    assignedLicenseCount: assigned,
    unAssignedLicenseCount: Math.max(0, total - assigned),
    deviceStatusCounts: {
      UN_LICENSED: statusCount.get('UN_LICENSED') ?? 0,
      FREE: statusCount.get('FREE') ?? 0,
      LICENSED: statusCount.get('LICENSED') ?? 0,
      TRIAL: statusCount.get('TRIAL') ?? 0,
    },
    licenseTypeCounts: {
      BASIC: perType('BASIC'),
      PROFESSIONAL: perType('PROFESSIONAL'),
      DBA: perType('DBA'),
      ENTERPRISE: perType('ENTERPRISE'),
      VIDEO_WALL: perType('VIDEO_WALL'),
    },
    browserSessionLimit: Number(row.browserSessionLimit),
    activeBrowserSessionCount: Number(row.activeBrowserSessionCount),
    freeCount: Number(row.freeCount),
    usedFreeCount: statusCount.get('FREE') ?? 0,
  };
}

const LICENSE_ORDER_CSV_COLUMNS = [
  'id',
  'customerId',
  'customerName',
  'orderDate',
  'createDate',
  'deviceLicenseCount',
  'assignedDeviceCount',
  'licenseType',
  'licensePayType',
  'recurrenceType',
  'recurrenceFrequency',
  'pricePerDevice',
  'currency',
  'approved',
  'approveDate',
  'approvedBy',
  'soldBy',
  'licensePackage',
  'invoiceStartDate',
  'managedInInvoiceSystem',
  'invoiceSystemId',
  'poNumber',
  'comment',
] as const;

const CSV_BATCH = 500;

/** `12.5000` → `12.50`: the exact stored decimal, with at least two places (no float on the way). */
export function decimalText(value: string | null): string | null {
  if (value === null) return null;
  const [whole, fraction = ''] = value.split('.');
  const trimmed = fraction.replace(/0+$/, '').padEnd(2, '0');

  return `${whole}.${trimmed}`;
}

/** GET /api/licenseOrder/csv (ADMIN): every order of the scope, by id, streamed in batches. */
export function exportLicenseOrdersCsv(ctx: ServiceContext): Promise<ReadableStream<Uint8Array>> {
  type CsvRow = Awaited<ReturnType<typeof q.findCsvBatch>>[number];

  return csvStream(
    LICENSE_ORDER_CSV_COLUMNS,
    CSV_BATCH,
    (after: CsvRow | undefined) => q.findCsvBatch(ctx.db, ctx.scope, after?.id, CSV_BATCH),
    (row) =>
      csvLine(LICENSE_ORDER_CSV_COLUMNS.map((column) => (column === 'pricePerDevice' ? decimalText(row.pricePerDevice) : row[column]))),
  );
}

/** One order in the full entity's shape (the default projection unless `select` names one). */
export async function readOrder(db: Executor, scope: TenantScope, id: number, select?: string): Promise<LicenseOrder | undefined> {
  const page = await findPage<LicenseOrder>(db, {
    resource: licenseOrderResource,
    scope,
    where: [eq(licenseOrders.id, id)],
    defaultSelect: LICENSE_ORDER_DEFAULT_SELECT,
    select,
    size: '1',
  });

  return page.content[0];
}

/** The scope of a customer named in the path: 404 for one the caller cannot see (never revealing that it exists). */
async function pathCustomerScope(ctx: ServiceContext, customerId: number): Promise<TenantScope> {
  try {
    return await resolveTenantScope(ctx.db, ctx.actor, customerId);
  } catch (err) {
    if (err instanceof ForbiddenError) throw new NotFoundError('customer', customerId);
    throw err;
  }
}
