import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execRows } from '@/server/db/sql';
import { withTransaction } from '@/server/db/transaction';
import { moveFolderSubtrees } from '@/server/modules/folders/folder-tree';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { customers } from '@/server/tenant/customers.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { folderTeamFixture } from '@/server/modules/folders/folder-teams.test-kit';
import { deviceGroupTree } from './device-groups.queries';
import { deviceGroupTenants, type deviceGroupKit, type Group } from './device-groups.test-kit';

/** Moving and deleting device folders (their devices follow), and team access to them. */

let t: TestContext;
let kit: ReturnType<typeof deviceGroupKit>;
let customerId: number;
let owner: string;
let technician: string;
let approver: string;
let otherTechnician: string;
let root: Group;
let otherRoot: Group;

beforeAll(async () => {
  t = await createTestContext();
  ({ kit, customerId, owner, technician, approver, otherTechnician, root, otherRoot } = await deviceGroupTenants(t));
});
afterAll(() => t.close());

const createOk = (parentId: string, name: string, extra: Record<string, unknown> = {}) => kit.createOk(technician, parentId, name, extra);
const move = (token: string, folderId: string, targetId: string) =>
  t.request('POST', `/api/deviceGroup/moveToParent/${folderId}/${targetId}`, { token });
const remove = (token: string, id: string, query = '') => t.request('DELETE', `/api/deviceGroup/${id}${query}`, { token });

/**
 * Moves `folderId` into `targetId` in a transaction held open while `request` starts (given 200 ms to reach
 * its locks), then commits it; answers what the request answered.
 */
async function whileMoveHeldOpen<T>(folderId: string, targetId: string, request: () => Promise<T>): Promise<T> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let moved!: () => void;
  const folderMoved = new Promise<void>((resolve) => (moved = resolve));
  const first = withTransaction(t.db, async (tx) => {
    await moveFolderSubtrees(tx, deviceGroupTree, { customerId, folderIds: [folderId], target: { id: targetId } });
    moved();
    await held;
  });
  await folderMoved;
  const second = request();
  await new Promise((resolve) => setTimeout(resolve, 200));
  release();
  await first;

  return second;
}

describe('POST /api/deviceGroup/moveToParent/{folderId}/{targetFolderId}', () => {
  it('moves a folder with everything below it; every path and every device below follow', async () => {
    const src = await createOk(root.id, 'MoveSrc');
    const child = await createOk(src.id, 'MoveChild');
    const target = await createOk(root.id, 'MoveTarget');
    const direct = await kit.insertDevice(src, 'ONLINE');
    const deep = await kit.insertDevice(child);
    const outside = await kit.insertDevice(target);
    const res = await move(technician, src.id, target.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id: src.id,
      name: 'MoveSrc',
      parentId: target.id,
      deviceGroupPath: `${root.id}/${target.id}/${src.id}`,
    });
    expect(await kit.groupRow(src.id)).toMatchObject({ parentId: target.id, path: [root.id, target.id, src.id] });
    expect(await kit.groupRow(child.id)).toMatchObject({ parentId: src.id, path: [root.id, target.id, src.id, child.id] });
    expect(await kit.deviceRow(direct.id)).toMatchObject({ deviceGroupId: src.id, groupPath: [root.id, target.id, src.id] });
    expect(await kit.deviceRow(deep.id)).toMatchObject({ deviceGroupId: child.id, groupPath: [root.id, target.id, src.id, child.id] });
    expect((await kit.deviceRow(outside.id))!.groupPath).toEqual([root.id, target.id]);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, src.id), eq(auditLog.action, 'move')));
    expect(entry?.message).toBe("Device folder 'MoveSrc' moved into 'MoveTarget'");
    // And back up to the root.
    expect((await move(technician, child.id, root.id)).status).toBe(200);
    expect((await kit.deviceRow(deep.id))!.groupPath).toEqual([root.id, child.id]);
  });

  it('refuses the root, a move into itself or below it, and into a video wall (409); a video wall itself moves', async () => {
    const a = await createOk(root.id, 'Cycle');
    const b = await createOk(a.id, 'CycleChild');
    for (const [folder, target, key] of [
      [a.id, a.id, 'deviceGroup.error.moveIntoItself'],
      [a.id, b.id, 'deviceGroup.error.moveIntoItself'],
      [root.id, a.id, 'deviceGroup.error.root'],
    ] as const) {
      const res = await move(technician, folder, target);
      expect(res.status, `${folder} → ${target}`).toBe(409);
      expect(res.body.key).toBe(key);
    }
    const wall = await createOk(root.id, 'MoveWall', { type: 'VIDEO_WALL' });
    const into = await move(technician, b.id, wall.id);
    expect(into.status).toBe(409);
    expect(into.body.key).toBe('deviceGroup.error.videoWall');
    expect((await kit.groupRow(b.id))!.parentId).toBe(a.id);
    expect((await move(technician, wall.id, a.id)).status).toBe(200);
  });

  it('a move waits for a crossing one to commit, then refuses to make a cycle (409)', async () => {
    const a = await createOk(root.id, 'CrossA');
    const b = await createOk(root.id, 'CrossB');
    // A into B, its transaction held open; meanwhile B into A arrives through the API.
    const res = await whileMoveHeldOpen(a.id, b.id, () => move(technician, b.id, a.id));
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.key).toBe('deviceGroup.error.moveIntoItself');
    expect(await kit.groupRow(b.id)).toMatchObject({ parentId: root.id, path: [root.id, b.id] });
    expect(await kit.groupRow(a.id)).toMatchObject({ parentId: b.id, path: [root.id, b.id, a.id] });
  });

  it("a device moved into a folder while the folder moves gets the folder's new path", async () => {
    const folder = await createOk(root.id, 'Moving');
    const target = await createOk(root.id, 'MovingTarget');
    const device = await kit.insertDevice(root);
    const res = await whileMoveHeldOpen(folder.id, target.id, () =>
      t.request('POST', `/api/v2/device/move?customerId=${customerId}`, {
        token: technician,
        json: { deviceIds: [device.id], targetGroupId: folder.id },
      }),
    );
    expect(res.status).toBe(204);
    expect(await kit.deviceRow(device.id)).toMatchObject({ deviceGroupId: folder.id, groupPath: [root.id, target.id, folder.id] });
  });

  it("refuses another tenant's folder or target (404) and an APPROVER (403)", async () => {
    const mine = await createOk(root.id, 'MineToMove');
    expect((await move(technician, mine.id, otherRoot.id)).status).toBe(404);
    expect((await move(otherTechnician, mine.id, otherRoot.id)).status).toBe(404);
    expect((await move(approver, mine.id, root.id)).status).toBe(403);
    expect((await kit.groupRow(mine.id))!.parentId).toBe(root.id);
  });
});

describe('DELETE /api/deviceGroup/{id}', () => {
  it('moves the devices of the whole subtree into the parent by default, and deletes the folders', async () => {
    const parent = await createOk(root.id, 'DelParent');
    const folder = await createOk(parent.id, 'DelKeep');
    const sub = await createOk(folder.id, 'DelKeepSub');
    const a = await kit.insertDevice(folder);
    const b = await kit.insertDevice(sub, 'ONLINE');
    const res = await remove(technician, folder.id);
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect(await kit.groupRow(folder.id)).toBeUndefined();
    expect(await kit.groupRow(sub.id)).toBeUndefined();
    for (const id of [a.id, b.id])
      expect(await kit.deviceRow(id)).toMatchObject({ deviceGroupId: parent.id, groupPath: [root.id, parent.id] });
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, folder.id), eq(auditLog.action, 'delete')));
    expect(entry?.message).toBe("Device folder 'DelKeep' deleted with 1 sub-folder(s); 2 device(s) moved to 'DelParent'");
  });

  it('moves them into targetGroupId when given, a video wall included', async () => {
    const folder = await createOk(root.id, 'DelToTarget');
    const device = await kit.insertDevice(await createOk(folder.id, 'DelToTargetSub'));
    const wall = await createOk(root.id, 'DelWall', { type: 'VIDEO_WALL' });
    expect((await remove(technician, folder.id, `?targetGroupId=${wall.id}`)).status).toBe(204);
    expect(await kit.deviceRow(device.id)).toMatchObject({ deviceGroupId: wall.id, groupPath: [root.id, wall.id] });
  });

  it('refuses the root, a target inside the deleted folder (409), another tenant (404) and an APPROVER (403)', async () => {
    const r = await remove(technician, root.id);
    expect(r.status).toBe(409);
    expect(r.body.key).toBe('deviceGroup.error.root');
    const folder = await createOk(root.id, 'DelGuarded');
    const sub = await createOk(folder.id, 'DelGuardedSub');
    for (const target of [folder.id, sub.id]) {
      const res = await remove(technician, folder.id, `?targetGroupId=${target}`);
      expect(res.status).toBe(409);
      expect(res.body.key).toBe('deviceGroup.error.targetInDeletedFolder');
    }
    expect((await remove(technician, folder.id, `?targetGroupId=${otherRoot.id}`)).status).toBe(404);
    expect((await remove(otherTechnician, folder.id)).status).toBe(404);
    expect((await remove(approver, folder.id)).status).toBe(403);
    expect((await remove(technician, folder.id, '?targetGroupId=nope')).status).toBe(400);
    expect(await kit.groupRow(sub.id)).toBeDefined();
  });
});

describe('teams', () => {
  let f: Awaited<ReturnType<typeof folderTeamFixture>>;

  beforeAll(async () => {
    const routes = {
      createPath: `/api/deviceGroup/${root.id}`,
      assignPath: '/api/deviceGroup/updateTeamAssignments?deviceGroupId=',
      listPath: '/api/v2/deviceGroup',
    };
    f = await folderTeamFixture(t, { owner, customerId, memberRole: 'TECHNICIAN', label: 'Device', routes });
  });

  it("a team member sees the root and its teams' folders, with readOnly on request", async () => {
    const seen = await f.seenBy(f.member);
    expect([seen.get(root.id), seen.get(f.readOnlyId), seen.get(f.writableId), seen.has(f.hiddenId)]).toEqual([false, true, false, false]);
    expect((await t.request('GET', `/api/v2/deviceGroup/${f.hiddenId}`, { token: f.member })).status).toBe(404);
    const ratio = await t.request('GET', '/api/deviceGroup/getDeviceOnlineOfflineRatio', { token: f.member });
    expect(Object.keys(ratio.body)).not.toContain(f.hiddenId);
  });

  it('refuses writes through a read-only team (403) and to invisible folders (404)', async () => {
    const ro = await t.request('PUT', `/api/deviceGroup/${f.readOnlyId}`, { token: f.member, json: { name: 'x' } });
    expect(ro.status).toBe(403);
    expect(ro.body.key).toBe('team.error.readOnly');
    expect((await kit.create(f.member, f.readOnlyId, { name: 'Sub' })).status).toBe(403);
    expect((await move(f.member, f.writableId, f.readOnlyId)).status).toBe(403);
    expect((await remove(f.member, f.hiddenId)).status).toBe(404);
    expect((await kit.create(f.member, f.writableId, { name: 'MemberSub' })).status).toBe(201);
  });

  it('a team user deletes a folder only when every folder below it is visible and writable', async () => {
    const mine = await kit.create(f.member, f.writableId, { name: 'MemberTree' });
    expect(mine.status).toBe(201);
    const inner = await createOk(mine.body.id, 'OtherTeamInside');
    await f.assign(inner.id, f.teamB);
    const refused = await remove(f.member, mine.body.id);
    expect(refused.status).toBe(403);
    expect(refused.body.key).toBe('team.error.readOnly');
    expect(await kit.groupRow(inner.id)).toBeDefined();
  });

  it('lets team users create in the root only when the customer allows it', async () => {
    expect((await kit.create(f.member, root.id, { name: 'MemberTop' })).status).toBe(201);
    await t.db.update(customers).set({ deviceCreationInRootForTeamUsers: false }).where(eq(customers.id, customerId));
    try {
      const res = await kit.create(f.member, root.id, { name: 'MemberTop2' });
      expect(res.status).toBe(403);
      expect(res.body.key).toBe('deviceGroup.error.rootCreationDisabled');
      expect((await kit.create(technician, root.id, { name: 'NotATeamUser' })).status).toBe(201);
    } finally {
      await t.db.update(customers).set({ deviceCreationInRootForTeamUsers: true }).where(eq(customers.id, customerId));
    }
  });

  it('team assignment: OWNER only, not the root, not another tenant; deleting a folder takes its assignments along', async () => {
    const body = { assignToTeams: [{ teamId: f.teamA, readOnly: true }] };
    expect(
      (await t.request('POST', `/api/deviceGroup/updateTeamAssignments?deviceGroupId=${f.hiddenId}`, { token: technician, json: body }))
        .status,
    ).toBe(403);
    const r = await t.request('POST', `/api/deviceGroup/updateTeamAssignments?deviceGroupId=${root.id}`, { token: owner, json: body });
    expect(r.status).toBe(409);
    expect(r.body.key).toBe('deviceGroup.error.root');
    const otherOwner = (await t.actor('OWNER', { customerId: (await t.factories.customer()).id })).token;
    expect(
      (await t.request('POST', `/api/deviceGroup/updateTeamAssignments?deviceGroupId=${f.hiddenId}`, { token: otherOwner, json: body }))
        .status,
    ).toBe(404);
    expect(await kit.names(owner, `search=teamAssignments.team.id=${f.teamB}`)).toEqual(['OtherTeamInside', 'TeamHidden']);
    const teams = await t.request('GET', `/api/team?includeTeamResourceNumber=true&search=${encodeURIComponent(`id=${f.teamB}`)}`, {
      token: owner,
    });
    expect(teams.body.content[0].teamDeviceGroupNumber).toBe(2);
    const folder = await createOk(root.id, 'Assigned');
    await f.assign(folder.id, f.teamA);
    expect((await remove(owner, folder.id)).status).toBe(204);
    const [left] = await execRows(t.db, sql`select count(*)::int as n from team_assignment where resource_id = ${folder.id}`);
    expect(Number(left!.n)).toBe(0);
  });
});
