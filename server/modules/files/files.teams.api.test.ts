import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { insertFile, insertFolder, rootFolderOf } from './files.test-kit';
import { files, type FileRow } from './files.table';

let t: TestContext;
let customerId: number;
let owner: string;
let approver: string;
let member: { token: string; id: string };
let otherFile: FileRow;
type Folder = { id: string; customerId: number; path: string[] };
let root: Folder;
let sub: Folder;
const team: Record<'T1' | 'T2', string> = { T1: '', T2: '' };

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  owner = (await t.actor('OWNER', { customerId })).token;
  approver = (await t.actor('APPROVER', { customerId })).token;
  const m = await t.actor('APPROVER', { customerId });
  member = { token: m.token, id: m.user.id };
  root = await rootFolderOf(t.db, customerId);
  sub = await insertFolder(t.db, root, 'Sub');
  for (const name of ['T1', 'T2'] as const) {
    const res = await t.request('POST', '/api/team', { token: owner, json: { name } });
    team[name] = res.body.id;
  }
  const res = await t.request('PUT', `/api/team/updateUserAssignments?teamId=${team.T1}`, {
    token: owner,
    json: { resourcesToAdd: [{ id: member.id }] },
  });
  expect(res.status).toBe(200);
  const other = await t.factories.customer();
  otherFile = await insertFile(t.db, await rootFolderOf(t.db, other.id), { name: 'other.png' });
});
afterAll(() => t.close());

async function assign(file: FileRow, grants: { teamId: string; readOnly?: boolean }[], removeFromTeamIds: string[] = []) {
  const res = await t.request('POST', `/api/file/updateTeamAssignments?fileId=${file.id}`, {
    token: owner,
    json: { assignToTeams: grants, removeFromTeamIds },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return res.body;
}

async function teamsOf(file: FileRow) {
  const rows = await t.db
    .select({ teamId: teamAssignments.teamId, readOnly: teamAssignments.readOnly })
    .from(teamAssignments)
    .where(and(eq(teamAssignments.resourceType, 'file'), eq(teamAssignments.resourceId, file.id)));

  return Object.fromEntries(rows.map((r) => [r.teamId === team.T1 ? 'T1' : 'T2', r.readOnly]));
}

describe('team visibility and POST /api/file/updateTeamAssignments', () => {
  let writable: FileRow;
  let readOnly: FileRow;
  let elsewhere: FileRow;

  beforeAll(async () => {
    writable = await insertFile(t.db, root, { name: 'v-writable.png' });
    readOnly = await insertFile(t.db, root, { name: 'v-readonly.png' });
    elsewhere = await insertFile(t.db, root, { name: 'v-elsewhere.png' });
    await insertFile(t.db, root, { name: 'v-teamless.png' });
    expect((await assign(writable, [{ teamId: team.T1 }])).teams).toEqual([{ id: team.T1, name: 'T1', readOnly: false }]);
    await assign(readOnly, [{ teamId: team.T1, readOnly: true }]);
    await assign(elsewhere, [{ teamId: team.T2 }]);
  });

  it("a team member lists its teams' files with readOnly; search by team works", async () => {
    const res = await t.request('GET', '/api/v2/file?search=name:v-&select=name&includeReadOnlyInfo=true', { token: member.token });
    expect(res.body.content.map((x: { name: string; readOnly: boolean }) => [x.name, x.readOnly])).toEqual([
      ['v-readonly.png', true],
      ['v-writable.png', false],
    ]);
    const withTeamless = await t.request('GET', '/api/v2/file?search=name:v-&select=name&includeResourcesWithoutTeam=true', {
      token: member.token,
    });
    expect(withTeamless.body.content.map((x: { name: string }) => x.name)).toEqual(['v-readonly.png', 'v-teamless.png', 'v-writable.png']);
    const byTeam = await t.request('GET', `/api/v2/file?search=${encodeURIComponent(`teamAssignments.team.id=${team.T2}`)}&select=name`, {
      token: owner,
    });
    expect(byTeam.body.content.map((x: { name: string }) => x.name)).toEqual(['v-elsewhere.png']);
  });

  it("a single read answers readOnly; another team's file is 404 for the member", async () => {
    expect((await t.request('GET', `/api/v2/file/${readOnly.id}?select=name`, { token: member.token })).body).toEqual({
      id: readOnly.id,
      name: 'v-readonly.png',
      readOnly: true,
    });
    expect((await t.request('GET', `/api/v2/file/${elsewhere.id}`, { token: member.token })).status).toBe(404);
  });

  it('writes through a read-only team are 403; bulk writes skip such files', async () => {
    const put = await t.request('PUT', `/api/file/${readOnly.id}`, { token: member.token, json: { muted: true } });
    expect(put.status).toBe(403);
    expect(put.body.key).toBe('team.error.readOnly');
    expect((await t.request('DELETE', `/api/file/${readOnly.id}`, { token: member.token })).status).toBe(403);
    expect((await t.request('PUT', `/api/file/${writable.id}`, { token: member.token, json: { muted: true } })).status).toBe(200);
    const bulk = await t.request('POST', '/api/v2/file/tags/add?search=name:v-', { token: member.token, json: ['bulk'] });
    // The writable team file and the team-less one (members reach team-less files: accessResourcesWithoutTeam).
    expect(bulk.body).toEqual({ updated: 2 });
    const [row] = await t.db.select({ tags: files.tags }).from(files).where(eq(files.id, readOnly.id));
    expect(row!.tags).toEqual([]);
  });

  it("updateTeamAssignments: removes teams; 403 below OWNER; 404 for another tenant's file or team", async () => {
    const body = await assign(elsewhere, [], [team.T2]);
    expect(body).toEqual({ teams: [] });
    await assign(elsewhere, [{ teamId: team.T2 }]);
    expect((await t.request('POST', `/api/file/updateTeamAssignments?fileId=${elsewhere.id}`, { token: approver, json: {} })).status).toBe(
      403,
    );
    expect(
      (
        await t.request('POST', `/api/file/updateTeamAssignments?fileId=${otherFile.id}`, {
          token: owner,
          json: { assignToTeams: [{ teamId: team.T1 }] },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request('POST', `/api/file/updateTeamAssignments?fileId=${elsewhere.id}`, {
          token: owner,
          json: { assignToTeams: [{ teamId: '01a2220b-0000-7000-8000-000000000000' }] },
        })
      ).status,
    ).toBe(404);
    // Not a team id at all: the schema says uuid.
    expect(
      (
        await t.request('POST', `/api/file/updateTeamAssignments?fileId=${elsewhere.id}`, {
          token: owner,
          json: { assignToTeams: [{ teamId: 'x' }] },
        })
      ).status,
    ).toBe(400);
  });
});

describe('PUT /api/file/replaceFileReference', () => {
  const replace = (query: string, token = approver) => t.request('PUT', `/api/file/replaceFileReference?${query}`, { token });

  it("MERGE (default) adds the old file's teams to the source file; the old file stays", async () => {
    const old = await insertFile(t.db, root, { name: 'r-old.png' });
    const source = await insertFile(t.db, root, { name: 'r-new.png' });
    await assign(old, [{ teamId: team.T1, readOnly: true }, { teamId: team.T2 }]);
    await assign(source, [{ teamId: team.T1 }]);
    const res = await replace(`fileIdToReplace=${old.id}&sourceFileId=${source.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: source.id, name: 'r-new.png' });
    expect(await teamsOf(source)).toEqual({ T1: false, T2: false });
    expect((await t.db.select().from(files).where(eq(files.id, old.id))).length).toBe(1);
  });

  it("OVERWRITE copies exactly the old file's teams; removeOldFile deletes it", async () => {
    const old = await insertFile(t.db, root, { name: 'o-old.png' });
    const source = await insertFile(t.db, root, { name: 'o-new.png' });
    await assign(old, [{ teamId: team.T2, readOnly: true }]);
    await assign(source, [{ teamId: team.T1 }]);
    const res = await replace(`fileIdToReplace=${old.id}&sourceFileId=${source.id}&teamAssignmentMode=OVERWRITE&removeOldFile=true`);
    expect(res.status).toBe(200);
    expect(await teamsOf(source)).toEqual({ T2: true });
    expect((await t.db.select().from(files).where(eq(files.id, old.id))).length).toBe(0);
    expect(await teamsOf(old)).toEqual({});
  });

  it("KEEP_TARGET leaves the source file's teams", async () => {
    const old = await insertFile(t.db, root, { name: 'k-old.png' });
    const source = await insertFile(t.db, root, { name: 'k-new.png' });
    await assign(old, [{ teamId: team.T2 }]);
    expect((await replace(`fileIdToReplace=${old.id}&sourceFileId=${source.id}&teamAssignmentMode=KEEP_TARGET`)).status).toBe(200);
    expect(await teamsOf(source)).toEqual({});
  });

  it("answers 404 for another tenant's file, 400 for bad input, 403 to an EDITOR", async () => {
    const mine = await insertFile(t.db, root, { name: 'e.png' });
    expect((await replace(`fileIdToReplace=${mine.id}&sourceFileId=${otherFile.id}`)).status).toBe(404);
    expect((await replace(`fileIdToReplace=${otherFile.id}&sourceFileId=${mine.id}`)).status).toBe(404);
    expect((await replace(`fileIdToReplace=${mine.id}&sourceFileId=${mine.id}`)).status).toBe(400);
    expect((await replace(`fileIdToReplace=${mine.id}`)).status).toBe(400);
    expect((await replace(`fileIdToReplace=${mine.id}&sourceFileId=${otherFile.id}&teamAssignmentMode=BOTH`)).status).toBe(400);
    const editor = (await t.actor('EDITOR', { customerId })).token;
    expect((await replace(`fileIdToReplace=${mine.id}&sourceFileId=${mine.id}`, editor)).status).toBe(403);
  });
});

describe('GET /api/v2/file/view/summary', () => {
  it('answers the folders matching folderSearch and a page of files matching fileSearch', async () => {
    const inSub = await insertFile(t.db, sub, { name: 's-one.png' });
    await insertFile(t.db, sub, { name: 's-two.png' });
    const query = `folderSearch=${encodeURIComponent(`parentId=${root.id}`)}&folderSelect=name,fileCount&fileSearch=${encodeURIComponent(`fileFolderId=${sub.id}`)}&select=name&size=1`;
    const res = await t.request('GET', `/api/v2/file/view/summary?${query}`, { token: owner });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.fileFolders).toEqual([{ id: sub.id, name: 'Sub', fileCount: 2 }]);
    expect(res.body.fileFoldersTruncated).toBe(false);
    expect(res.body.files).toMatchObject({ content: [{ id: inSub.id, name: 's-one.png' }], totalElements: 2, size: 1 });
  });

  it('answers 400 for a bad folderSearch or fileSearch', async () => {
    expect((await t.request('GET', '/api/v2/file/view/summary?folderSearch=nope:1', { token: owner })).status).toBe(400);
    expect((await t.request('GET', '/api/v2/file/view/summary?fileSearch=nope:1', { token: owner })).status).toBe(400);
  });
});
