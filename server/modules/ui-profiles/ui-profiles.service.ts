import { eq } from 'drizzle-orm';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import { customerScope } from '@/server/context/tenant-scope';
import { isUniqueViolation } from '@/server/db/errors';
import { withTransaction } from '@/server/db/transaction';
import type { Executor } from '@/server/db/client';
import { ConflictError, NotFoundError, ValidationError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import { auditChange, diffFields } from '@/server/modules/audit-log';
import { assertWithinLimit } from '@/server/modules/resource-limits';
import { findOne, findPage, type ListInput } from '@/server/query';
import { profileHolders } from './ui-profile-holders';
import * as q from './ui-profiles.queries';
import { uiProfileResource } from './ui-profiles.resource';
import type { UiProfile, UiProfileAssign, UiProfileCreate, UiProfileUpdate } from './ui-profiles.schemas';
import { uiProfiles } from './ui-profiles.table';

const ENTITY = 'userInterfaceProfile';

export function listUiProfiles(ctx: ServiceContext, input: ListInput) {
  return findPage<UiProfile>(ctx.db, { resource: uiProfileResource, scope: ctx.scope, ...input });
}

export async function getUiProfile(ctx: ServiceContext, input: { id: number; select?: string }) {
  const profile = await findOne<UiProfile>(ctx.db, {
    resource: uiProfileResource,
    scope: ctx.scope,
    where: [eq(uiProfiles.id, input.id)],
    select: input.select,
  });
  if (!profile) throw new NotFoundError(ENTITY, input.id);

  return profile;
}

export async function createUiProfile(ctx: ServiceContext, input: UiProfileCreate) {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);

  return withNameConflict(input.name, () =>
    withTransaction(ctx.db, async (tx) => {
      await assertWithinLimit(tx, customerId, 'UI_PROFILE');
      const row = await q.insertUiProfile(tx, {
        customerId,
        name: input.name,
        comment: input.comment,
        hiddenUIElementRules: input.hiddenUIElementRules,
      });
      await auditChange(tx, ctx, {
        action: 'create',
        entityType: ENTITY,
        entityId: row.id,
        entityName: row.name,
        customerId,
        message: `UI profile '${row.name}' created`,
        changes: { name: input.name, comment: input.comment ?? null, hiddenUIElementRules: input.hiddenUIElementRules },
      });

      return readBack(tx, row);
    }),
  );
}

export async function updateUiProfile(ctx: ServiceContext, input: { id: number; body: UiProfileUpdate }) {
  const current = await findInScope(ctx, input.id);
  const changes = diffFields(current, input.body);

  return withNameConflict(input.body.name ?? current.name, () =>
    withTransaction(ctx.db, async (tx) => {
      if (Object.keys(changes).length > 0) {
        await q.updateUiProfile(tx, current.customerId, current.id, input.body);
        await auditChange(tx, ctx, {
          action: 'update',
          entityType: ENTITY,
          entityId: current.id,
          entityName: input.body.name ?? current.name,
          customerId: current.customerId,
          message: `UI profile '${current.name}' updated: ${Object.keys(changes).join(', ')}`,
          changes,
        });
      }

      return readBack(tx, current);
    }),
  );
}

/** Users must belong to the profile's tenant: a profile cannot be handed across tenants. */
export async function assignUiProfile(ctx: ServiceContext, input: { id: number; body: UiProfileAssign }) {
  const profile = await findInScope(ctx, input.id);
  const assign = [...new Set(input.body.assignUserIds ?? [])];
  const remove = [...new Set(input.body.removeUserIds ?? [])];
  const both = assign.filter((id) => remove.includes(id));
  if (both.length > 0) {
    throw new ValidationError('userInterfaceProfile.error.assignAndRemove', 'A user cannot be both assigned and removed', {
      userIds: both,
    });
  }
  const foreign = await profileHolders().foreignIds(ctx.db, profile.customerId, [...assign, ...remove]);
  if (foreign.length > 0) {
    throw new ValidationError('userInterfaceProfile.error.userNotInTenant', "Users must belong to the profile's customer", {
      userIds: foreign,
    });
  }

  return withTransaction(ctx.db, async (tx) => {
    const assigned = await profileHolders().assign(tx, profile, assign);
    const removed = await profileHolders().unassign(tx, profile.id, remove);
    if (assigned.length + removed.length > 0) {
      await auditChange(tx, ctx, {
        action: 'assign',
        entityType: ENTITY,
        entityId: profile.id,
        entityName: profile.name,
        customerId: profile.customerId,
        message: `UI profile '${profile.name}' assigned to ${assigned.length} and removed from ${removed.length} user(s)`,
        changes: { assignedUserIds: assigned, removedUserIds: removed },
      });
    }

    return readBack(tx, profile);
  });
}

export async function deleteUiProfile(ctx: ServiceContext, input: { id: number }) {
  const profile = await findInScope(ctx, input.id);
  await withTransaction(ctx.db, async (tx) => {
    // The foreign key sets the users' profile to null; counted first for the audit entry.
    const users = await profileHolders().count(tx, profile.id);
    await q.deleteUiProfile(tx, profile.customerId, profile.id);
    await auditChange(tx, ctx, {
      action: 'delete',
      entityType: ENTITY,
      entityId: profile.id,
      entityName: profile.name,
      customerId: profile.customerId,
      message: `UI profile '${profile.name}' deleted; ${users} user(s) lost it`,
    });
  });
}

async function findInScope(ctx: ServiceContext, id: number) {
  const profile = await q.findUiProfile(ctx.db, ctx.scope, id);
  if (!profile) throw new NotFoundError(ENTITY, id);

  return profile;
}

async function readBack(db: Executor, row: { id: number; customerId: number }) {
  const profile = await findOne<UiProfile>(db, {
    resource: uiProfileResource,
    scope: customerScope(row.customerId),
    where: [eq(uiProfiles.id, row.id)],
  });

  return profile!;
}

async function withNameConflict<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, 'ui_profile_customer_name_key')) {
      throw new ConflictError('userInterfaceProfile.error.nameExists', `A UI profile named '${name}' already exists in this customer`);
    }
    throw err;
  }
}
