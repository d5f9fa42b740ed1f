import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { fileRowValues, insertFile, rootFolderOf } from '@/server/modules/files/files.test-kit';
import type { files } from '@/server/modules/files/files.table';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { createTestContext } from '@/server/test/harness';

export type Folder = { id: string; customerId: number; path: string[]; parentId?: string | null };

/** One tenant with a user per role, another tenant's EDITOR, and helpers writing rows directly. */
export async function folderTestKit() {
  const t = await createTestContext();
  const customerId = (await t.factories.customer()).id;
  const rootOf = (customer: number): Promise<Folder> => rootFolderOf(t.db, customer);
  const other = (await t.factories.customer()).id;
  const kit = {
    t,
    customerId,
    owner: (await t.actor('OWNER', { customerId })).token,
    editor: (await t.actor('EDITOR', { customerId })).token,
    viewer: (await t.actor('VIEWER', { customerId })).token,
    approver: (await t.actor('APPROVER', { customerId })).token,
    otherEditor: (await t.actor('EDITOR', { customerId: other })).token,
    otherRootId: (await rootOf(other)).id,
    rootId: (await rootOf(customerId)).id,
    root: await rootOf(customerId),

    async folderRow(id: string) {
      const [row] = await t.db.select().from(fileFolders).where(eq(fileFolders.id, id)).limit(1);

      return row;
    },

    fileValues: fileRowValues,

    insertFile(folder: Folder, values: Partial<typeof files.$inferInsert> = {}) {
      return insertFile(t.db, folder, values);
    },

    create(token: string, parentId: string, name: string, extra = '') {
      return t.request('POST', `/api/fileFolder/?parentId=${parentId}&name=${encodeURIComponent(name)}${extra}`, { token });
    },

    async createOk(parentId: string, name: string): Promise<Folder> {
      const res = await kit.create(kit.editor, parentId, name);
      expect(res.status, JSON.stringify(res.body)).toBe(201);

      return (await kit.folderRow(res.body.id))!;
    },

    async names(token: string, query: string): Promise<string[]> {
      const res = await t.request('GET', `/api/v2/fileFolder?size=100&${query}`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);

      return (res.body.content as { name?: string }[]).map((f) => f.name ?? '(root)').sort();
    },
  };

  return kit;
}

export type FolderTestKit = Awaited<ReturnType<typeof folderTestKit>>;
