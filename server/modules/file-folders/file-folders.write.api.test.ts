import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { customers } from '@/server/tenant/customers.table';
import { files } from '@/server/modules/files/files.table';
import { blobCleanup } from '@/server/storage/storage.table';
import { folderTestKit, type Folder, type FolderTestKit } from './file-folders.test-kit';

let k: FolderTestKit;
let t: FolderTestKit['t'];
let customerId: number;
let owner: string;
let editor: string;
let viewer: string;
let approver: string;
let otherEditor: string;
let otherRootId: string;
let rootId: string;
const folderRow = (id: string) => k.folderRow(id);
const fileValues: FolderTestKit['fileValues'] = (folder, values) => k.fileValues(folder, values);
const insertFile: FolderTestKit['insertFile'] = (folder, values) => k.insertFile(folder, values);
const create: FolderTestKit['create'] = (...args) => k.create(...args);
const createOk: FolderTestKit['createOk'] = (parentId, name) => k.createOk(parentId, name);
const names: FolderTestKit['names'] = (token, query) => k.names(token, query);

beforeAll(async () => {
  k = await folderTestKit();
  ({ t, customerId, owner, editor, viewer, approver, otherEditor, otherRootId, rootId } = k);
});
afterAll(() => t.close());

describe('moveBatchToFolder', () => {
  let src: Folder;
  let child: Folder;
  let grandChild: Folder;
  let target: Folder;

  beforeAll(async () => {
    src = await createOk(rootId, 'MoveSrc');
    child = await createOk(src.id, 'MoveChild');
    grandChild = await createOk(child.id, 'MoveGrandChild');
    target = await createOk(rootId, 'MoveTarget');
  });

  it('moves folders with every descendant and rewrites the paths of the folders and files below', async () => {
    const deep = await insertFile(grandChild);
    const top = await insertFile(src);
    const loose = await insertFile({ id: rootId, customerId, path: [rootId] });
    const res = await t.request('POST', '/api/fileFolder/moveBatchToFolder', {
      token: editor,
      json: { targetFolder: { id: target.id }, folderIds: [src.id], fileIds: [loose.id] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: target.id, name: 'MoveTarget' });
    expect(await folderRow(src.id)).toMatchObject({ parentId: target.id, path: [rootId, target.id, src.id] });
    expect((await folderRow(child.id))!.path).toEqual([rootId, target.id, src.id, child.id]);
    expect((await folderRow(grandChild.id))!.path).toEqual([rootId, target.id, src.id, child.id, grandChild.id]);
    const rows = await t.db
      .select({ id: files.id, folderPath: files.folderPath, fileFolderId: files.fileFolderId })
      .from(files)
      .where(sql`${files.id} in (${deep.id}, ${top.id}, ${loose.id})`);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(deep.id)!.folderPath).toEqual([rootId, target.id, src.id, child.id, grandChild.id]);
    expect(byId.get(top.id)!.folderPath).toEqual([rootId, target.id, src.id]);
    expect(byId.get(loose.id)).toMatchObject({ fileFolderId: target.id, folderPath: [rootId, target.id] });
    expect(await names(viewer, `search=fileFolderPath:${target.id}`)).toEqual(['MoveChild', 'MoveGrandChild', 'MoveSrc', 'MoveTarget']);
  });

  it('moves a folder and its own descendant in one batch', async () => {
    const res = await t.request('POST', '/api/fileFolder/moveBatchToFolder', {
      token: editor,
      json: { targetFolder: { id: rootId }, folderIds: [src.id, grandChild.id] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await folderRow(src.id))!.path).toEqual([rootId, src.id]);
    expect(await folderRow(grandChild.id)).toMatchObject({ parentId: rootId, path: [rootId, grandChild.id] });
    expect((await folderRow(child.id))!.path).toEqual([rootId, src.id, child.id]);
  });

  it('refuses moving a folder into itself or a descendant, and the root (409)', async () => {
    const self = await t.request('POST', '/api/fileFolder/moveBatchToFolder', {
      token: editor,
      json: { targetFolder: { id: src.id }, folderIds: [src.id] },
    });
    expect(self.status).toBe(409);
    expect(self.body.key).toBe('fileFolder.error.moveIntoItself');
    const below = await t.request('POST', '/api/fileFolder/moveBatchToFolder', {
      token: editor,
      json: { targetFolder: { id: child.id }, folderIds: [src.id] },
    });
    expect(below.status).toBe(409);
    expect(below.body.key).toBe('fileFolder.error.moveIntoItself');
    const root = await t.request('POST', '/api/fileFolder/moveBatchToFolder', {
      token: editor,
      json: { targetFolder: { id: target.id }, folderIds: [rootId] },
    });
    expect(root.status).toBe(409);
    expect(root.body.key).toBe('fileFolder.error.root');
    expect((await folderRow(src.id))!.path).toEqual([rootId, src.id]);
  });

  it("refuses a name clash in the target (409), unknown and other tenants' ids (404), bad bodies (400), a VIEWER (403)", async () => {
    const clash = await createOk(target.id, 'MoveChild');
    const dup = await t.request('POST', '/api/fileFolder/moveBatchToFolder', {
      token: editor,
      json: { targetFolder: { id: target.id }, folderIds: [child.id] },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.key).toBe('fileFolder.error.duplicateName');
    expect((await folderRow(child.id))!.parentId).toBe(src.id);
    expect(clash.parentId).toBe(target.id);
    const otherFolder = await t.request('POST', '/api/fileFolder/moveBatchToFolder', {
      token: editor,
      json: { targetFolder: { id: target.id }, folderIds: [otherRootId] },
    });
    expect(otherFolder.status).toBe(404);
    const otherTarget = await t.request('POST', '/api/fileFolder/moveBatchToFolder', {
      token: otherEditor,
      json: { targetFolder: { id: target.id }, fileIds: [] },
    });
    expect(otherTarget.status).toBe(404);
    const unknownFile = await t.request('POST', '/api/fileFolder/moveBatchToFolder', {
      token: editor,
      json: { targetFolder: { id: target.id }, fileIds: [uuidv7()] },
    });
    expect(unknownFile.status).toBe(404);
    expect(unknownFile.body.key).toBe('file.error.notFound');
    expect((await t.request('POST', '/api/fileFolder/moveBatchToFolder', { token: editor, json: { folderIds: [src.id] } })).status).toBe(
      400,
    );
    expect(
      (await t.request('POST', '/api/fileFolder/moveBatchToFolder', { token: viewer, json: { targetFolder: { id: target.id } } })).status,
    ).toBe(403);
  });
});

describe('delete', () => {
  it('deletes a folder with its sub-folders and 2 000 files in one transaction: blobs queued, quota returned', async () => {
    const big = await createOk(rootId, 'Big');
    const inner = await createOk(big.id, 'Inner');
    await t.db
      .insert(files)
      .values([...Array.from({ length: 1500 }, () => fileValues(big)), ...Array.from({ length: 500 }, () => fileValues(inner))]);
    await t.db
      .update(customers)
      .set({ usedStorageSize: 2_000_000 + 5_000 })
      .where(eq(customers.id, customerId));
    const res = await t.request('DELETE', `/api/fileFolder/${big.id}?removeFromPlaylists=true`, { token: editor });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect(await folderRow(big.id)).toBeUndefined();
    expect(await folderRow(inner.id)).toBeUndefined();
    const [left] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(files)
      .where(sql`${files.folderPath} && array[${big.id}]::uuid[]`);
    expect(left!.n).toBe(0);
    const [queued] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(blobCleanup)
      .where(eq(blobCleanup.reason, 'file deleted'));
    expect(queued!.n).toBeGreaterThanOrEqual(4000);
    const [customer] = await t.db.select({ used: customers.usedStorageSize }).from(customers).where(eq(customers.id, customerId));
    expect(customer!.used).toBe(5_000);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, big.id), eq(auditLog.action, 'delete')));
    expect(entry?.message).toContain('2000 file(s)');
  });

  it('refuses the root (409), another tenant (404), a VIEWER (403)', async () => {
    const root = await t.request('DELETE', `/api/fileFolder/${rootId}`, { token: editor });
    expect(root.status).toBe(409);
    expect(root.body.key).toBe('fileFolder.error.root');
    const folder = await createOk(rootId, 'Keep');
    expect((await t.request('DELETE', `/api/fileFolder/${folder.id}`, { token: otherEditor })).status).toBe(404);
    expect((await t.request('DELETE', `/api/fileFolder/${folder.id}`, { token: viewer })).status).toBe(403);
    expect(await folderRow(folder.id)).toBeDefined();
  });

  it('deletes files and folders in a batch', async () => {
    const one = await createOk(rootId, 'BatchOne');
    const two = await createOk(one.id, 'BatchTwo');
    const inside = await insertFile(two);
    const loose = await insertFile({ id: rootId, customerId, path: [rootId] });
    const keep = await insertFile({ id: rootId, customerId, path: [rootId] });
    const root = await t.request('POST', '/api/fileFolder/deleteBatch', { token: editor, json: { folderIds: [rootId] } });
    expect(root.status).toBe(409);
    const other = await t.request('POST', '/api/fileFolder/deleteBatch', { token: otherEditor, json: { fileIds: [loose.id] } });
    expect(other.status).toBe(404);
    expect((await t.request('POST', '/api/fileFolder/deleteBatch', { token: editor, json: { fileIds: ['x'] } })).status).toBe(400);
    const res = await t.request('POST', '/api/fileFolder/deleteBatch?removeFromPlaylists=false', {
      token: editor,
      json: { folderIds: [one.id, two.id], fileIds: [loose.id] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect(await folderRow(one.id)).toBeUndefined();
    const remaining = await t.db
      .select({ id: files.id })
      .from(files)
      .where(sql`${files.id} in (${inside.id}, ${loose.id}, ${keep.id})`);
    expect(remaining.map((r) => r.id)).toEqual([keep.id]);
  });
});

describe('storage statistics', () => {
  it('answers the quota and the use of the selected customer', async () => {
    await t.db.update(customers).set({ storageSize: 10_000_000, usedStorageSize: 1234 }).where(eq(customers.id, customerId));
    const res = await t.request('GET', '/api/fileFolder/storageStatistics', { token: viewer });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      totalAvailableStorageSize: 10_000_000,
      totalUsedStorageSize: 1234,
      usedDatasourceResourceStorageSize: 0,
      usedUploadedFileStorageSize: 1234,
    });
  });

  it('sums the customers of the scope without customerId: every one for ADMIN, the network for its OWNER', async () => {
    const network = await t.factories.customer({
      isSubreseller: true,
      subresellerSince: new Date(),
      storageSize: 1000,
      usedStorageSize: 100,
    });
    const member = await t.factories.customer({ ownerSubresellerId: network.id, storageSize: 2000, usedStorageSize: 20 });
    await t.factories.customer({ storageSize: 5000, usedStorageSize: 7 });
    const networkOwner = (await t.actor('OWNER', { customerId: network.id })).token;
    const stats = async (token: string, query = '') => {
      const res = await t.request('GET', `/api/fileFolder/storageStatistics${query}`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);

      return res.body;
    };
    expect(await stats(networkOwner)).toMatchObject({ totalAvailableStorageSize: 3000, totalUsedStorageSize: 120 });
    expect(await stats(networkOwner, `?customerId=${member.id}`)).toMatchObject({
      totalAvailableStorageSize: 2000,
      totalUsedStorageSize: 20,
    });
    const [all] = await t.db.select({ used: sql<string>`sum(${customers.usedStorageSize})` }).from(customers);
    const admin = (await t.actor('ADMIN')).token;
    // Some customer has unlimited storage: no total.
    const global = await stats(admin);
    expect(global.totalUsedStorageSize).toBe(Number(all!.used));
    expect(global.totalAvailableStorageSize).toBeUndefined();
    expect((await t.request('GET', `/api/fileFolder/storageStatistics?customerId=${member.id}`, { token: viewer })).status).toBe(403);
  });

  it('leaves the total out when storage is unlimited', async () => {
    await t.db.update(customers).set({ storageSize: null }).where(eq(customers.id, customerId));
    const res = await t.request('GET', '/api/fileFolder/storageStatistics', { token: viewer });
    expect(res.body.totalAvailableStorageSize).toBeUndefined();
    expect(res.body.usedUploadedFileStorageSize).toBe(1234);
  });
});

describe('cleanup mode', () => {
  it('is set by an APPROVER (EDITOR 403, another tenant 404) and the job removes outdated files directly in such folders', async () => {
    const folder = await createOk(rootId, 'Cleanup');
    const sub = await createOk(folder.id, 'CleanupSub');
    expect(
      (await t.request('PUT', `/api/fileFolder/setCleanupOutdatedFiles?folderId=${folder.id}&cleanupOutdatedFiles=true`, { token: editor }))
        .status,
    ).toBe(403);
    expect((await t.request('PUT', `/api/fileFolder/setCleanupOutdatedFiles?folderId=${folder.id}`, { token: approver })).status).toBe(400);
    const res = await t.request('PUT', `/api/fileFolder/setCleanupOutdatedFiles?folderId=${folder.id}&cleanupOutdatedFiles=true`, {
      token: approver,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.cleanupOutdatedFiles).toBe(true);
    expect(
      (
        await t.request('PUT', `/api/fileFolder/setCleanupOutdatedFiles?folderId=${folder.id}&cleanupOutdatedFiles=true`, {
          token: otherEditor,
        })
      ).status,
    ).toBe(403);

    const past = new Date(Date.now() - 60_000);
    const outdated = await insertFile(folder, { validTo: past });
    const current = await insertFile(folder, { validTo: new Date(Date.now() + 3_600_000) });
    const noEnd = await insertFile(folder);
    const inSub = await insertFile(sub, { validTo: past });
    const elsewhere = await insertFile({ id: rootId, customerId, path: [rootId] }, { validTo: past });
    const { cleanupOutdatedFiles } = await import('./file-folders.jobs');
    expect(await cleanupOutdatedFiles(t.db)).toBe(1);
    const left = await t.db
      .select({ id: files.id })
      .from(files)
      .where(sql`${files.id} in (${outdated.id}, ${current.id}, ${noEnd.id}, ${inSub.id}, ${elsewhere.id})`);
    expect(left.map((r) => r.id).sort()).toEqual([current.id, noEnd.id, inSub.id, elsewhere.id].sort());
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'cleanupOutdatedFiles'), eq(auditLog.customerId, customerId)));
    expect(entry?.message).toContain('1 outdated file');
    const [queued] = await t.db
      .select()
      .from(blobCleanup)
      .where(eq(blobCleanup.key, `customer/${customerId}/files/${outdated.id}`));
    expect(queued).toBeDefined();
    expect(await cleanupOutdatedFiles(t.db)).toBe(0);
  });
});

describe('filtered folders', () => {
  let fileFilter: string;
  let contentFilter: string;

  beforeAll(async () => {
    const { quickFilters } = await import('@/server/modules/quick-filters/quick-filters.table');
    fileFilter = uuidv7();
    contentFilter = uuidv7();
    await t.db.insert(quickFilters).values([
      { id: fileFilter, customerId, name: 'PNG files', filteredEntityType: 'FILE', criteria: { type: 'FILE', name: 'special-xyz' } },
      { id: contentFilter, customerId, name: 'Some content', filteredEntityType: 'CONTENT', criteria: { type: 'CONTENT', name: 'x' } },
    ]);
  });

  it('creates a filtered folder from a FILE quick filter of the same customer', async () => {
    const res = await t.request(
      'POST',
      `/api/fileFolder/addFilteredFileFolder?parentId=${rootId}&name=Filtered&quickFilterId=${fileFilter}`,
      { token: editor },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ name: 'Filtered', fileFolderType: 2, quickFilterId: fileFilter });
    const filtered = res.body.id as string;
    const elsewhere = await createOk(rootId, 'FilterSource');
    await insertFile(elsewhere, { name: 'special-xyz-1.jpg' });
    await insertFile({ id: rootId, customerId, path: [rootId] }, { name: 'special-xyz-2.jpg' });
    const counted = await t.request('GET', `/api/v2/fileFolder?search=fileFolderType=2&select=name,fileCount,quickFilterId`, {
      token: viewer,
    });
    expect(counted.status).toBe(200);
    expect(counted.body.content).toEqual([{ id: filtered, name: 'Filtered', quickFilterId: fileFilter, fileCount: 2 }]);
    expect((await t.request('GET', `/api/v2/fileFolder/${elsewhere.id}?select=fileCount`, { token: viewer })).body.fileCount).toBe(1);

    const sub = await create(editor, filtered, 'Inside');
    expect(sub.status).toBe(409);
    expect(sub.body.key).toBe('fileFolder.error.filtered');
    const file = await insertFile({ id: rootId, customerId, path: [rootId] });
    const move = await t.request('POST', '/api/fileFolder/moveBatchToFolder', {
      token: editor,
      json: { targetFolder: { id: filtered }, fileIds: [file.id] },
    });
    expect(move.status).toBe(409);
    expect(move.body.key).toBe('fileFolder.error.filtered');
  });

  it('refuses another entity type (400), an unknown or foreign filter (404), missing parameters (400)', async () => {
    const content = await t.request(
      'POST',
      `/api/fileFolder/addFilteredFileFolder?parentId=${rootId}&name=F2&quickFilterId=${contentFilter}`,
      { token: editor },
    );
    expect(content.status).toBe(400);
    expect(content.body.key).toBe('fileFolder.error.quickFilterType');
    expect(
      (
        await t.request('POST', `/api/fileFolder/addFilteredFileFolder?parentId=${rootId}&name=F3&quickFilterId=${uuidv7()}`, {
          token: editor,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request('POST', `/api/fileFolder/addFilteredFileFolder?parentId=${otherRootId}&name=F4&quickFilterId=${fileFilter}`, {
          token: otherEditor,
        })
      ).status,
    ).toBe(404);
    expect((await t.request('POST', `/api/fileFolder/addFilteredFileFolder?parentId=${rootId}&name=F5`, { token: editor })).status).toBe(
      400,
    );
    expect(
      (
        await t.request('POST', `/api/fileFolder/addFilteredFileFolder?parentId=${rootId}&name=F6&quickFilterId=${fileFilter}`, {
          token: viewer,
        })
      ).status,
    ).toBe(403);
  });
});

describe('teams', () => {
  let teamA: string;
  let teamB: string;
  let member: string;
  let memberId: string;
  let readOnlyFolder: Folder;
  let writableFolder: Folder;
  let hiddenFolder: Folder;

  beforeAll(async () => {
    const team = async (name: string) => {
      const res = await t.request('POST', '/api/team', { token: owner, json: { name } });
      expect(res.status).toBe(201);

      return res.body.id as string;
    };
    teamA = await team('Folder team A');
    teamB = await team('Folder team B');
    const m = await t.actor('EDITOR', { customerId });
    member = m.token;
    memberId = m.user.id;
    expect(
      (
        await t.request('PUT', `/api/team/updateUserAssignments?teamId=${teamA}`, {
          token: owner,
          json: { resourcesToAdd: [{ id: memberId }] },
        })
      ).status,
    ).toBe(200);
    const ro = await create(owner, rootId, 'TeamReadOnly', `&teamIds=${teamA}:true`);
    expect(ro.status, JSON.stringify(ro.body)).toBe(201);
    readOnlyFolder = (await folderRow(ro.body.id))!;
    writableFolder = await createOk(rootId, 'TeamWritable');
    hiddenFolder = await createOk(rootId, 'TeamHidden');
    const assign = await t.request('POST', `/api/fileFolder/updateTeamAssignments?fileFolderId=${writableFolder.id}`, {
      token: owner,
      json: { assignToTeams: [{ teamId: teamA, readOnly: false }] },
    });
    expect(assign.status, JSON.stringify(assign.body)).toBe(200);
    expect(assign.body.teams).toEqual([expect.objectContaining({ id: teamA, readOnly: false })]);
    await t.request('POST', `/api/fileFolder/updateTeamAssignments?fileFolderId=${hiddenFolder.id}`, {
      token: owner,
      json: { assignToTeams: [{ teamId: teamB, readOnly: false }] },
    });
  });

  it("a team member sees the root and its teams' folders, with readOnly on request", async () => {
    const res = await t.request('GET', '/api/v2/fileFolder?size=100&includeReadOnlyInfo=true&select=name', { token: member });
    expect(res.status).toBe(200);
    const seen = new Map((res.body.content as { id: string; readOnly: boolean }[]).map((f) => [f.id, f.readOnly]));
    expect(seen.get(rootId)).toBe(false);
    expect(seen.get(readOnlyFolder.id)).toBe(true);
    expect(seen.get(writableFolder.id)).toBe(false);
    expect(seen.has(hiddenFolder.id)).toBe(false);
    expect((await t.request('GET', `/api/v2/fileFolder/${hiddenFolder.id}`, { token: member })).status).toBe(404);
  });

  it('refuses writes through a read-only team (403) and to invisible folders (404)', async () => {
    const ro = await t.request('POST', `/api/fileFolder/rename?folderId=${readOnlyFolder.id}&newName=x`, { token: member });
    expect(ro.status).toBe(403);
    expect(ro.body.key).toBe('team.error.readOnly');
    expect((await create(member, readOnlyFolder.id, 'Sub')).status).toBe(403);
    expect((await t.request('DELETE', `/api/fileFolder/${hiddenFolder.id}`, { token: member })).status).toBe(404);
    expect((await create(member, writableFolder.id, 'MemberSub')).status).toBe(201);
  });

  it('a team user deletes a folder only when everything below it is visible and writable', async () => {
    const mine = await create(member, writableFolder.id, 'MemberTree');
    expect(mine.status).toBe(201);
    const inner = await createOk(mine.body.id, 'OtherTeamInside');
    await t.request('POST', `/api/fileFolder/updateTeamAssignments?fileFolderId=${inner.id}`, {
      token: owner,
      json: { assignToTeams: [{ teamId: teamB, readOnly: false }] },
    });
    const refused = await t.request('DELETE', `/api/fileFolder/${mine.body.id}`, { token: member });
    expect(refused.status).toBe(403);
    expect(refused.body.key).toBe('team.error.readOnly');
    expect(await folderRow(inner.id)).toBeDefined();
    await t.request('POST', `/api/fileFolder/updateTeamAssignments?fileFolderId=${inner.id}`, {
      token: owner,
      json: { removeFromTeamIds: [teamB], assignToTeams: [{ teamId: teamA, readOnly: false }] },
    });
    await insertFile(inner);
    expect((await t.request('DELETE', `/api/fileFolder/${mine.body.id}`, { token: member })).status).toBe(204);
    expect(await folderRow(inner.id)).toBeUndefined();
  });

  it('lets team users create in the root only when the customer allows it', async () => {
    expect((await create(member, rootId, 'MemberTop')).status).toBe(201);
    await t.db.update(customers).set({ fileCreationInRootForTeamUsers: false }).where(eq(customers.id, customerId));
    const res = await create(member, rootId, 'MemberTop2');
    expect(res.status).toBe(403);
    expect(res.body.key).toBe('fileFolder.error.rootCreationDisabled');
    expect((await create(editor, rootId, 'NotATeamUser')).status).toBe(201);
    await t.db.update(customers).set({ fileCreationInRootForTeamUsers: true }).where(eq(customers.id, customerId));
  });

  it('team assignment: OWNER only, not the root, not another tenant', async () => {
    const body = { assignToTeams: [{ teamId: teamA, readOnly: true }] };
    expect(
      (await t.request('POST', `/api/fileFolder/updateTeamAssignments?fileFolderId=${hiddenFolder.id}`, { token: editor, json: body }))
        .status,
    ).toBe(403);
    const root = await t.request('POST', `/api/fileFolder/updateTeamAssignments?fileFolderId=${rootId}`, { token: owner, json: body });
    expect(root.status).toBe(409);
    expect(root.body.key).toBe('fileFolder.error.root');
    const otherOwner = (await t.actor('OWNER', { customerId: (await t.factories.customer()).id })).token;
    expect(
      (await t.request('POST', `/api/fileFolder/updateTeamAssignments?fileFolderId=${hiddenFolder.id}`, { token: otherOwner, json: body }))
        .status,
    ).toBe(404);
  });

  it('search by team through teamAssignments', async () => {
    expect(await names(owner, `search=teamAssignments.team.id=${teamB}`)).toEqual(['TeamHidden']);
  });
});
