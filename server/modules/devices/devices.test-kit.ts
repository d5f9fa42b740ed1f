import { and, eq, isNull } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { hashToken } from '@/server/auth/opaque-token';
import { deviceContents } from '@/server/modules/content/content.table';
import { contentGroups, deviceGroups } from '@/server/modules/folders/folders.table';
import { createTestContext } from '@/server/test/harness';
import { insertDevice } from './devices.queries';
import type { devices } from './devices.table';

/** One tenant with a user per role, another tenant, their root device folders and a device factory. */
export async function devicesTestKit() {
  const t = await createTestContext();
  const customerId = (await t.factories.customer()).id;
  const other = (await t.factories.customer()).id;
  const deviceRoot = async (customer: number) =>
    (
      await t.db
        .select()
        .from(deviceGroups)
        .where(and(eq(deviceGroups.customerId, customer), isNull(deviceGroups.parentId)))
        .limit(1)
    )[0]!;
  const root = await deviceRoot(customerId);
  const otherRoot = await deviceRoot(other);

  return {
    t,
    customerId,
    otherCustomerId: other,
    root,
    otherRoot,
    /** The root device folder of `customer` (one created by `t.factories.customer`). */
    rootFolder: deviceRoot,
    admin: (await t.actor('ADMIN')).token,
    owner: (await t.actor('OWNER', { customerId })).token,
    technician: (await t.actor('TECHNICIAN', { customerId })).token,
    approver: (await t.actor('APPROVER', { customerId })).token,
    editor: (await t.actor('EDITOR', { customerId })).token,
    viewer: (await t.actor('VIEWER', { customerId })).token,
    otherTechnician: (await t.actor('TECHNICIAN', { customerId: other })).token,

    /** A claimed device in `folder` (the tenant's root by default), or an unclaimed one with `folder: null`. */
    async device(
      values: Partial<typeof devices.$inferInsert> = {},
      folder: { id: string; customerId: number; path: string[] } | null = root,
    ) {
      return insertDevice(t.db, {
        id: uuidv7(),
        customerId: folder?.customerId ?? null,
        deviceGroupId: folder?.id ?? null,
        groupPath: folder?.path ?? [],
        name: `Screen ${uuidv7().slice(-6)}`,
        secretHash: hashToken(uuidv7()),
        ...values,
      });
    },

    /** A playlist of `customer` (the tenant's by default) in its root content folder, inserted directly. */
    async content(customer: number = customerId, name = 'Menu') {
      const [contentRoot] = await t.db
        .select()
        .from(contentGroups)
        .where(and(eq(contentGroups.customerId, customer), isNull(contentGroups.parentId)))
        .limit(1);
      const [row] = await t.db
        .insert(deviceContents)
        .values({
          id: uuidv7(),
          customerId: customer,
          deviceContentType: 'simpleLoop',
          simpleLoopType: 'NORMAL',
          version: '2.0',
          contentGroupId: contentRoot!.id,
          groupPath: contentRoot!.path,
          name,
          data: { loopData: {}, slides: [] },
        })
        .returning();

      return row!;
    },

    /** A device folder under `parent`, inserted directly (the device-groups module owns the API). */
    async folder(
      name: string,
      parent: { id: string; customerId: number; path: string[] } = root,
      type: 'NORMAL' | 'VIDEO_WALL' = 'NORMAL',
    ) {
      const id = uuidv7();
      const [row] = await t.db
        .insert(deviceGroups)
        .values({ id, customerId: parent.customerId, parentId: parent.id, name, type, path: [...parent.path, id] })
        .returning();

      return row!;
    },
  };
}

export type DevicesTestKit = Awaited<ReturnType<typeof devicesTestKit>>;
