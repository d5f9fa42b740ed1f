import { eq } from 'drizzle-orm';
import enLabels from '@/messages/en/labels.json';
import { v7 as uuidv7 } from 'uuid';
import { hashPassword } from '@/server/auth/password';
import { authCacheOf } from '@/server/auth/auth-cache';
import { requireProtectedOperation } from '@/server/auth/protected-operation';
import { hasRole, type Role } from '@/server/context/roles';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import { customerScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { isUniqueViolation } from '@/server/db/errors';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import type { UserActor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { auditOf } from '@/server/modules/audit-log';
import { assertWithinLimit } from '@/server/modules/resource-limits';
import { assignTeams, parseTeamIdsParam, teamListQuery, type TeamReadInput } from '@/server/modules/teams';
import { findOne, findPage, type ListInput } from '@/server/query';
import { nudgeMailDelivery } from '@/server/modules/mail';
import { issuePasswordSetupLink } from './password-setup.service';
import * as q from './users.queries';
import { USER_DEFAULT_SELECT, userResource } from './users.resource';
import { SELF_EDITABLE_FIELDS, type User, type UserCreate, type UserUpdate } from './users.schemas';
import { users, type UserRow } from './users.table';

/** Changing these on a user (or a role change to OWNER/ADMIN) is a protected operation (spec 3). */
const PROTECTED_FIELDS = ['password', 'use2FA', 'readOnly', 'restricted', 'trustedAdmin'] as const;

/** The longest a cached own view lives without a change (a safety net: changes evict it at once). */
const OWN_VIEW_TTL_MS = 60_000;

/**
 * GET /api/v2/user/me. Screens and consoles poll it, so the default view (no `select`) comes from the token
 * cache while no change has touched the user, its customer, picture or UI profile (see auth-cache.ts); it
 * expires with the customer's `expirationDate`, which `active` depends on.
 */
export async function getCurrentUser(ctx: ServiceContext, input: { select?: string }) {
  const { userId, customerId } = ctx.actor;
  const cache = input.select?.trim() ? undefined : authCacheOf(ctx.db);
  const cached = cache?.getView(userId);
  if (cached) return cached as User;
  const generation = cache?.begin() ?? 0;
  const user = await readUser(ctx.db, { id: userId, customerId }, input.select);
  if (!user) throw new NotFoundError('user', userId);
  if (cache) {
    const expiration = (user.customer as { expirationDate?: string | number } | undefined)?.expirationDate;
    const expiresAt = Math.min(
      Date.now() + OWN_VIEW_TTL_MS,
      expiration === undefined ? Number.POSITIVE_INFINITY : new Date(expiration).getTime(),
    );
    cache.storeView({ userId, customerId, value: user, expiresAt }, generation);
  }

  return user;
}

export function listUsers(ctx: ServiceContext, input: ListInput & TeamReadInput) {
  const team = teamListQuery(ctx, 'user', users.id, input);

  return findPage<User>(ctx.db, {
    resource: userResource,
    scope: ctx.scope,
    where: [team.where],
    extraColumns: team.extraColumns,
    defaultSelect: USER_DEFAULT_SELECT,
    ...team.query,
  });
}

export async function getUser(ctx: ServiceContext, input: { id: string; select?: string }) {
  const user = await findOne<User>(ctx.db, {
    resource: userResource,
    scope: ctx.scope,
    where: [eq(users.id, input.id)],
    select: input.select,
    defaultSelect: USER_DEFAULT_SELECT,
  });
  if (!user) throw new NotFoundError('user', input.id);

  return user;
}

export function listSimpleUsers(ctx: ServiceContext) {
  return q.listSimpleUsers(ctx.db, ctx.scope);
}

/**
 * POST /api/user/. A LOCAL user gets the spec's password-setup message (enqueued in the create's
 * transaction); SSO-only users sign in through their provider.
 */
export async function createUser(ctx: ServiceContext, input: { body: UserCreate; teamIds?: string }) {
  const { body } = input;
  // Spec 3: `customerId` is required for non-ADMIN callers (an ADMIN without it creates in its own customer).
  const isExplicit = ctx.scope.kind === 'customer' && ctx.scope.explicit;
  if (ctx.actor.role !== 'ADMIN' && !isExplicit) {
    throw new ValidationError('user.error.customerIdRequired', 'customerId is required: name the customer the user joins', {
      parameter: 'customerId',
    });
  }
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  assertCanGrantRole(ctx.actor, body.role);
  if (body.trustedAdmin) assertTrustedAdminChange(ctx.actor, body.role);
  const authProvider = body.authProvider ?? 'LOCAL';
  if (authProvider !== 'LOCAL' && body.password !== undefined) {
    throw new ValidationError('user.error.passwordNotLocal', `A ${authProvider} user has no local password`, { field: 'password' });
  }
  if (!isSsoOnly(body) && body.password === undefined) {
    throw new ValidationError('user.error.passwordRequired', 'A password is required unless the user signs in only through SSO', {
      field: 'password',
    });
  }
  const teamGrants = parseTeamIdsParam(input.teamIds);
  if (teamGrants.length > 0 && hasRole(body.role, 'OWNER')) {
    throw new ValidationError('user.error.ownerInTeam', 'An OWNER or ADMIN cannot belong to a team', { parameter: 'teamIds' });
  }
  if (await q.isEmailTaken(ctx.db, body.email)) throw emailExists(body.email);
  await requireProtectedOperation(ctx);
  const passwordHash = body.password === undefined ? null : await hashPassword(body.password);
  const { password: _password, ...fields } = body;

  const created = await withEmailConflict(body.email, () =>
    withTransaction(ctx.db, async (tx) => {
      await assertWithinLimit(tx, customerId, 'USER');
      const row = await q.insertUser(tx, { ...fields, id: uuidv7(), authProvider, customerId, passwordHash });
      if (authProvider === 'LOCAL')
        await issuePasswordSetupLink(tx, { config: ctx.config, user: row, sender: ctx.actor, reason: 'created' });
      if (teamGrants.length > 0) await assignTeams(tx, ctx, 'user', row.id, input.teamIds);
      await auditUser(tx, ctx, row, 'create', `User '${row.email}' created (${enLabels.role[row.role]})`, {
        ...fields,
        ...(body.password === undefined ? {} : { password: 'set' }),
      });

      return (await readUser(tx, row))!;
    }),
  );
  nudgeMailDelivery();

  return created;
}

/** PUT /api/user/?email=: managers change others (within their reach); everyone a few own fields. */
export async function updateUser(ctx: ServiceContext, input: { email: string; body: UserUpdate }) {
  const target = await findInScope(ctx, input.email);
  const changed = changedFields(target, input.body);
  const isSelf = target.id === ctx.actor.userId;
  assertMayUpdate(ctx.actor, target, input.body, changed, isSelf);
  if (changed.length === 0) return (await readUser(ctx.db, target))!;

  const body = input.body;
  if (changed.includes('email') && (await q.isEmailTaken(ctx.db, body.email!))) throw emailExists(body.email!);
  const roleRaised = changed.includes('role') && hasRole(body.role!, 'OWNER');
  if (roleRaised || PROTECTED_FIELDS.some((f) => changed.includes(f))) await requireProtectedOperation(ctx);

  const values: Partial<typeof users.$inferInsert> = Object.fromEntries(
    changed.filter((f) => f !== 'password' && f !== 'use2FA').map((f) => [f, body[f]]),
  );
  if (changed.includes('password')) values.passwordHash = await hashPassword(body.password!);
  if (changed.includes('use2FA')) Object.assign(values, { use2FA: false, totpSecret: null, totpPendingSecret: null });
  const audited = Object.fromEntries(
    changed.map((f) => [f, f === 'password' ? 'changed' : { from: target[f as keyof UserRow] ?? null, to: body[f] ?? null }]),
  );

  return withEmailConflict(body.email ?? target.email, () =>
    withTransaction(ctx.db, async (tx) => {
      await q.updateUser(tx, target, values);
      // DECISIONS §5: a new password ends every session of that user.
      if (changed.includes('password')) await q.revokeAllFamiliesOfUser(tx, target.id, 'password_change');
      await auditUser(tx, ctx, target, 'update', `User '${target.email}' updated: ${changed.join(', ')}`, audited);

      return (await readUser(tx, target))!;
    }),
  );
}

/** DELETE /api/user/?email=; the user's token families and picture go with it (cascade). */
export async function deleteUser(ctx: ServiceContext, input: { email: string }) {
  const target = await findInScope(ctx, input.email);
  assertCanManage(ctx.actor, target);
  if (target.id === ctx.actor.userId) return deleteMyAccount(ctx);
  await requireProtectedOperation(ctx);
  await withTransaction(ctx.db, async (tx) => {
    await q.deleteUser(tx, target);
    await auditUser(tx, ctx, target, 'delete', `User '${target.email}' deleted`);
  });
}

/**
 * DELETE /api/user/myAccount. The service keeps at least one ADMIN, and a customer at least one
 * OWNER: its last OWNER leaving would leave nobody to manage its users (an ADMIN still can).
 */
export async function deleteMyAccount(ctx: ServiceContext) {
  const me = await q.findOwnUser(ctx.db, ctx.actor);
  if (!me) throw new NotFoundError('user', ctx.actor.userId);
  await assertNotLastManager(ctx.db, me);
  await requireProtectedOperation(ctx);
  await withTransaction(ctx.db, async (tx) => {
    // Two last OWNERs (or ADMINs) leaving at once must not both pass the check: serialise, re-check.
    await q.lockLastManagerCheck(tx);
    await assertNotLastManager(tx, me);
    await q.deleteUser(tx, me);
    await auditUser(tx, ctx, me, 'delete', `User '${me.email}' deleted their own account`);
  });
}

async function assertNotLastManager(db: Executor, me: UserRow) {
  if (me.role === 'ADMIN' && (await q.countAdmins(db)) <= 1) {
    throw new ConflictError('user.error.lastAdmin', 'The last ADMIN of the service cannot delete their account');
  }
  if (me.role === 'OWNER' && (await q.countOwnersOfCustomer(db, me.customerId)) <= 1) {
    throw new ConflictError('user.error.lastOwner', 'The last OWNER of a customer cannot delete their account');
  }
}

/** A user the service just wrote or resolved, in the API's shape. */
export function readUser(db: Executor, user: { id: string; customerId: number }, select?: string) {
  return findOne<User>(db, {
    resource: userResource,
    scope: customerScope(user.customerId),
    where: [eq(users.id, user.id)],
    select,
    defaultSelect: USER_DEFAULT_SELECT,
  });
}

export const auditUser = auditOf('user', (user: UserRow) => ({ entityId: user.id, entityName: user.email, customerId: user.customerId }));

async function findInScope(ctx: ServiceContext, email: string): Promise<UserRow> {
  const user = await q.findUserByEmail(ctx.db, ctx.scope, email);
  if (!user) throw new NotFoundError('user', email);

  return user;
}

/** The body fields whose value differs from the stored one: only those count as "touched". */
function changedFields(target: UserRow, body: UserUpdate): (keyof UserUpdate)[] {
  return (Object.keys(body) as (keyof UserUpdate)[]).filter((field) => {
    if (body[field] === undefined) return false;
    if (field === 'password') return true;
    if (field === 'use2FA') return target.use2FA || target.totpSecret !== null;

    return body[field] !== (target[field as keyof UserRow] ?? undefined);
  });
}

function assertMayUpdate(actor: UserActor, target: UserRow, body: UserUpdate, changed: (keyof UserUpdate)[], isSelf: boolean) {
  if (changed.includes('authProvider')) {
    throw new ValidationError('user.error.authProviderImmutable', 'authProvider cannot be changed after creation', {
      field: 'authProvider',
    });
  }
  if (!hasRole(actor.role, 'OWNER')) {
    if (!isSelf) throw new ForbiddenError('Only an OWNER or ADMIN can change other users', 'user.error.notAllowed');
    const denied = changed.filter((f) => !(SELF_EDITABLE_FIELDS as readonly string[]).includes(f));
    if (denied.length > 0) {
      throw new ForbiddenError(`You can change only ${SELF_EDITABLE_FIELDS.join(', ')} of your own account`, 'user.error.fieldNotAllowed', {
        fields: denied,
      });
    }

    return;
  }
  assertCanManage(actor, target);
  if (changed.includes('role')) {
    if (isSelf) throw new ForbiddenError('You cannot change your own role', 'user.error.ownRole');
    assertCanGrantRole(actor, body.role!);
  }
  if (changed.includes('trustedAdmin')) assertTrustedAdminChange(actor, target.role);
  if (changed.includes('password') && target.authProvider !== 'LOCAL') {
    throw new ValidationError('user.error.passwordNotLocal', `A ${target.authProvider} user has no local password`, { field: 'password' });
  }
}

/** OWNER and ADMIN manage users up to their own role; only an ADMIN manages an ADMIN. */
function assertCanManage(actor: UserActor, target: { role: Role }) {
  if (!hasRole(actor.role, 'OWNER')) throw new ForbiddenError('Only an OWNER or ADMIN can manage users', 'user.error.notAllowed');
  if (!hasRole(actor.role, target.role))
    throw new ForbiddenError(`You cannot manage a user with role ${target.role}`, 'user.error.roleAboveOwn');
}

function assertCanGrantRole(actor: UserActor, role: Role) {
  if (!hasRole(actor.role, role)) throw new ForbiddenError(`You cannot give the role ${role}`, 'user.error.roleAboveOwn', { role });
}

function assertTrustedAdminChange(actor: UserActor, role: Role) {
  if (actor.role !== 'ADMIN') throw new ForbiddenError('Only an ADMIN can set trustedAdmin', 'user.error.trustedAdminForbidden');
  if (role !== 'ADMIN')
    throw new ValidationError('user.error.trustedAdminNotAdmin', 'trustedAdmin applies only to ADMIN users', { field: 'trustedAdmin' });
}

/** SSO-only: an external provider, or SSO sign-in with username/password sign-in switched off. */
function isSsoOnly(body: UserCreate): boolean {
  return (body.authProvider ?? 'LOCAL') !== 'LOCAL' || (body.ssoLoginEnabled === true && body.usernamePasswordLoginEnabled === false);
}

function emailExists(email: string) {
  return new ConflictError('user.error.emailExists', `A user with the e-mail '${email}' already exists`);
}

async function withEmailConflict<T>(email: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, 'app_user_email_key')) throw emailExists(email);
    throw err;
  }
}
