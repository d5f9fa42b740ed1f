import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { expect } from 'vitest';
import { devices } from '@/server/modules/devices/devices.table';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import type { Role } from '@/server/context/roles';
import type { TestContext } from '@/server/test/harness';

/** Test data for the device folder API tests: folders through the API, devices straight into the table. */

export type Group = { id: string; customerId: number; path: string[]; parentId: string | null; type: string };

/** A customer with an OWNER, a TECHNICIAN, an APPROVER (one below the writes' minimum) and a VIEWER; another customer's TECHNICIAN. */
export async function deviceGroupTenants(t: TestContext) {
  const customerId = (await t.factories.customer()).id;
  const token = async (role: Role, customer = customerId) => (await t.actor(role, { customerId: customer })).token;
  const other = (await t.factories.customer()).id;
  const kit = deviceGroupKit(t);

  return {
    kit,
    customerId,
    owner: await token('OWNER'),
    technician: await token('TECHNICIAN'),
    approver: await token('APPROVER'),
    viewer: await token('VIEWER'),
    otherTechnician: await token('TECHNICIAN', other),
    root: await kit.rootOf(customerId),
    otherRoot: await kit.rootOf(other),
  };
}

export function deviceGroupKit(t: TestContext) {
  const groupRow = async (id: string) => (await t.db.select().from(deviceGroups).where(eq(deviceGroups.id, id)).limit(1))[0];
  const deviceRow = async (id: string) => (await t.db.select().from(devices).where(eq(devices.id, id)).limit(1))[0];

  return {
    groupRow,
    deviceRow,
    async rootOf(customerId: number): Promise<Group> {
      const rows = await t.db.select().from(deviceGroups).where(eq(deviceGroups.customerId, customerId));

      return rows.find((g) => g.parentId === null) as Group;
    },
    create(token: string, parentId: string, body: Record<string, unknown>, query = '') {
      return t.request('POST', `/api/deviceGroup/${parentId}${query}`, { token, json: body });
    },
    async createOk(token: string, parentId: string, name: string, extra: Record<string, unknown> = {}): Promise<Group> {
      const res = await t.request('POST', `/api/deviceGroup/${parentId}`, { token, json: { name, ...extra } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);

      return (await groupRow(res.body.id)) as Group;
    },
    /** A screen directly in `folder` (the device endpoints arrive with the devices module). */
    async insertDevice(folder: Group, deviceStatus: 'ONLINE' | 'OFFLINE' = 'OFFLINE') {
      const [row] = await t.db
        .insert(devices)
        .values({
          id: uuidv7(),
          customerId: folder.customerId,
          deviceGroupId: folder.id,
          groupPath: folder.path,
          name: 'Screen',
          deviceStatus,
          secretHash: 'test',
        })
        .returning();

      return row!;
    },
    async names(token: string, query: string): Promise<string[]> {
      const res = await t.request('GET', `/api/v2/deviceGroup?size=100&${query}`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);

      return (res.body.content as { name?: string }[]).map((g) => g.name ?? '(root)').sort();
    },
  };
}
