import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { ServiceContext } from '@/server/context/service-context';
import { customerScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import { auditOf } from '@/server/modules/audit-log';
import { readOrder } from './license-order-reads.service';
import { packageForOrder } from './license-packages.service';
import {
  assertTemplate,
  changesOf,
  combination,
  packageTemplate,
  priceText,
  recurrenceColumns,
  type TemplateColumns,
} from './license-templates';
import * as q from './licences.queries';
import {
  MUTABLE_WHEN_APPROVED,
  type LicenseOrder,
  type LicenseOrderCreate,
  type LicenseOrderCustomerCreate,
  type LicenseOrderUpdate,
} from './licences.schemas';
import type { licenseOrders, LicenseOrderRow } from './licences.table';

const auditOrder = auditOf('licenseOrder', (row: LicenseOrderRow) => ({
  entityId: row.id,
  entityName: `Licence order ${row.id}`,
  customerId: row.customerId,
}));

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
