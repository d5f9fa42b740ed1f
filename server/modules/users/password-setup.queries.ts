import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { customers } from '@/server/tenant/customers.table';
import { passwordSetupTokens } from './password-setup.table';
import { users } from './users.table';

/** Marks every open link of the user as superseded: only the newest link works. */
export async function supersedeOpenLinks(db: Executor, userId: string, at: Date): Promise<void> {
  await db
    .update(passwordSetupTokens)
    .set({ supersededAt: at })
    .where(and(eq(passwordSetupTokens.userId, userId), isNull(passwordSetupTokens.usedAt), isNull(passwordSetupTokens.supersededAt)));
}

export async function insertLink(db: Executor, values: typeof passwordSetupTokens.$inferInsert): Promise<void> {
  await db.insert(passwordSetupTokens).values(values);
}

/** A link by its token's hash, with what deciding its use needs of the user and the customer. */
export async function findLinkByHash(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({
      id: passwordSetupTokens.id,
      expiresAt: passwordSetupTokens.expiresAt,
      usedAt: passwordSetupTokens.usedAt,
      supersededAt: passwordSetupTokens.supersededAt,
      user: { id: users.id, email: users.email, customerId: users.customerId, authProvider: users.authProvider },
      customerRestricted: customers.restricted,
    })
    .from(passwordSetupTokens)
    .innerJoin(users, eq(users.id, passwordSetupTokens.userId))
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(eq(passwordSetupTokens.tokenHash, tokenHash))
    .limit(1);

  return row;
}

/** Uses the link if it is still open; false when another request used it (or it lapsed) first. */
export async function consumeLink(db: Executor, id: string): Promise<boolean> {
  const rows = await db
    .update(passwordSetupTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(passwordSetupTokens.id, id),
        isNull(passwordSetupTokens.usedAt),
        isNull(passwordSetupTokens.supersededAt),
        gt(passwordSetupTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: passwordSetupTokens.id });

  return rows.length > 0;
}
