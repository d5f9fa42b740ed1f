import { eq } from 'drizzle-orm';
import { scopeCondition } from '@/server/auth/tenant-scope';
import { NotFoundError } from '@/server/errors';
import type { ServiceContext } from '@/server/http/context';
import { findOne, findPage } from '@/server/query';
import { userResource } from './users.resource';
import { users } from './users.table';

const ME_SELECT = '*,customer(id,name,expirationDate,force2FA)';

export async function getCurrentUser(ctx: ServiceContext, input: { select?: string }) {
  const user = await findOne(ctx.db, { resource: userResource, where: [eq(users.id, ctx.actor.userId)], select: input.select, defaultSelect: ME_SELECT });
  if (!user) throw new NotFoundError('user', ctx.actor.userId);

  return user;
}

export function listUsers(ctx: ServiceContext, input: { page?: string; size?: string; sort: string[]; search?: string; select?: string }) {
  return findPage(ctx.db, { resource: userResource, where: [scopeCondition(ctx.scope, users.customerId)], ...input });
}
