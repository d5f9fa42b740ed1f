import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '@/server/tenant/customers.table';
import { insertFile, insertFolder, rootFolderOf } from '@/server/modules/files/files.test-kit';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { teams, teamAssignments } from '@/server/modules/teams/teams.table';
import { blobCleanup } from '@/server/storage/storage.table';
import { createTestContext, type TestContext } from '@/server/test/harness';

/**
 * The statement triggers of migration 0003 (server/db/custom-sql/file_delete_trigger.sql): whatever
 * deletes file rows — a direct delete, a folder's cascade, a customer's cascade — queues the blobs,
 * returns the bytes to the quota and drops the team assignments, in the same transaction.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function tree() {
  const customer = await t.factories.customer();
  const root = await rootFolderOf(t.db, customer.id);
  const folder = await insertFolder(t.db, root, 'Campaign assets');
  const sub = await insertFolder(t.db, folder, 'Nested');
  const kept = await insertFile(t.db, root, { size: 7 });
  const inFolder = await Promise.all([insertFile(t.db, folder, { size: 100 }), insertFile(t.db, sub, { size: 200 })]);
  await t.db.update(customers).set({ usedStorageSize: 307 }).where(eq(customers.id, customer.id));
  const [team] = await t.db.insert(teams).values({ id: crypto.randomUUID(), customerId: customer.id, name: 'Team' }).returning();
  await t.db.insert(teamAssignments).values([
    ...[kept, ...inFolder].map((f) => ({
      teamId: team!.id,
      customerId: customer.id,
      resourceType: 'file',
      resourceId: f.id,
      readOnly: false,
    })),
    { teamId: team!.id, customerId: customer.id, resourceType: 'fileFolder', resourceId: sub.id, readOnly: true },
  ]);

  return { customer, folder, sub, kept, inFolder, team: team! };
}

const keysOf = (fileIds: string[], customerId: number) =>
  fileIds.flatMap((id) => [`customer/${customerId}/files/${id}`, `customer/${customerId}/files/${id}.tmb`]);

describe('deleting a folder', () => {
  it('removes its files and sub-folders with their blobs, bytes and team assignments in one statement', async () => {
    const { customer, folder, sub, kept, inFolder } = await tree();
    await t.db.delete(fileFolders).where(eq(fileFolders.id, folder.id));

    const queued = await t.db
      .select()
      .from(blobCleanup)
      .where(
        inArray(
          blobCleanup.key,
          keysOf(
            [...inFolder, kept].map((f) => f.id),
            customer.id,
          ),
        ),
      );
    expect(queued.map((q) => q.key).sort()).toEqual(
      keysOf(
        inFolder.map((f) => f.id),
        customer.id,
      ).sort(),
    );
    const [after] = await t.db.select().from(customers).where(eq(customers.id, customer.id));
    expect(after!.usedStorageSize).toBe(7);
    const assignments = await t.db
      .select()
      .from(teamAssignments)
      .where(inArray(teamAssignments.resourceId, [kept.id, sub.id, ...inFolder.map((f) => f.id)]));
    expect(assignments.map((a) => a.resourceId)).toEqual([kept.id]);
  });

  it('never lets the quota counter go below zero', async () => {
    const { customer, folder } = await tree();
    await t.db.update(customers).set({ usedStorageSize: 5 }).where(eq(customers.id, customer.id));
    await t.db.delete(fileFolders).where(eq(fileFolders.id, folder.id));
    const [after] = await t.db.select().from(customers).where(eq(customers.id, customer.id));
    expect(after!.usedStorageSize).toBe(0);
  });
});

describe('deleting a customer', () => {
  it('queues the blobs of all its files', async () => {
    const { customer, kept, inFolder } = await tree();
    await t.db.delete(customers).where(eq(customers.id, customer.id));
    const queued = await t.db
      .select()
      .from(blobCleanup)
      .where(sql`${blobCleanup.key} like ${`customer/${customer.id}/files/%`}`);
    expect(queued.map((q) => q.key).sort()).toEqual(
      keysOf(
        [kept, ...inFolder].map((f) => f.id),
        customer.id,
      ).sort(),
    );
  });
});
