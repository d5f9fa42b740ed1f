import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { insertDeviceContent } from '@/server/modules/content/content.queries';
import { deviceContents } from '@/server/modules/content/content.table';
import { customers } from '@/server/tenant/customers.table';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { folderTeamFixture } from '@/server/modules/folders/folder-teams.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';

type Group = { id: string; customerId: number; path: string[]; parentId: string | null };

let t: TestContext;
let customerId: number;
let owner: string;
let editor: string;
let viewer: string;
let otherEditor: string;
let root: Group;
let templates: Group;
let otherRoot: Group;

const groupRow = async (id: string) => (await t.db.select().from(contentGroups).where(eq(contentGroups.id, id)).limit(1))[0];
const contentRow = async (id: string) => (await t.db.select().from(deviceContents).where(eq(deviceContents.id, id)).limit(1))[0];

async function rootsOf(customer: number) {
  const rows = await t.db.select().from(contentGroups).where(eq(contentGroups.customerId, customer));
  const r = rows.find((g) => g.parentId === null)!;

  return { root: r as Group, templates: rows.find((g) => g.isTemplateGroup) as Group };
}

function create(token: string, name: string, parentGroupId?: string, extra = '') {
  const query = parentGroupId ? `?parentGroupId=${parentGroupId}${extra}` : extra ? `?${extra.slice(1)}` : '';

  return t.request('POST', `/api/contentGroup${query}`, { token, json: { name, deviceContentType: 'content' } });
}

async function createOk(name: string, parentGroupId?: string): Promise<Group> {
  const res = await create(editor, name, parentGroupId);
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return (await groupRow(res.body.id)) as Group;
}

/** A playlist or slide placed directly in `group` (the content endpoints arrive with the content module). */
async function insertContent(group: Group, values: Partial<typeof deviceContents.$inferInsert> = {}) {
  return insertDeviceContent(t.db, {
    id: uuidv7(),
    customerId: group.customerId,
    deviceContentType: 'simpleLoop',
    simpleLoopType: 'NORMAL',
    version: '2.0',
    contentGroupId: group.id,
    groupPath: group.path,
    name: 'Item',
    data: { loopData: {}, slides: [] },
    ...values,
  });
}

async function names(token: string, query: string): Promise<string[]> {
  const res = await t.request('GET', `/api/v2/contentGroup?size=100&${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return (res.body.content as { name?: string }[]).map((g) => g.name ?? '(root)').sort();
}

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  owner = (await t.actor('OWNER', { customerId })).token;
  editor = (await t.actor('EDITOR', { customerId })).token;
  viewer = (await t.actor('VIEWER', { customerId })).token;
  const other = (await t.factories.customer()).id;
  otherEditor = (await t.actor('EDITOR', { customerId: other })).token;
  ({ root, templates } = await rootsOf(customerId));
  otherRoot = (await rootsOf(other)).root;
});
afterAll(() => t.close());

describe('GET /api/v2/contentGroup', () => {
  it('a customer starts with its root and the Templates folder below it', async () => {
    expect(root).toMatchObject({ parentId: null, path: [root.id] });
    expect(templates).toMatchObject({ parentId: root.id, path: [root.id, templates.id], isTemplateGroup: true });
    const res = await t.request('GET', '/api/v2/contentGroup?search=parentId=NULL', { token: viewer });
    expect(res.status).toBe(200);
    expect(res.body.content).toEqual([expect.objectContaining({ id: root.id, contentGroupPath: root.id, isTemplateGroup: false })]);
    expect(res.body.content[0].name).toBeUndefined();
    const tpl = await t.request('GET', '/api/v2/contentGroup?search=isTemplateGroup=true', { token: viewer });
    expect(tpl.body.content).toEqual([
      expect.objectContaining({ id: templates.id, name: 'Templates', parentId: root.id, contentGroupPath: `${root.id}/${templates.id}` }),
    ]);
  });

  it('counts content and playlists directly in a folder when selected', async () => {
    const folder = await createOk('Counted');
    await insertContent(folder);
    await insertContent(folder, { deviceContentType: 'content', structureType: 'SLIDE', simpleLoopType: null, version: '1.0', data: {} });
    await insertContent(folder, { deviceContentType: 'content', structureType: 'COMPLEX', simpleLoopType: null, version: '1.0', data: {} });
    const res = await t.request('GET', `/api/v2/contentGroup/${folder.id}?select=name,contentCount,simpleLoopCount`, { token: viewer });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ id: folder.id, name: 'Counted', contentCount: 2, simpleLoopCount: 1 });
    const plain = await t.request('GET', `/api/v2/contentGroup/${folder.id}`, { token: viewer });
    expect(plain.body.contentCount).toBeUndefined();
  });

  it('finds a folder and everything below it through contentGroupPath', async () => {
    const a = await createOk('PathA');
    const b = await createOk('PathB', a.id);
    await createOk('PathC', b.id);
    expect(await names(viewer, `search=contentGroupPath:${a.id}`)).toEqual(['PathA', 'PathB', 'PathC']);
    expect(await names(viewer, `search=parentId=${a.id}`)).toEqual(['PathB']);
  });

  it("never shows another tenant's folders", async () => {
    expect((await t.request('GET', `/api/v2/contentGroup/${root.id}`, { token: otherEditor })).status).toBe(404);
    const res = await t.request('GET', '/api/v2/contentGroup?size=100', { token: otherEditor });
    expect((res.body.content as { id: string }[]).map((g) => g.id)).not.toContain(root.id);
  });
});

describe('POST /api/contentGroup', () => {
  it('creates under the root when no parent is given, and under a parent', async () => {
    const top = await create(editor, 'Top');
    expect(top.status, JSON.stringify(top.body)).toBe(201);
    expect(top.body).toMatchObject({ name: 'Top', parentId: root.id, contentGroupPath: `${root.id}/${top.body.id}` });
    const sub = await create(editor, 'Sub', top.body.id);
    expect(sub.status).toBe(201);
    expect(sub.body).toMatchObject({ parentId: top.body.id, contentGroupPath: `${root.id}/${top.body.id}/${sub.body.id}` });
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'contentGroup'), eq(auditLog.entityId, sub.body.id)));
    expect(entry).toMatchObject({ action: 'create', customerId, entityName: 'Sub' });
  });

  it('refuses a sibling with the same name, whatever its case (409)', async () => {
    await createOk('Twin');
    const res = await create(editor, 'TWIN');
    expect(res.status).toBe(409);
    expect(res.body.key).toBe('contentGroup.error.duplicateName');
    expect((await create(editor, 'Twin', templates.id)).status).toBe(201);
  });

  it('validates the body (400) and needs EDITOR (403)', async () => {
    expect((await t.request('POST', '/api/contentGroup', { token: editor, json: { name: '   ' } })).status).toBe(400);
    expect((await t.request('POST', '/api/contentGroup', { token: editor, json: { name: 'x'.repeat(256) } })).status).toBe(400);
    expect(
      (await t.request('POST', '/api/contentGroup', { token: editor, json: { name: 'x', deviceContentType: 'simpleLoop' } })).status,
    ).toBe(400);
    expect((await create(viewer, 'ByViewer')).status).toBe(403);
  });

  it("refuses another tenant's parent (404)", async () => {
    expect((await create(editor, 'Intruder', otherRoot.id)).status).toBe(404);
  });
});

describe('PUT /api/contentGroup/{id}', () => {
  it('renames a folder and audits it', async () => {
    const folder = await createOk('OldName');
    const res = await t.request('PUT', `/api/contentGroup/${folder.id}`, { token: editor, json: { name: 'NewName' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: folder.id, name: 'NewName' });
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, folder.id), eq(auditLog.action, 'rename')));
    expect(entry?.message).toBe("Content folder 'OldName' renamed to 'NewName'");
  });

  it('keeps the root and the Templates folder as they are (409)', async () => {
    const r = await t.request('PUT', `/api/contentGroup/${root.id}`, { token: editor, json: { name: 'x' } });
    expect(r.status).toBe(409);
    expect(r.body.key).toBe('contentGroup.error.root');
    const tpl = await t.request('PUT', `/api/contentGroup/${templates.id}`, { token: editor, json: { name: 'x' } });
    expect(tpl.status).toBe(409);
    expect(tpl.body.key).toBe('contentGroup.error.templates');
  });

  it("refuses another tenant's folder (404) and a VIEWER (403)", async () => {
    const folder = await createOk('NotYours');
    expect((await t.request('PUT', `/api/contentGroup/${folder.id}`, { token: otherEditor, json: { name: 'x' } })).status).toBe(404);
    expect((await t.request('PUT', `/api/contentGroup/${folder.id}`, { token: viewer, json: { name: 'x' } })).status).toBe(403);
  });
});

describe('POST /api/contentGroup/move', () => {
  it('moves folders with everything below them and content, rewriting every path', async () => {
    const src = await createOk('MoveSrc');
    const child = await createOk('MoveChild', src.id);
    const target = await createOk('MoveTarget');
    const deep = await insertContent(child);
    const loose = await insertContent(root);
    const res = await t.request('POST', '/api/contentGroup/move', {
      token: editor,
      json: { targetGroupId: target.id, contentGroupIds: [src.id], contentIds: [loose.id] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: target.id, name: 'MoveTarget' });
    expect(await groupRow(src.id)).toMatchObject({ parentId: target.id, path: [root.id, target.id, src.id] });
    expect((await groupRow(child.id))!.path).toEqual([root.id, target.id, src.id, child.id]);
    expect((await contentRow(deep.id))!.groupPath).toEqual([root.id, target.id, src.id, child.id]);
    expect(await contentRow(loose.id)).toMatchObject({ contentGroupId: target.id, groupPath: [root.id, target.id] });
  });

  it('refuses moving a folder into itself, the root, the Templates folder and locked content (409)', async () => {
    const a = await createOk('Cycle');
    const b = await createOk('CycleChild', a.id);
    const into = await t.request('POST', '/api/contentGroup/move', {
      token: editor,
      json: { targetGroupId: b.id, contentGroupIds: [a.id] },
    });
    expect(into.status).toBe(409);
    expect(into.body.key).toBe('contentGroup.error.moveIntoItself');
    for (const [id, key] of [
      [root.id, 'contentGroup.error.root'],
      [templates.id, 'contentGroup.error.templates'],
    ]) {
      const res = await t.request('POST', '/api/contentGroup/move', {
        token: editor,
        json: { targetGroupId: a.id, contentGroupIds: [id] },
      });
      expect(res.status).toBe(409);
      expect(res.body.key).toBe(key);
    }
    const locked = await insertContent(root, { locked: true });
    const res = await t.request('POST', '/api/contentGroup/move', {
      token: editor,
      json: { targetGroupId: a.id, contentIds: [locked.id] },
    });
    expect(res.status).toBe(409);
    expect(res.body.key).toBe('content.error.locked');
    expect((await contentRow(locked.id))!.contentGroupId).toBe(root.id);
  });

  it('refuses a sibling name clash in the target (409) and changes nothing', async () => {
    const t1 = await createOk('ClashTarget');
    await createOk('Same', t1.id);
    const mover = await createOk('Same');
    const res = await t.request('POST', '/api/contentGroup/move', {
      token: editor,
      json: { targetGroupId: t1.id, contentGroupIds: [mover.id] },
    });
    expect(res.status).toBe(409);
    expect(res.body.key).toBe('contentGroup.error.duplicateName');
    expect((await groupRow(mover.id))!.parentId).toBe(root.id);
  });

  it("refuses another tenant's ids anywhere in the body (404)", async () => {
    const mine = await createOk('MineToMove');
    const otherContent = await insertContent(otherRoot);
    expect(
      (
        await t.request('POST', '/api/contentGroup/move', {
          token: editor,
          json: { targetGroupId: otherRoot.id, contentGroupIds: [mine.id] },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request('POST', '/api/contentGroup/move', {
          token: editor,
          json: { targetGroupId: mine.id, contentIds: [otherContent.id] },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request('POST', '/api/contentGroup/move', {
          token: editor,
          json: { targetGroupId: mine.id, contentGroupIds: [otherRoot.id] },
        })
      ).status,
    ).toBe(404);
    expect((await contentRow(otherContent.id))!.contentGroupId).toBe(otherRoot.id);
  });
});

describe('DELETE /api/contentGroup/{id}', () => {
  it('removeContents=false (the default) moves the content of the whole subtree into the root', async () => {
    const folder = await createOk('DelKeep');
    const sub = await createOk('DelKeepSub', folder.id);
    const a = await insertContent(folder);
    const b = await insertContent(sub);
    const res = await t.request('DELETE', `/api/contentGroup/${folder.id}`, { token: editor });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect(await groupRow(folder.id)).toBeUndefined();
    expect(await groupRow(sub.id)).toBeUndefined();
    for (const id of [a.id, b.id]) expect(await contentRow(id)).toMatchObject({ contentGroupId: root.id, groupPath: [root.id] });
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, folder.id), eq(auditLog.action, 'delete')));
    expect(entry?.message).toBe("Content folder 'DelKeep' deleted with 1 sub-folder(s); 2 content item(s) moved to the root folder");
  });

  it('removeContents=true deletes the content with the folders', async () => {
    const folder = await createOk('DelAll');
    const a = await insertContent(await createOk('DelAllSub', folder.id));
    const res = await t.request('DELETE', `/api/contentGroup/${folder.id}?removeContents=true`, { token: editor });
    expect(res.status).toBe(204);
    expect(await contentRow(a.id)).toBeUndefined();
  });

  it('never deletes locked content (409), and changes nothing then', async () => {
    const folder = await createOk('DelLocked');
    const locked = await insertContent(folder, { locked: true });
    const res = await t.request('DELETE', `/api/contentGroup/${folder.id}?removeContents=true`, { token: editor });
    expect(res.status).toBe(409);
    expect(res.body.key).toBe('content.error.locked');
    expect(await groupRow(folder.id)).toBeDefined();
    expect(await contentRow(locked.id)).toBeDefined();
    // Moving it to the root keeps it unchanged: allowed.
    expect((await t.request('DELETE', `/api/contentGroup/${folder.id}?removeContents=false`, { token: editor })).status).toBe(204);
    expect((await contentRow(locked.id))!.contentGroupId).toBe(root.id);
  });

  it('refuses the root and the Templates folder (409), a VIEWER (403) and another tenant (404)', async () => {
    expect((await t.request('DELETE', `/api/contentGroup/${root.id}`, { token: editor })).status).toBe(409);
    expect((await t.request('DELETE', `/api/contentGroup/${templates.id}`, { token: editor })).status).toBe(409);
    const folder = await createOk('DelGuarded');
    expect((await t.request('DELETE', `/api/contentGroup/${folder.id}`, { token: viewer })).status).toBe(403);
    expect((await t.request('DELETE', `/api/contentGroup/${folder.id}`, { token: otherEditor })).status).toBe(404);
    expect(await groupRow(folder.id)).toBeDefined();
  });
});

describe('teams', () => {
  let f: Awaited<ReturnType<typeof folderTeamFixture>>;

  beforeAll(async () => {
    const routes = {
      createPath: '/api/contentGroup',
      assignPath: '/api/contentGroup/updateTeamAssignments?contentGroupId=',
      listPath: '/api/v2/contentGroup',
    };
    f = await folderTeamFixture(t, { owner, customerId, memberRole: 'EDITOR', label: 'Content', routes });
  });

  it("a team member sees the root and its teams' folders, with readOnly on request", async () => {
    const seen = await f.seenBy(f.member);
    expect([seen.get(root.id), seen.get(f.readOnlyId), seen.get(f.writableId), seen.has(f.hiddenId)]).toEqual([false, true, false, false]);
    expect((await t.request('GET', `/api/v2/contentGroup/${f.hiddenId}`, { token: f.member })).status).toBe(404);
  });

  it('refuses writes through a read-only team (403) and to invisible folders (404)', async () => {
    const ro = await t.request('PUT', `/api/contentGroup/${f.readOnlyId}`, { token: f.member, json: { name: 'x' } });
    expect(ro.status).toBe(403);
    expect(ro.body.key).toBe('team.error.readOnly');
    expect((await create(f.member, 'Sub', f.readOnlyId)).status).toBe(403);
    expect((await t.request('DELETE', `/api/contentGroup/${f.hiddenId}`, { token: f.member })).status).toBe(404);
    expect((await create(f.member, 'MemberSub', f.writableId)).status).toBe(201);
  });

  it('a team user deletes a folder only when every folder below it is visible and writable', async () => {
    const mine = await create(f.member, 'MemberTree', f.writableId);
    expect(mine.status).toBe(201);
    const inner = await createOk('OtherTeamInside', mine.body.id);
    await f.assign(inner.id, f.teamB);
    const refused = await t.request('DELETE', `/api/contentGroup/${mine.body.id}`, { token: f.member });
    expect(refused.status).toBe(403);
    expect(await groupRow(inner.id)).toBeDefined();
  });

  it('lets team users create in the root only when the customer allows it', async () => {
    expect((await create(f.member, 'MemberTop')).status).toBe(201);
    await t.db.update(customers).set({ contentCreationInRootForTeamUsers: false }).where(eq(customers.id, customerId));
    const res = await create(f.member, 'MemberTop2');
    expect(res.status).toBe(403);
    expect(res.body.key).toBe('contentGroup.error.rootCreationDisabled');
    expect((await create(editor, 'NotATeamUser')).status).toBe(201);
    await t.db.update(customers).set({ contentCreationInRootForTeamUsers: true }).where(eq(customers.id, customerId));
  });

  it('team assignment: OWNER only, not the root, not another tenant; counted on the team', async () => {
    const body = { assignToTeams: [{ teamId: f.teamA, readOnly: true }] };
    expect(
      (await t.request('POST', `/api/contentGroup/updateTeamAssignments?contentGroupId=${f.hiddenId}`, { token: editor, json: body }))
        .status,
    ).toBe(403);
    const r = await t.request('POST', `/api/contentGroup/updateTeamAssignments?contentGroupId=${root.id}`, { token: owner, json: body });
    expect(r.status).toBe(409);
    expect(r.body.key).toBe('contentGroup.error.root');
    const otherOwner = (await t.actor('OWNER', { customerId: (await t.factories.customer()).id })).token;
    expect(
      (await t.request('POST', `/api/contentGroup/updateTeamAssignments?contentGroupId=${f.hiddenId}`, { token: otherOwner, json: body }))
        .status,
    ).toBe(404);
    const teams = await t.request('GET', `/api/team?includeTeamResourceNumber=true&search=${encodeURIComponent(`id=${f.teamB}`)}`, {
      token: owner,
    });
    expect(teams.body.content[0].teamContentGroupNumber).toBe(2);
    expect(await names(owner, `search=teamAssignments.team.id=${f.teamB}`)).toEqual(['OtherTeamInside', 'TeamHidden']);
  });

  it('deleting a folder takes its team assignments along', async () => {
    const folder = await createOk('Assigned');
    await f.assign(folder.id, f.teamA);
    expect((await t.request('DELETE', `/api/contentGroup/${folder.id}`, { token: owner })).status).toBe(204);
    const left = await t.db.execute(sql`select count(*)::int as n from team_assignment where resource_id = ${folder.id}`);
    const rows = (Array.isArray(left) ? left : (left as { rows: { n: number }[] }).rows) as { n: number }[];
    expect(Number(rows[0]!.n)).toBe(0);
  });
});

describe('migration of existing customers (server/db/custom-sql/content_root_folders.sql)', () => {
  it('gives a customer created before content folders a root and moves its Templates folder below it', async () => {
    const id = (await t.factories.customer()).id;
    const before = await rootsOf(id);
    // The state before: only the Templates folder, at the top.
    await t.db
      .update(contentGroups)
      .set({ parentId: null, path: [before.templates.id] })
      .where(eq(contentGroups.id, before.templates.id));
    await t.db.delete(contentGroups).where(eq(contentGroups.id, before.root.id));
    const { readFileSync } = await import('node:fs');
    for (const statement of readFileSync('server/db/custom-sql/content_root_folders.sql', 'utf8').split('--> statement-breakpoint')) {
      await t.db.execute(sql.raw(statement));
    }
    const after = await rootsOf(id);
    expect(after.root).toMatchObject({ parentId: null, path: [after.root.id], isTemplateGroup: false });
    expect(after.templates).toMatchObject({ id: before.templates.id, parentId: after.root.id, path: [after.root.id, before.templates.id] });
    // Customers that already have both are left alone.
    expect((await rootsOf(customerId)).root.id).toBe(root.id);
  });
});
