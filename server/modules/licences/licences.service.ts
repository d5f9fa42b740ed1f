import { eq } from 'drizzle-orm';
import { resolveTenantScope, targetCustomerId } from '@/server/auth/tenant-scope';
import type { ServiceContext } from '@/server/context/service-context';
import { customerScope, type TenantScope } from '@/server/context/tenant-scope';
import { csvLine, csvStream } from '@/server/csv';
import type { Executor } from '@/server/db/client';
import { isUniqueViolation } from '@/server/db/errors';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import { INVALID_COMBINATION } from '@/server/http/wire.schemas';
import { auditChange, auditOf } from '@/server/modules/audit-log';
import { findPage, type ListInput, MAX_PAGE_SIZE } from '@/server/query';
import * as q from './licences.queries';
import {
  LICENSE_ORDER_DEFAULT_SELECT,
  LICENSE_PACKAGE_DEFAULT_SELECT,
  licenseOrderResource,
  licensePackageResource,
} from './licences.resource';
import {
  LIMITED_VIEW_FIELDS,
  MUTABLE_WHEN_APPROVED,
  type LicenseOrder,
  type LicenseOrderCreate,
  type LicenseOrderCustomerCreate,
  type LicenseOrderLimited,
  type LicenseOrderUpdate,
  type LicensePackage,
  type LicensePackageCreate,
  type LicensePackageUpdate,
  type Recurrence,
} from './licences.schemas';
import { licenseOrders, licensePackages, type LicenseOrderRow, type LicensePackageRow } from './licences.table';

const auditOrder = auditOf('licenseOrder', (row: LicenseOrderRow) => ({
  entityId: row.id,
  entityName: `Licence order ${row.id}`,
  customerId: row.customerId,
}));

const auditPackage = (
  tx: Executor,
  ctx: ServiceContext,
  row: LicensePackageRow,
  action: string,
  message: string,
  changes?: Record<string, unknown>,
) => auditChange(tx, ctx, { entityType: 'licensePackage', entityId: row.id, entityName: row.name, action, message, changes });

/** The stored form of a template's fields (a package's, or an order's own). */
type TemplateColumns = Pick<
  typeof licenseOrders.$inferInsert,
  'licenseType' | 'licensePayType' | 'recurrenceType' | 'recurrenceFrequency' | 'pricePerDevice' | 'currency'
>;

const recurrenceColumns = (recurrence: Recurrence | null | undefined) => ({
  recurrenceType: recurrence?.recurrenceType ?? null,
  recurrenceFrequency: recurrence?.frequency ?? null,
});

/** A price as the numeric column takes it: the number's shortest decimal text (the schema allows at most 4 decimals). */
const priceText = (value: number | null | undefined): string | null => (value === null || value === undefined ? null : String(value));

function packageTemplate(row: LicensePackageRow): TemplateColumns {
  return {
    licenseType: row.licenseType,
    licensePayType: row.licensePayType,
    recurrenceType: row.recurrenceType,
    recurrenceFrequency: row.recurrenceFrequency,
    pricePerDevice: row.pricePerDevice,
    currency: row.currency,
  };
}

const combination = (message: string, parameter: string) => new ValidationError(INVALID_COMBINATION, message, { parameter });

/** The template rules of licences.schemas.ts `templateIssues`, over stored columns (an update merged with the row). */
function assertTemplate(merged: TemplateColumns): void {
  if (merged.licensePayType === 'SUBSCRIPTION' && !merged.recurrenceType)
    throw combination('A SUBSCRIPTION needs its recurrence', 'recurrence');
  if (merged.pricePerDevice !== null && merged.pricePerDevice !== undefined && !merged.currency)
    throw combination('A price needs its currency', 'currency');
}

/** Equal stored values: numeric text by value (`12.5000` = `12.5`), dates by instant. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);

  return typeof a === 'string' && typeof b === 'string' && /^\d/.test(a) && /^\d/.test(b) && !Number.isNaN(Number(a))
    ? Number(a) === Number(b)
    : a === b;
}

/** The values that differ from the row, as the audit's `{from, to}`. */
function changesOf<R extends Record<string, unknown>>(row: R, values: Partial<R>): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, to] of Object.entries(values)) {
    if (to !== undefined && !sameValue(row[key], to)) changes[key] = { from: row[key] ?? null, to: to ?? null };
  }

  return changes;
}

// ---------------------------------------------------------------------------------------------------------------
// Packages (ADMIN)

/** GET /api/licensePackage: paged, by name unless sorted. */
export function listLicensePackages(ctx: ServiceContext, input: ListInput) {
  const { sort, ...query } = input;

  return findPage<LicensePackage>(ctx.db, {
    resource: licensePackageResource,
    defaultSelect: LICENSE_PACKAGE_DEFAULT_SELECT,
    sort: sort.length > 0 ? sort : ['name,asc'],
    ...query,
  });
}

/** GET /api/licensePackage/{id}. */
export async function getLicensePackage(ctx: ServiceContext, input: { id: number }): Promise<LicensePackage> {
  const found = await readPackage(ctx.db, input.id);
  if (!found) throw new NotFoundError('licensePackage', input.id);

  return found;
}

/** POST /api/licensePackage: names are unique (409 `licensePackage.error.nameExists`). */
export function createLicensePackage(ctx: ServiceContext, input: { body: LicensePackageCreate }): Promise<LicensePackage> {
  const { body } = input;

  return uniquePackageName(body.name, () =>
    withTransaction(ctx.db, async (tx) => {
      const row = await q.insertPackage(tx, {
        name: body.name,
        licenseType: body.licenseType,
        licensePayType: body.licensePayType,
        ...recurrenceColumns(body.recurrence),
        pricePerDevice: priceText(body.pricePerDevice),
        currency: body.currency ?? null,
      });
      await auditPackage(tx, ctx, row, 'create', `Licence package '${row.name}' created`, { ...body });

      return (await readPackage(tx, row.id))!;
    }),
  );
}

/** PUT /api/licensePackage/{id}: partial; orders made from the package keep their copies. */
export function updateLicensePackage(ctx: ServiceContext, input: { id: number; body: LicensePackageUpdate }): Promise<LicensePackage> {
  const { body } = input;

  return uniquePackageName(body.name ?? '', () =>
    withTransaction(ctx.db, async (tx) => {
      const row = await q.lockPackage(tx, input.id);
      if (!row) throw new NotFoundError('licensePackage', input.id);
      const values: Partial<typeof licensePackages.$inferInsert> = {};
      if (body.name !== undefined) values.name = body.name;
      if (body.licenseType !== undefined) values.licenseType = body.licenseType;
      if (body.licensePayType !== undefined) values.licensePayType = body.licensePayType;
      if (body.recurrence !== undefined) Object.assign(values, recurrenceColumns(body.recurrence));
      if (body.pricePerDevice !== undefined) values.pricePerDevice = priceText(body.pricePerDevice);
      if (body.currency !== undefined) values.currency = body.currency;
      const payType = values.licensePayType ?? row.licensePayType;
      if (payType === 'ONETIME') {
        if (body.recurrence !== undefined) throw combination('A ONETIME package has no recurrence', 'recurrence');
        Object.assign(values, recurrenceColumns(null));
      }
      assertTemplate({ ...packageTemplate(row), ...values });
      const changes = changesOf(row, values);
      if (Object.keys(changes).length > 0) {
        await q.updatePackage(tx, row.id, values);
        const name = values.name ?? row.name;
        await auditPackage(
          tx,
          ctx,
          { ...row, name },
          'update',
          `Licence package '${name}' updated: ${Object.keys(changes).join(', ')}`,
          changes,
        );
      }

      return (await readPackage(tx, row.id))!;
    }),
  );
}

/** DELETE /api/licensePackage/{id}: orders made from it keep their copied fields and lose the reference. */
export async function deleteLicensePackage(ctx: ServiceContext, input: { id: number }): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const row = await q.lockPackage(tx, input.id);
    if (!row) throw new NotFoundError('licensePackage', input.id);
    await q.deletePackage(tx, row.id);
    await auditPackage(tx, ctx, row, 'delete', `Licence package '${row.name}' deleted`);
  });
}

async function readPackage(db: Executor, id: number): Promise<LicensePackage | undefined> {
  const page = await findPage<LicensePackage>(db, {
    resource: licensePackageResource,
    where: [eq(licensePackages.id, id)],
    defaultSelect: LICENSE_PACKAGE_DEFAULT_SELECT,
    size: '1',
  });

  return page.content[0];
}

async function uniquePackageName<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, 'license_package_name_key'))
      throw new ConflictError('licensePackage.error.nameExists', `A licence package named '${name}' already exists`, { name });
    throw err;
  }
}

async function packageForOrder(db: Executor, id: number): Promise<LicensePackageRow> {
  const row = await q.findPackage(db, id);
  if (!row) throw new NotFoundError('licensePackage', id);

  return row;
}

// ---------------------------------------------------------------------------------------------------------------
// Orders: reads

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

export const LICENSE_ORDER_CSV_COLUMNS = [
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

async function readOrder(db: Executor, scope: TenantScope, id: number, select?: string): Promise<LicenseOrder | undefined> {
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

// ---------------------------------------------------------------------------------------------------------------
// Orders: writes

/**
 * The one customer an order is for: the selected one (a network owner's OWNER may select its members), or the
 * caller's own. An ADMIN names it: its own (operator) customer is never meant by default.
 */
function orderCustomerId(ctx: ServiceContext): number {
  if (ctx.actor.role === 'ADMIN' && ctx.scope.kind !== 'customer')
    throw new ValidationError('request.error.customerIdRequired', 'Name the customer the order is for', { parameter: 'customerId' });

  return targetCustomerId(ctx.scope, ctx.actor);
}

/** POST /api/licenseOrder/createAsCustomer (OWNER): an unapproved order; with a package, its tier and pricing. */
export function createLicenseOrderAsCustomer(ctx: ServiceContext, input: { body: LicenseOrderCustomerCreate }): Promise<LicenseOrder> {
  const { body } = input;
  const customerId = orderCustomerId(ctx);

  return withTransaction(ctx.db, async (tx) => {
    const pkg = body.licensePackageId === undefined ? undefined : await packageForOrder(tx, body.licensePackageId);
    const row = await q.insertOrder(tx, {
      customerId,
      orderDate: new Date(body.orderDate),
      deviceLicenseCount: body.deviceLicenseCount,
      ...(pkg ? packageTemplate(pkg) : { licenseType: body.licenseType ?? null }),
      licensePackageId: pkg?.id ?? null,
      comment: body.comment ?? null,
      poNumber: body.poNumber ?? null,
      approved: false,
      soldByUserId: ctx.actor.userId,
    });
    await auditOrder(tx, ctx, row, 'create', `Licence order ${row.id} of ${row.deviceLicenseCount} licences placed`, { ...body });

    return (await readOrder(tx, customerScope(customerId), row.id))!;
  });
}

/** POST /api/licenseOrder (ADMIN): any order, approved at once with `approved: true`. */
export function createLicenseOrder(ctx: ServiceContext, input: { body: LicenseOrderCreate }): Promise<LicenseOrder> {
  const { body } = input;
  const customerId = orderCustomerId(ctx);

  return withTransaction(ctx.db, async (tx) => {
    const pkg = body.licensePackageId === undefined ? undefined : await packageForOrder(tx, body.licensePackageId);
    const template: TemplateColumns = pkg
      ? packageTemplate(pkg)
      : {
          licenseType: body.licenseType,
          licensePayType: body.licensePayType,
          ...recurrenceColumns(body.recurrence),
          pricePerDevice: priceText(body.pricePerDevice),
          currency: body.currency ?? null,
        };
    const isApproved = body.approved === true;
    const row = await q.insertOrder(tx, {
      customerId,
      orderDate: new Date(body.orderDate),
      deviceLicenseCount: body.deviceLicenseCount,
      ...template,
      licensePackageId: pkg?.id ?? null,
      comment: body.comment ?? null,
      poNumber: body.poNumber ?? null,
      approved: isApproved,
      approveDate: isApproved ? new Date() : null,
      approvedByUserId: isApproved ? ctx.actor.userId : null,
      invoiceStartDate: body.invoiceStartDate === undefined ? null : new Date(body.invoiceStartDate),
      managedInInvoiceSystem: body.managedInInvoiceSystem ?? false,
      invoiceSystemId: body.invoiceSystemId ?? null,
      soldByUserId: ctx.actor.userId,
    });
    await auditOrder(
      tx,
      ctx,
      row,
      'create',
      `Licence order ${row.id} of ${row.deviceLicenseCount} licences created${isApproved ? ' approved' : ''}`,
      { ...body },
    );

    return (await readOrder(tx, customerScope(customerId), row.id))!;
  });
}

/** The body's changes as stored columns (a package's fields replace the order's; ONETIME drops the recurrence). */
async function orderValues(
  tx: Executor,
  row: LicenseOrderRow,
  body: LicenseOrderUpdate,
): Promise<Partial<typeof licenseOrders.$inferInsert>> {
  const values: Partial<typeof licenseOrders.$inferInsert> = {};
  if (body.orderDate !== undefined) values.orderDate = new Date(body.orderDate);
  if (body.deviceLicenseCount !== undefined) values.deviceLicenseCount = body.deviceLicenseCount;
  if (body.licenseType !== undefined) values.licenseType = body.licenseType;
  if (body.licensePayType !== undefined) values.licensePayType = body.licensePayType;
  if (body.recurrence !== undefined) Object.assign(values, recurrenceColumns(body.recurrence));
  if (body.pricePerDevice !== undefined) values.pricePerDevice = priceText(body.pricePerDevice);
  if (body.currency !== undefined) values.currency = body.currency;
  if (body.comment !== undefined) values.comment = body.comment;
  if (body.poNumber !== undefined) values.poNumber = body.poNumber;
  if (body.invoiceStartDate !== undefined)
    values.invoiceStartDate = body.invoiceStartDate === null ? null : new Date(body.invoiceStartDate);
  if (body.managedInInvoiceSystem !== undefined) values.managedInInvoiceSystem = body.managedInInvoiceSystem;
  if (body.invoiceSystemId !== undefined) values.invoiceSystemId = body.invoiceSystemId;
  if (body.licensePackageId === null) values.licensePackageId = null;
  if (typeof body.licensePackageId === 'number') {
    const pkg = await packageForOrder(tx, body.licensePackageId);
    Object.assign(values, { licensePackageId: pkg.id, ...packageTemplate(pkg) });
  }
  if ((values.licensePayType ?? row.licensePayType) === 'ONETIME') {
    if (body.recurrence !== undefined && values.recurrenceType !== null)
      throw combination('A ONETIME order has no recurrence', 'recurrence');
    Object.assign(values, recurrenceColumns(null));
  }

  return values;
}

/**
 * PUT /api/licenseOrder/{id} (ADMIN): a partial change, and `approved: true` approves (spec 3 "States and
 * transitions"). An approved order changes only in comment and invoice fields.
 */
export function updateLicenseOrder(ctx: ServiceContext, input: { id: number; body: LicenseOrderUpdate }): Promise<LicenseOrder> {
  const { body } = input;

  return withTransaction(ctx.db, async (tx) => {
    const row = await q.lockOrder(tx, ctx.scope, input.id);
    if (!row) throw new NotFoundError('licenseOrder', input.id);
    const values = await orderValues(tx, row, body);
    const merged = { ...row, ...values };
    assertTemplate(merged);
    const changes = changesOf(row, values);
    if (row.approved) {
      const locked = Object.keys(changes).filter((field) => !(MUTABLE_WHEN_APPROVED as readonly string[]).includes(field));
      if (body.approved === false) locked.unshift('approved');
      if (locked.length > 0) {
        throw new ConflictError(
          'licenseOrder.error.approvedImmutable',
          `An approved licence order keeps its ${locked.join(', ')}; only the comment and the invoice fields change`,
          { fields: locked },
        );
      }
    }
    const isApproving = body.approved === true && !row.approved;
    if (isApproving) {
      const missing = [
        ...(merged.licenseType ? [] : ['licenseType']),
        ...(merged.licensePayType ? [] : ['licensePayType']),
        ...(merged.licensePayType === 'SUBSCRIPTION' && !merged.recurrenceType ? ['recurrence'] : []),
      ];
      if (missing.length > 0) {
        throw new ConflictError('licenseOrder.error.incomplete', `The order needs its ${missing.join(', ')} before it is approved`, {
          missing,
        });
      }
      Object.assign(values, { approved: true, approveDate: new Date(), approvedByUserId: ctx.actor.userId });
      changes.approved = { from: false, to: true };
    }
    if (Object.keys(changes).length === 0) return (await readOrder(tx, customerScope(row.customerId), row.id))!;
    const updated = await q.updateOrder(tx, row, values);
    const changed = Object.keys(changes).join(', ');
    await auditOrder(
      tx,
      ctx,
      updated,
      isApproving ? 'approve' : 'update',
      isApproving ? `Licence order ${row.id} approved` : `Licence order ${row.id} updated: ${changed}`,
      changes,
    );

    return (await readOrder(tx, customerScope(row.customerId), row.id))!;
  });
}

/**
 * DELETE /api/licenseOrder/{id}: ADMIN, or an OWNER its unapproved order (403 for an approved one). Refused while
 * devices hold its licences (409 `licenseOrder.error.inUse`): the order row is locked first, and licensing a device
 * locks it too, so no device takes a licence of an order being deleted.
 */
export async function deleteLicenseOrder(ctx: ServiceContext, input: { id: number }): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const row = await q.lockOrder(tx, ctx.scope, input.id);
    if (!row) throw new NotFoundError('licenseOrder', input.id);
    if (row.approved && ctx.actor.role !== 'ADMIN')
      throw new ForbiddenError('Only an administrator deletes an approved licence order', 'licenseOrder.error.approvedDeleteForbidden', {
        id: row.id,
      });
    const assigned = await q.assignedCount(tx, row.id);
    if (assigned > 0) {
      throw new ConflictError('licenseOrder.error.inUse', `${assigned} devices hold licences of this order`, {
        assignedDeviceCount: assigned,
      });
    }
    await q.deleteOrder(tx, row);
    await auditOrder(tx, ctx, row, 'delete', `Licence order ${row.id} deleted`);
  });
}
