import { eq } from 'drizzle-orm';
import { requireProtectedOperation } from '@/server/auth/protected-operation';
import { actsAsNetworkOwner, resolveTenantScope, targetCustomerId } from '@/server/auth/tenant-scope';
import { customerScope } from '@/server/context/tenant-scope';
import { isUniqueViolation } from '@/server/db/errors';
import { withTransaction, type Transaction } from '@/server/db/transaction';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import { auditOf, diffFields } from '@/server/modules/audit-log';
import { announcePlaybackChange } from '@/server/playback/playback-changes';
import { validateLimitOverrides } from '@/server/modules/resource-limits';
import { findOne, findPage, type ListInput } from '@/server/query';
import { CUSTOMER_DEFAULT_SELECT, customerResource } from './customers.resource';
import {
  adminOnlyCustomerFields,
  type Customer,
  type CustomerCreate,
  type CustomerUpdate,
  type DeviceSettings,
  type TeamSettings,
} from './customers.schemas';
import enLabels from '@/messages/en/labels.json';
import { customers, type CustomerRow } from '@/server/tenant/customers.table';
import { insertInitialFolders } from '@/server/modules/folders';
import {
  countMembers,
  deleteCustomerRow,
  findCustomerRow,
  insertCustomer,
  isContentOf,
  lockCustomerRow,
  revokeAllFamiliesOfCustomer,
  updateCustomerRow,
  type CustomerValues,
} from './customers.queries';

/** ADMIN manages every customer; the OWNER of a network owner manages its members (DECISIONS §8). */
type Manager = 'admin' | 'networkOwner';

export async function selectAccessibleCustomers(ctx: ServiceContext, input: ListInput) {
  // Accessible customers do not depend on a selected tenant: resolve the caller's widest scope.
  const scope = await resolveTenantScope(ctx.db, ctx.actor, undefined);

  return findPage<Customer>(ctx.db, { resource: customerResource, scope, defaultSelect: CUSTOMER_DEFAULT_SELECT, ...input });
}

export async function listCustomers(ctx: ServiceContext, input: ListInput) {
  return findPage<Customer>(ctx.db, { resource: customerResource, scope: ctx.scope, defaultSelect: CUSTOMER_DEFAULT_SELECT, ...input });
}

export async function getCustomer(ctx: ServiceContext, input: { id: number; select?: string }) {
  const scope = await resolveTenantScope(ctx.db, ctx.actor, undefined);
  const found = await findOne<Customer>(ctx.db, {
    resource: customerResource,
    scope,
    where: [eq(customers.id, input.id)],
    select: input.select,
    defaultSelect: CUSTOMER_DEFAULT_SELECT,
  });
  if (!found) throw new NotFoundError('customer', input.id);

  return found;
}

export async function createCustomer(ctx: ServiceContext, input: CustomerCreate) {
  const manager = managerOf(ctx);
  const { createAsSubreseller, ownerSubresellerId: requestedOwner, ...fields } = input;
  let ownerSubresellerId = requestedOwner;
  if (manager === 'networkOwner') {
    refuseAdminOnlyFields(input, ['createAsSubreseller', 'ownerSubresellerId']);
    if (!input.licenseTier)
      throw new ValidationError('customer.error.licenseTierRequired', 'A network owner must set licenseTier to STARTER or BUSINESS', {
        field: 'licenseTier',
      });
    refuseEnterprise(input.licenseTier);
    ownerSubresellerId = ctx.actor.customerId;
  } else if (ownerSubresellerId !== undefined) {
    if (createAsSubreseller)
      throw new ValidationError('customer.error.nestedNetwork', 'A network owner cannot itself belong to a network owner', {
        field: 'ownerSubresellerId',
      });
    await requireNetworkOwner(ctx, ownerSubresellerId);
  }
  if (input.resourceLimits) validateLimitOverrides(input.resourceLimits.overrides);

  return withNameCheck(input.name, () =>
    withTransaction(ctx.db, async (tx) => {
      const row = await insertCustomer(tx, {
        ...toValues(fields),
        name: input.name,
        licenseTier: input.licenseTier ?? 'ENTERPRISE',
        ownerSubresellerId,
        ...(createAsSubreseller ? { isSubreseller: true, subresellerSince: new Date() } : {}),
      });
      await insertInitialFolders(tx, row.id);
      await audit(tx, ctx, row, 'create', `Customer '${row.name}' created (${enLabels.licenseTier[row.licenseTier]})`, {
        ...input,
        ownerSubresellerId,
      });

      return readCustomer(tx, row.id);
    }),
  );
}

export async function updateCustomer(ctx: ServiceContext, input: { id: number; body: CustomerUpdate }) {
  const manager = managerOf(ctx);
  const before = await findManaged(ctx, manager, input.id);
  const { body } = input;
  if (manager === 'networkOwner') {
    refuseAdminOnlyFields(body, []);
    if (body.licenseTier !== undefined && body.licenseTier !== before.licenseTier) {
      refuseEnterprise(body.licenseTier);
      refuseEnterprise(before.licenseTier);
    }
  }
  if (body.resourceLimits) validateLimitOverrides(body.resourceLimits.overrides);
  if (body.restricted && before.id === ctx.actor.customerId) {
    throw new ConflictError('customer.error.restrictOwn', 'You cannot restrict your own customer');
  }
  const values = toValues(body);

  return withNameCheck(body.name ?? before.name, () =>
    withTransaction(ctx.db, async (tx) => {
      await updateCustomerRow(tx, before.id, values);
      // Restriction takes effect at once: no token of its users stays usable.
      if (body.restricted && !before.restricted) await revokeAllFamiliesOfCustomer(tx, before.id, 'customer restricted');
      const changes = diffFields(pick(before, Object.keys(values)), values);
      const name = body.name ?? before.name;
      await audit(
        tx,
        ctx,
        { id: before.id, name },
        'update',
        `Customer '${name}' updated: ${Object.keys(changes).join(', ') || 'no changes'}`,
        changes,
      );

      return readCustomer(tx, before.id);
    }),
  );
}

export async function deleteCustomer(ctx: ServiceContext, input: { id: number }) {
  const manager = managerOf(ctx);
  const target = await findManaged(ctx, manager, input.id);
  if (target.id === ctx.actor.customerId) throw new ConflictError('customer.error.deleteOwn', 'You cannot delete your own customer');
  await requireProtectedOperation(ctx);
  await withTransaction(ctx.db, async (tx) => {
    const row = await lockCustomerRow(tx, target.id);
    if (!row) throw new NotFoundError('customer', input.id);
    await refuseWhileMembers(tx, row, 'delete');
    await deleteCustomerRow(tx, row.id);
    await audit(tx, ctx, row, 'delete', `Customer '${row.name}' deleted`);
  });
}

export async function updateTeamSettings(ctx: ServiceContext, input: TeamSettings) {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  const values: CustomerValues = {
    userFullAccessIfNotInTeam: input.userFullAccessIfNotInTeam,
    accessResourcesWithoutTeam: input.accessResourcesWithoutTeam,
    deviceCreationInRootForTeamUsers: input.isDeviceAndGroupCreationEnabledInRootForTeamUsers,
    contentCreationInRootForTeamUsers: input.isContentAndGroupCreationEnabledInRootForTeamUsers,
    fileCreationInRootForTeamUsers: input.isFileAndFolderCreationEnabledInRootForTeamUsers,
  };

  return updateSettings(ctx, customerId, definedOnly(values), 'team access settings');
}

/** PUT settings/devices (OWNER): the zone the console proposes on a claim; `null` (from `""`) removes it. */
export async function updateDeviceSettings(ctx: ServiceContext, input: DeviceSettings) {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);

  return updateSettings(ctx, customerId, definedOnly({ defaultTimeZone: input.defaultTimeZone }), 'device settings');
}

export async function setDefaultContents(ctx: ServiceContext, input: { defaultEmergencyContentId: string }) {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  const contentId = input.defaultEmergencyContentId === 'null' ? null : input.defaultEmergencyContentId.toLowerCase();
  // Screens fall back to it in an emergency: it must be the customer's own content (404 otherwise).
  if (contentId && !(await isContentOf(ctx.db, customerId, contentId))) throw new NotFoundError('deviceContent', contentId);

  // Screens in emergency that fall back to the default hear manifestChanged.
  return updateSettings(ctx, customerId, { defaultEmergencyContentId: contentId }, 'default contents', (tx) =>
    announcePlaybackChange(tx, { customerId, emergencyDefault: true }),
  );
}

export async function promoteAsSubreseller(ctx: ServiceContext, input: { id: number }) {
  return withTransaction(ctx.db, async (tx) => {
    const row = await lockCustomerRow(tx, input.id);
    if (!row) throw new NotFoundError('customer', input.id);
    if (row.isSubreseller) throw new ConflictError('customer.error.alreadySubreseller', `'${row.name}' is already a network owner`);
    if (row.ownerSubresellerId !== null) {
      throw new ConflictError('customer.error.memberOfNetwork', `'${row.name}' belongs to a network owner; move it out first`);
    }
    await updateCustomerRow(tx, row.id, { isSubreseller: true, subresellerSince: new Date() });
    await audit(tx, ctx, row, 'promoteAsSubreseller', `Customer '${row.name}' promoted to network owner`, {
      isSubreseller: { from: false, to: true },
    });

    return readCustomer(tx, row.id);
  });
}

export async function removeSubresellerPrivilege(ctx: ServiceContext, input: { id: number }) {
  return withTransaction(ctx.db, async (tx) => {
    const row = await lockCustomerRow(tx, input.id);
    if (!row) throw new NotFoundError('customer', input.id);
    if (!row.isSubreseller) throw new ConflictError('customer.error.notSubreseller', `'${row.name}' is not a network owner`);
    await refuseWhileMembers(tx, row, 'remove the network-owner privilege of');
    await updateCustomerRow(tx, row.id, { isSubreseller: false, subresellerSince: null });
    await audit(tx, ctx, row, 'removeSubresellerPrivilege', `Network-owner privilege of '${row.name}' removed`, {
      isSubreseller: { from: true, to: false },
    });

    return readCustomer(tx, row.id);
  });
}

export async function moveToSubreseller(ctx: ServiceContext, input: { id: number; subresellerId?: number }) {
  const { id, subresellerId } = input;
  if (subresellerId === id)
    throw new ValidationError('customer.error.moveToItself', 'A customer cannot belong to itself', { parameter: 'subresellerId' });

  return withTransaction(ctx.db, async (tx) => {
    const row = await findCustomerRow(tx, id);
    if (!row) throw new NotFoundError('customer', id);
    if (row.isSubreseller)
      throw new ValidationError('customer.error.nestedNetwork', `'${row.name}' is a network owner and cannot belong to another`);
    // Locking the network owner keeps a concurrent privilege removal from leaving an orphaned member.
    const owner = subresellerId === undefined ? undefined : await lockCustomerRow(tx, subresellerId);
    if (subresellerId !== undefined) assertNetworkOwner(owner, subresellerId);
    await updateCustomerRow(tx, id, { ownerSubresellerId: subresellerId ?? null });
    const message = owner
      ? `Customer '${row.name}' moved to network owner '${owner.name}'`
      : `Customer '${row.name}' left its network owner`;
    await audit(tx, ctx, row, 'moveToSubreseller', message, {
      ownerSubresellerId: { from: row.ownerSubresellerId, to: subresellerId ?? null },
    });

    return readCustomer(tx, id);
  });
}

function managerOf(ctx: ServiceContext): Manager {
  if (ctx.actor.role === 'ADMIN') return 'admin';
  if (actsAsNetworkOwner(ctx.actor)) return 'networkOwner';
  throw new ForbiddenError('This operation needs the role ADMIN or the OWNER of a network owner', 'auth.error.roleRequired', {
    minimumRole: 'ADMIN',
  });
}

/** The customer the manager may change: any for ADMIN, a member for a network owner; others do not exist for it. */
async function findManaged(ctx: ServiceContext, manager: Manager, id: number): Promise<CustomerRow> {
  const row = await findCustomerRow(ctx.db, id);
  if (!row) throw new NotFoundError('customer', id);
  if (manager === 'networkOwner' && row.ownerSubresellerId !== ctx.actor.customerId) {
    if (row.id === ctx.actor.customerId)
      throw new ForbiddenError('A network owner changes its members, not itself', 'customer.error.notManageable');
    throw new NotFoundError('customer', id);
  }

  return row;
}

function refuseAdminOnlyFields(input: Record<string, unknown>, extra: string[]) {
  const field = [...adminOnlyCustomerFields, ...extra].find((name) => input[name] !== undefined);
  if (field) throw new ForbiddenError(`Only ADMIN can set '${field}'`, 'customer.error.adminOnlyField', { field });
}

function refuseEnterprise(tier: string) {
  if (tier === 'ENTERPRISE') {
    throw new ForbiddenError(
      'A network owner cannot create Enterprise customers or change a tier to or from ENTERPRISE',
      'customer.error.enterpriseNotAllowed',
      { field: 'licenseTier' },
    );
  }
}

async function requireNetworkOwner(ctx: ServiceContext, id: number) {
  assertNetworkOwner(await findCustomerRow(ctx.db, id), id);
}

function assertNetworkOwner(row: CustomerRow | undefined, id: number): asserts row is CustomerRow {
  if (!row) throw new NotFoundError('customer', id);
  if (!row.isSubreseller)
    throw new ValidationError('customer.error.notSubreseller', `Customer ${id} is not a network owner`, { subresellerId: id });
}

async function refuseWhileMembers(tx: Transaction, row: CustomerRow, verb: string) {
  const members = await countMembers(tx, row.id);
  if (members > 0)
    throw new ConflictError('customer.error.hasMembers', `Cannot ${verb} '${row.name}' while it owns ${members} customer(s)`, { members });
}

async function updateSettings(
  ctx: ServiceContext,
  customerId: number,
  values: CustomerValues,
  what: string,
  afterUpdate?: (tx: Transaction) => Promise<void>,
) {
  return withTransaction(ctx.db, async (tx) => {
    const before = await findCustomerRow(tx, customerId);
    if (!before) throw new NotFoundError('customer', customerId);
    await updateCustomerRow(tx, customerId, values);
    await afterUpdate?.(tx);
    await audit(
      tx,
      ctx,
      before,
      'update',
      `Customer '${before.name}': ${what} changed`,
      diffFields(pick(before, Object.keys(values)), values),
    );

    return readCustomer(tx, customerId);
  });
}

async function readCustomer(tx: Transaction, id: number) {
  const row = await findOne<Customer>(tx, {
    resource: customerResource,
    scope: customerScope(id),
    where: [eq(customers.id, id)],
    defaultSelect: CUSTOMER_DEFAULT_SELECT,
  });

  return row!;
}

const audit = auditOf('customer', (row: { id: number; name: string }) => ({
  entityId: row.id,
  entityName: row.name,
  customerId: row.id,
  customerName: row.name,
}));

async function withNameCheck<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, 'customer_name_key'))
      throw new ConflictError('customer.error.nameExists', `A customer named '${name}' already exists`);
    throw err;
  }
}

/** Request attributes to column values (the wire's ISO strings become dates; undefined stays unset). */
function toValues(input: Omit<CustomerUpdate, 'restricted'> & { restricted?: boolean }): CustomerValues {
  const { expirationDate, ...rest } = input;

  return definedOnly({
    ...rest,
    ...(expirationDate === undefined ? {} : { expirationDate: expirationDate === null ? null : new Date(expirationDate) }),
  } as CustomerValues);
}

function definedOnly<T extends Record<string, unknown>>(values: T): T {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as T;
}

function pick(row: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, row[k]]));
}
