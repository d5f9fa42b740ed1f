import { eq } from 'drizzle-orm';
import { resolveTenantScope, scopeCondition } from '@/server/auth/tenant-scope';
import { isUniqueViolation } from '@/server/db/errors';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError } from '@/server/errors';
import type { ServiceContext } from '@/server/http/context';
import { authorOf, writeAudit } from '@/server/modules/audit-log/audit-log.writer';
import { findOne, findPage } from '@/server/query';
import { customerResource } from './customers.resource';
import type { CustomerCreate } from './customers.schemas';
import { customers } from './customers.table';
import { insertCustomer } from './customers.queries';

export async function selectAccessibleCustomers(ctx: ServiceContext, input: { page?: string; size?: string; sort: string[]; search?: string; select?: string }) {
  // Accessible customers do not depend on a selected tenant: resolve the caller's widest scope.
  const scope = await resolveTenantScope(ctx.db, ctx.actor, undefined);

  return findPage(ctx.db, { resource: customerResource, where: [scopeCondition(scope, customers.id)], ...input });
}

export async function createCustomer(ctx: ServiceContext, input: CustomerCreate) {
  try {
    return await withTransaction(ctx.db, async (tx) => {
      const row = await insertCustomer(tx, {
        name: input.name,
        licenseTier: input.licenseTier ?? 'ENTERPRISE',
        vertical: input.vertical,
        comment: input.comment,
        country: input.country,
        location: input.location,
        type: input.type,
      });
      await writeAudit(tx, authorOf(ctx), {
        action: 'create',
        entityType: 'customer',
        entityId: row.id,
        entityName: row.name,
        customerId: row.id,
        customerName: row.name,
        message: `Customer '${row.name}' created (${row.licenseTier})`,
        changes: { ...input },
      });
      const created = await findOne(tx, { resource: customerResource, where: [eq(customers.id, row.id)] });

      return created!;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'customer_name_key')) {
      throw new ConflictError('customer.error.nameExists', `A customer named '${input.name}' already exists`);
    }
    throw err;
  }
}
