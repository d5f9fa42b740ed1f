import { and, eq, isNull } from 'drizzle-orm';
import { expect } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { hashToken } from '@/server/auth/opaque-token';
import { insertDeviceContent } from '@/server/modules/content/content.queries';
import { insertDevice } from '@/server/modules/devices/devices.queries';
import { insertFile, insertFolder, rootFolderOf } from '@/server/modules/files/files.test-kit';
import { contentGroups, deviceGroups } from '@/server/modules/folders/folders.table';
import { insertQuickFilter } from '@/server/modules/quick-filters/quick-filters.queries';
import { teamAssignments, teams } from '@/server/modules/teams/teams.table';
import { createTestContext, type TestContext } from '@/server/test/harness';

type Folder = { id: string; customerId: number; path: string[] };

/** Rows of one tenant written directly (their own modules' APIs are tested there). */
function tenantRows(t: TestContext, customerId: number, roots: { content: Folder; file: Folder; device: Folder }) {
  return {
    customerId,
    roots,
    async content(name = `Content ${uuidv7().slice(-6)}`, folder: Folder = roots.content) {
      return insertDeviceContent(t.db, {
        id: uuidv7(),
        customerId,
        deviceContentType: 'simpleLoop',
        simpleLoopType: 'NORMAL',
        version: '2.0',
        contentGroupId: folder.id,
        groupPath: folder.path,
        name,
        data: { loopData: { resolution: { width: 1920, height: 1080 } }, slides: [] },
      });
    },
    async contentFolder(name: string, parent: Folder = roots.content) {
      const id = uuidv7();
      const [row] = await t.db
        .insert(contentGroups)
        .values({ id, customerId, parentId: parent.id, name, path: [...parent.path, id] })
        .returning();

      return row!;
    },
    file: (name = `file-${uuidv7().slice(-6)}.png`, folder: Folder = roots.file) => insertFile(t.db, folder, { name }),
    fileFolder: (name: string, parent: Folder = roots.file) => insertFolder(t.db, parent, name),
    async deviceFolder(name: string, parent: Folder = roots.device) {
      const id = uuidv7();
      const [row] = await t.db
        .insert(deviceGroups)
        .values({ id, customerId, parentId: parent.id, name, path: [...parent.path, id] })
        .returning();

      return row!;
    },
    device: (name: string, folder: Folder = roots.device, tags: string[] = []) =>
      insertDevice(t.db, {
        id: uuidv7(),
        customerId,
        deviceGroupId: folder.id,
        groupPath: folder.path,
        name,
        tags,
        secretHash: hashToken(uuidv7()),
      }),
    quickFilter: (filteredEntityType: 'FILE' | 'CONTENT' | 'DEVICE', criteria: Record<string, unknown> = {}) =>
      insertQuickFilter(t.db, {
        id: uuidv7(),
        customerId,
        name: `QF ${uuidv7()}`,
        filteredEntityType,
        criteria: { type: filteredEntityType, ...criteria },
      }),
    async team(name = `Team ${uuidv7().slice(-6)}`) {
      const [row] = await t.db.insert(teams).values({ id: uuidv7(), customerId, name }).returning();

      return row!;
    },
    /** Puts a user, device or other resource into a team. */
    async join(teamId: string, resourceType: string, resourceId: string, readOnly = false) {
      await t.db.insert(teamAssignments).values({ teamId, resourceType, resourceId, readOnly, customerId });
    },
  };
}

async function rootsOf(t: TestContext, customerId: number) {
  const [content] = await t.db
    .select()
    .from(contentGroups)
    .where(and(eq(contentGroups.customerId, customerId), isNull(contentGroups.parentId), eq(contentGroups.isTemplateGroup, false)))
    .limit(1);
  const [device] = await t.db
    .select()
    .from(deviceGroups)
    .where(and(eq(deviceGroups.customerId, customerId), isNull(deviceGroups.parentId)))
    .limit(1);

  return { content: content!, file: await rootFolderOf(t.db, customerId), device: device! };
}

/** One tenant with a user per role, another tenant with an approver, and row factories for both. */
export async function campaignsTestKit() {
  const t = await createTestContext();
  const customerId = (await t.factories.customer()).id;
  const otherCustomerId = (await t.factories.customer()).id;
  const own = tenantRows(t, customerId, await rootsOf(t, customerId));
  const other = tenantRows(t, otherCustomerId, await rootsOf(t, otherCustomerId));
  const owner = await t.actor('OWNER', { customerId });
  const approver = await t.actor('APPROVER', { customerId });

  const kit = {
    t,
    customerId,
    otherCustomerId,
    own,
    other,
    owner: owner.token,
    approver: approver.token,
    approverId: approver.user.id,
    editor: (await t.actor('EDITOR', { customerId })).token,
    viewer: (await t.actor('VIEWER', { customerId })).token,
    otherApprover: (await t.actor('APPROVER', { customerId: otherCustomerId })).token,

    /** POST /api/campaign expecting 201; answers the campaign. */
    async create(body: Record<string, unknown>, token = approver.token, query = ''): Promise<Record<string, any>> {
      const res = await t.request('POST', `/api/campaign${query}`, { token, json: body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);

      return res.body;
    },

    /** A channel of type CONTENT playing `contentId`, DYNAMIC over `deviceGroupIds` (the root when none). */
    contentChannel(contentId: string, extra: Record<string, unknown> = {}, deviceGroupIds: string[] = [own.roots.device.id]) {
      return {
        name: `Channel ${uuidv7().slice(-6)}`,
        level: 'WIDGET',
        type: 'CONTENT',
        version: '2.0',
        contentShuffleMode: 'BALANCED',
        contentAssignment: { assignments: [{ contentId, weight: 1 }] },
        deviceGroupAssignment: { assignments: deviceGroupIds.map((deviceGroupId) => ({ deviceGroupId })) },
        ...extra,
      };
    },

    async playerDevices(campaignId: number, token = approver.token): Promise<string[]> {
      const res = await t.request('GET', `/api/campaign/playerDevices?campaignId=${campaignId}`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);

      return (res.body as { name: string }[]).map((d) => d.name);
    },
  };

  return kit;
}

export type CampaignsTestKit = Awaited<ReturnType<typeof campaignsTestKit>>;
