import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseConfig } from '@/server/config';
import { customers } from '@/server/tenant/customers.table';
import { contentGroups, deviceGroups, fileFolders } from '@/server/modules/folders/folders.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { ensureFirstAdmin, ensureInitialFolders } from './bootstrap';
import { users } from './users.table';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

it('creates the first ADMIN in a root customer that has its root folders like every customer', async () => {
  expect(await t.db.select().from(users)).toEqual([]);
  const config = parseConfig({
    NODE_ENV: 'test',
    DATA_DIR: t.dataDir,
    ADMIN_EMAIL: 'First@Example.com',
    ADMIN_PASSWORD: 'first-admin-password',
    ROOT_CUSTOMER_NAME: 'Operator HQ',
  });
  expect(await ensureFirstAdmin(t.db, config)).toEqual({ created: true, email: 'first@example.com' });

  const [root] = await t.db.select().from(customers).where(eq(customers.name, 'Operator HQ'));
  const [admin] = await t.db.select().from(users).where(eq(users.customerId, root!.id));
  expect(admin).toMatchObject({ email: 'first@example.com', role: 'ADMIN' });
  const fileRoot = await t.db.select().from(fileFolders).where(eq(fileFolders.customerId, root!.id));
  const deviceRoot = await t.db.select().from(deviceGroups).where(eq(deviceGroups.customerId, root!.id));
  const templates = await t.db.select().from(contentGroups).where(eq(contentGroups.customerId, root!.id));
  expect(fileRoot).toHaveLength(1);
  expect(fileRoot[0]!.parentId).toBeNull();
  expect(deviceRoot).toHaveLength(1);
  expect(templates.filter((g) => g.isTemplateGroup)).toMatchObject([{ parentId: templates.find((g) => g.parentId === null)!.id }]);
  expect(templates).toHaveLength(2);

  expect(await ensureFirstAdmin(t.db, config)).toEqual({ created: false });
});

it('repairs a customer left without its initial folders, once', async () => {
  const [bare] = await t.db.insert(customers).values({ name: 'Created by an earlier build' }).returning();
  expect(await ensureInitialFolders(t.db)).toBe(1);
  const roots = await t.db.select().from(fileFolders).where(eq(fileFolders.customerId, bare!.id));
  expect(roots).toMatchObject([{ parentId: null }]);
  expect(await ensureInitialFolders(t.db)).toBe(0);
});
