import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '@/server/config';
import { ConfigError } from '@/server/config';
import type { Database } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { hashPassword } from '@/server/auth/password';
import { systemContext } from '@/server/context/service-context';
import { auditChange } from '@/server/modules/audit-log';
import { insertInitialFolders } from '@/server/modules/folders';
import { customers } from '@/server/tenant/customers.table';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { users } from './users.table';

export type BootstrapResult = { created: false } | { created: true; email: string; generatedPassword?: string };

/**
 * DECISIONS §1: when no user exists, create the first ADMIN in the root customer from
 * ADMIN_EMAIL / ADMIN_PASSWORD. Without a password, development generates one (returned to be
 * printed once); production refuses to start.
 */
export async function ensureFirstAdmin(db: Database, config: Config): Promise<BootstrapResult> {
  const existing = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  if ((existing[0]?.n ?? 0) > 0) return { created: false };
  if (!config.admin.password && config.isProduction) {
    throw new ConfigError(
      'Invalid configuration:\n  ADMIN_PASSWORD: required in production to create the first administrator on an empty database',
    );
  }
  const generatedPassword = config.admin.password ? undefined : randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(config.admin.password ?? generatedPassword!);
  const email = config.admin.email.toLowerCase();

  return withTransaction(db, async (tx) => {
    // Serialise concurrent starters on a shared PostgreSQL: only one creates the admin.
    await tx.execute(sql`select pg_advisory_xact_lock(727001)`);
    const again = await tx.select({ n: sql<number>`count(*)::int` }).from(users);
    if ((again[0]?.n ?? 0) > 0) return { created: false } as const;
    const name = config.admin.rootCustomerName;
    const found = await tx.select().from(customers).where(eq(customers.name, name)).limit(1);
    let root = found[0];
    if (!root) {
      root = (await tx.insert(customers).values({ name, licenseTier: 'ENTERPRISE' }).returning())[0]!;
      // Like every customer: its root device and file folders and the Templates content folder.
      await insertInitialFolders(tx, root.id);
    }
    const id = uuidv7();
    await tx.insert(users).values({ id, customerId: root.id, email, name: 'Administrator', role: 'ADMIN', passwordHash });
    await auditChange(tx, systemContext(db, 'startup.first-admin'), {
      action: 'create',
      entityType: 'user',
      entityId: id,
      entityName: email,
      customerId: root.id,
      customerName: root.name,
      message: `First administrator ${email} created in customer '${root.name}'`,
    });

    return { created: true, email, generatedPassword } as const;
  });
}

/**
 * Gives every customer without a root file folder its initial folders. Earlier builds created the first
 * administrator's customer without them; this repairs such a database on start (a no-op afterwards).
 */
export async function ensureInitialFolders(db: Database): Promise<number> {
  const missing = await db
    .select({ id: customers.id })
    .from(customers)
    .where(
      sql`not exists (select 1 from ${fileFolders} where ${fileFolders.customerId} = ${customers.id} and ${fileFolders.parentId} is null)`,
    );
  for (const { id } of missing) await withTransaction(db, (tx) => insertInitialFolders(tx, id));

  return missing.length;
}
