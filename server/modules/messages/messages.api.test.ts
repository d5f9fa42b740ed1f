import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { campaignsTestKit, type CampaignsTestKit } from '@/server/modules/campaigns/campaigns.test-kit';

let k: CampaignsTestKit;
let groupId: number;

beforeAll(async () => {
  k = await campaignsTestKit();
  groupId = await newGroup('News');
});
afterAll(() => k.t.close());

async function newGroup(name: string, token = k.approver): Promise<number> {
  const res = await k.t.request('POST', '/api/messageGroup', { token, json: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body.id;
}

const post = (body: Record<string, unknown>, token = k.approver) => k.t.request('POST', '/api/message', { token, json: body });
const base = (extra: Record<string, unknown>) => ({
  name: `Msg ${Math.random().toString(36).slice(2, 7)}`,
  messageGroupId: groupId,
  version: '2.0',
  ...extra,
});

async function create(extra: Record<string, unknown>, token = k.approver): Promise<Record<string, any>> {
  const res = await post(base(extra), token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body;
}

const fieldsOf = (body: { details?: { issues?: { path: string }[] } }) => (body.details?.issues ?? []).map((i) => String(i.path));

describe('messages (sub-channels): create per type', () => {
  it('creates each type with what names its items, with the defaults of the spec', async () => {
    const content = await k.own.content('Slide');
    const contentFolder = await k.own.contentFolder('Slides');
    const file = await k.own.file('a.png');
    const folder = await k.own.fileFolder('Posters');
    const contentFilter = await k.own.quickFilter('CONTENT');
    const fileFilter = await k.own.quickFilter('FILE');

    const plain = await create({ type: 'CONTENT', contentId: content.id });
    expect(plain).toMatchObject({
      type: 'CONTENT',
      version: '2.0',
      contentId: content.id,
      contentName: 'Slide',
      messageGroupId: groupId,
      messageGroupName: 'News',
      enabled: true,
      defaultDuration: 10,
      isPlayedElementsCappedByItemCount: true,
      deviceSelectionMode: 'DYNAMIC',
      customerId: k.customerId,
    });
    // DYNAMIC without folders: the root device folder (every screen its channel plays on).
    expect(plain.deviceGroupAssignments.map((a: { id: string }) => a.id)).toEqual([k.own.roots.device.id]);

    const dynamic = await create({
      type: 'CONTENT_DYNAMIC',
      contentGroupAssignment: { assignments: [{ contentGroupId: contentFolder.id }] },
      orderingMode: 'ALPHABET',
    });
    expect(dynamic.contentGroupAssignments).toEqual([{ id: contentFolder.id, name: 'Slides' }]);
    const assets = await create({
      type: 'ASSETS_STATIC',
      fileAssignment: { assignments: [{ fileId: file.id, weight: 2 }] },
      saturation: 0,
      defaultDuration: 5,
    });
    expect(assets).toMatchObject({ saturation: 0, defaultDuration: 5, fileAssignments: [{ id: file.id, name: 'a.png', weight: 2 }] });
    const assetFolder = await create({
      type: 'ASSETS_DYNAMIC',
      fileFolderAssignment: { assignments: [{ fileFolderId: folder.id }] },
      fileTagCondition: { tags: ['A'], operator: 'OR' },
    });
    expect(assetFolder.fileFolderAssignments).toEqual([{ id: folder.id, name: 'Posters' }]);
    expect((await create({ type: 'CONTENT_QUICK_FILTER', contentQuickFilterId: contentFilter.id })).contentQuickFilterId).toBe(
      contentFilter.id,
    );
    expect((await create({ type: 'ASSET_QUICK_FILTER', fileQuickFilterId: fileFilter.id })).fileQuickFilterId).toBe(fileFilter.id);
    const dated = await create({
      type: 'CONTENT',
      contentId: content.id,
      validFrom: '2030-01-01',
      validTo: '2030-01-31',
      affectedDateRanges: { intervals: [{ from: '2030-01-02', to: '2030-01-03', isExcluded: true }] },
    });
    expect([dated.validFrom, dated.validTo]).toEqual([Date.UTC(2030, 0, 1), Date.UTC(2030, 0, 31)]);
    expect(dated.affectedDateRanges).toMatchObject({ intervals: [{ from: '2030-01-02', isExcluded: true }] });

    const audit = await k.t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'message'), eq(auditLog.customerId, k.customerId)));
    expect(audit.length).toBeGreaterThanOrEqual(7);
    // The console's words: a sub-channel, its type's label (issue 28 item 11).
    expect(audit.map((e) => e.message)).toContain(`Sub-channel '${dated.name}' created (Slides and playlists)`);
    for (const entry of audit) expect(entry.message).not.toMatch(/\([A-Z_]+\)|^Message /);
  });

  it('answers 400 naming the field each type, device mode and version needs', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'CONTENT' }, 'contentId'],
      [{ type: 'CONTENT_DYNAMIC' }, 'contentGroupAssignment'],
      [{ type: 'ASSETS_STATIC', fileAssignment: { assignments: [] } }, 'fileAssignment'],
      [{ type: 'ASSETS_DYNAMIC' }, 'fileFolderAssignment'],
      [{ type: 'CONTENT_QUICK_FILTER' }, 'contentQuickFilterId'],
      [{ type: 'ASSET_QUICK_FILTER' }, 'fileQuickFilterId'],
      [{ type: 'MESSAGE_GROUP' }, 'type'],
      [{ type: 'CONTENT', contentId: (await k.own.content()).id, deviceSelectionMode: 'STATIC' }, 'deviceAssignment'],
      [{ type: 'CONTENT', contentId: (await k.own.content()).id, defaultDuration: 2 }, 'defaultDuration'],
      [{ type: 'CONTENT', contentId: (await k.own.content()).id, validFrom: '2030-02-01', validTo: '2030-01-01' }, 'validTo'],
      [{ type: 'CONTENT', contentId: (await k.own.content()).id, version: '1.0' }, 'version'],
    ];
    for (const [extra, field] of cases) {
      const res = await post(base(extra));
      expect(res.status, JSON.stringify([extra, res.body])).toBe(400);
      expect(fieldsOf(res.body), JSON.stringify(res.body)).toContain(field);
    }
    // The field a type needs is a rule between values: its own key.
    expect((await post(base({ type: 'CONTENT_QUICK_FILTER' }))).body.key).toBe('request.error.invalidCombination');
    const noGroup = await post({ name: 'x', version: '2.0', type: 'CONTENT', contentId: (await k.own.content()).id });
    expect(fieldsOf(noGroup.body)).toContain('messageGroupId');
  });

  it('needs APPROVER to write; VIEWER reads', async () => {
    const content = await k.own.content();
    expect((await post(base({ type: 'CONTENT', contentId: content.id }), k.editor)).status).toBe(403);
    const made = await create({ type: 'CONTENT', contentId: content.id });
    expect((await k.t.request('GET', `/api/v2/message/${made.id}`, { token: k.viewer })).status).toBe(200);
    expect((await k.t.request('PUT', `/api/message/${made.id}`, { token: k.editor, json: { name: 'x' } })).status).toBe(403);
    expect((await k.t.request('DELETE', `/api/message/${made.id}`, { token: k.editor })).status).toBe(403);
  });
});

describe('messages: update, list, tenants', () => {
  it('updates partially; type, deviceSelectionMode, messageGroupId and version are immutable (ignored)', async () => {
    const other = await newGroup('Other group');
    const file = await k.own.file('b.png');
    const second = await k.own.file('c.png');
    const made = await create({ type: 'ASSETS_STATIC', fileAssignment: { assignments: [{ fileId: file.id }] }, weight: 3 });
    const put = await k.t.request('PUT', `/api/message/${made.id}`, {
      token: k.approver,
      json: {
        name: 'Renamed',
        enabled: false,
        type: 'CONTENT',
        deviceSelectionMode: 'STATIC',
        messageGroupId: other,
        version: '9',
        fileAssignment: { assignments: [{ fileId: second.id, weight: 1 }], removeIds: [file.id] },
        validTo: '2031-01-01',
      },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({
      name: 'Renamed',
      enabled: false,
      type: 'ASSETS_STATIC',
      deviceSelectionMode: 'DYNAMIC',
      messageGroupId: groupId,
      version: '2.0',
      weight: 3,
      validTo: Date.UTC(2031, 0, 1),
    });
    expect(put.body.fileAssignments).toEqual([{ id: second.id, name: 'c.png', weight: 1 }]);
    const reset = await k.t.request('PUT', `/api/message/${made.id}`, { token: k.approver, json: { resetValidTo: true } });
    expect(reset.body.validTo).toBeUndefined();
    expect((await k.t.request('PUT', `/api/message/${made.id}`, { token: k.approver, json: { defaultDuration: 1 } })).status).toBe(400);
    expect((await k.t.request('PUT', '/api/message/abc', { token: k.approver, json: { name: 'x' } })).status).toBe(400);
    expect((await k.t.request('PUT', '/api/message/999999999', { token: k.approver, json: { name: 'x' } })).status).toBe(404);
  });

  it('lists by messageGroupId with search, select, sort and paging', async () => {
    const group = await newGroup('Listed');
    const content = await k.own.content();
    for (const [name, weight] of [
      ['Beta', 2],
      ['Alpha', 3],
      ['Gamma', 1],
    ] as const)
      await create({ messageGroupId: group, name, weight, type: 'CONTENT', contentId: content.id });
    const list = (query: string) => k.t.request('GET', `/api/v2/message?messageGroupId=${group}${query}`, { token: k.viewer });
    const byWeight = await list('');
    expect(byWeight.status, JSON.stringify(byWeight.body)).toBe(200);
    expect(byWeight.body.content.map((m: { name: string }) => m.name)).toEqual(['Gamma', 'Beta', 'Alpha']);
    expect((await list('&sort=name,desc&size=1&page=1')).body).toMatchObject({ totalElements: 3, content: [{ name: 'Beta' }] });
    expect((await list(`&search=${encodeURIComponent('name~alp')}&select=name,deviceGroupAssignments`)).body.content).toEqual([
      { id: expect.any(Number), name: 'Alpha', deviceGroupAssignments: [{ id: k.own.roots.device.id, name: expect.any(String) }] },
    ]);
    expect((await list(`&search=${encodeURIComponent(`messageContentAssignments.contentId=${content.id}`)}`)).body.totalElements).toBe(0);
    expect((await list('&search=nope~x')).status).toBe(400);
  });

  it('keeps tenants apart: another tenant’s group, content, devices and messages answer 404', async () => {
    const foreignContent = await k.other.content();
    const foreignDevice = await k.other.device('Foreign screen');
    const foreignGroup = (await k.t.request('POST', '/api/messageGroup', { token: k.otherApprover, json: { name: 'Theirs' } })).body.id;
    const content = await k.own.content();
    expect((await post(base({ messageGroupId: foreignGroup, type: 'CONTENT', contentId: content.id }))).status).toBe(404);
    expect((await post(base({ type: 'CONTENT', contentId: foreignContent.id }))).status).toBe(404);
    expect(
      (
        await post(
          base({
            type: 'CONTENT',
            contentId: content.id,
            deviceSelectionMode: 'STATIC',
            deviceAssignment: { assignments: [{ deviceId: foreignDevice.id }] },
          }),
        )
      ).status,
    ).toBe(404);
    const mine = await create({ type: 'CONTENT', contentId: content.id });
    for (const [method, path] of [
      ['GET', `/api/v2/message/${mine.id}`],
      ['PUT', `/api/message/${mine.id}`],
      ['DELETE', `/api/message/${mine.id}`],
    ] as const) {
      const res = await k.t.request(method, path, { token: k.otherApprover, json: method === 'PUT' ? { name: 'x' } : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const theirList = await k.t.request('GET', `/api/v2/message?messageGroupId=${groupId}`, { token: k.otherApprover });
    expect(theirList.body.totalElements).toBe(0);
    const put = await k.t.request('PUT', `/api/message/${mine.id}`, { token: k.approver, json: { contentId: foreignContent.id } });
    expect(put.status).toBe(404);
  });
});

describe("messages follow their group's teams", () => {
  it("a team member sees the messages of its teams' groups only and cannot write those of read-only ones", async () => {
    const t = k.t;
    const team = (await t.request('POST', '/api/team', { token: k.owner, json: { name: 'Newsroom' } })).body.id as string;
    const otherTeam = (await t.request('POST', '/api/team', { token: k.owner, json: { name: 'Sales' } })).body.id as string;
    const member = await t.actor('APPROVER', { customerId: k.customerId });
    expect(
      (
        await t.request('PUT', `/api/team/updateUserAssignments?teamId=${team}`, {
          token: k.owner,
          json: { resourcesToAdd: [{ id: member.user.id }] },
        })
      ).status,
    ).toBe(200);
    const groupOf = async (teamIds: string) =>
      (await t.request('POST', `/api/messageGroup?teamIds=${teamIds}`, { token: k.owner, json: { name: `G ${teamIds}` } })).body
        .id as number;
    const readOnlyGroup = await groupOf(`${team}:true`);
    const hiddenGroup = await groupOf(`${otherTeam}:false`);
    const content = await k.own.content();
    const readOnly = await create({ messageGroupId: readOnlyGroup, type: 'CONTENT', contentId: content.id }, k.owner);
    const hidden = await create({ messageGroupId: hiddenGroup, type: 'CONTENT', contentId: content.id }, k.owner);
    expect((await t.request('GET', `/api/v2/message/${hidden.id}`, { token: member.token })).status).toBe(404);
    expect((await t.request('GET', `/api/v2/message/${readOnly.id}`, { token: member.token })).status).toBe(200);
    const listed = await t.request('GET', '/api/v2/message?size=1000', { token: member.token });
    expect(listed.body.content.map((m: { id: number }) => m.id)).not.toContain(hidden.id);
    const refused = await t.request('PUT', `/api/message/${readOnly.id}`, { token: member.token, json: { name: 'x' } });
    expect([refused.status, refused.body.key]).toEqual([403, 'team.error.readOnly']);
    expect((await post(base({ messageGroupId: hiddenGroup, type: 'CONTENT', contentId: content.id }), member.token)).status).toBe(404);
  });
});

describe('message groups and their messages', () => {
  it('deleting a group deletes its messages; refused while a channel plays the group', async () => {
    const group = await newGroup('Doomed');
    const content = await k.own.content();
    const message = await create({ messageGroupId: group, type: 'CONTENT', contentId: content.id });
    const channel = await k.create({
      name: 'Sub-channels',
      level: 'WIDGET',
      type: 'MESSAGE_GROUP',
      version: '2.0',
      contentShuffleMode: 'SERIAL',
      messageGroupAssignment: { assignments: [{ messageGroupId: group }] },
      deviceGroupAssignment: { assignments: [{ deviceGroupId: k.own.roots.device.id }] },
    });
    const refused = await k.t.request('DELETE', `/api/messageGroup/${group}`, { token: k.approver });
    expect([refused.status, refused.body.key]).toEqual([409, 'messageGroup.error.inUse']);
    expect((await k.t.request('GET', `/api/v2/message/${message.id}`, { token: k.viewer })).status).toBe(200);
    expect((await k.t.request('DELETE', `/api/campaign/${channel.id}`, { token: k.approver })).status).toBe(204);
    expect((await k.t.request('DELETE', `/api/messageGroup/${group}`, { token: k.approver })).status).toBe(204);
    expect((await k.t.request('GET', `/api/v2/message/${message.id}`, { token: k.viewer })).status).toBe(404);
  });

  it('deletes one message', async () => {
    const made = await create({ type: 'CONTENT', contentId: (await k.own.content()).id });
    expect((await k.t.request('DELETE', `/api/message/${made.id}`, { token: k.approver })).status).toBe(204);
    expect((await k.t.request('DELETE', `/api/message/${made.id}`, { token: k.approver })).status).toBe(404);
  });
});

describe('what messages use answers messageUsageDetails', () => {
  const ids = (usage: { id: number }[]) => usage.map((u) => u.id);
  const get = (path: string) => k.t.request('GET', path, { token: k.owner });

  it('files and file folders, with deletes refused while used', async () => {
    const file = await k.own.file('used-by-message.png');
    const folder = await k.own.fileFolder('Message folder');
    const assets = await create({ type: 'ASSETS_STATIC', fileAssignment: { assignments: [{ fileId: file.id }] } });
    const dynamic = await create({ type: 'ASSETS_DYNAMIC', fileFolderAssignment: { assignments: [{ fileFolderId: folder.id }] } });
    const files = await get(`/api/v2/file?search=id=${file.id}&select=messageUsageDetails`);
    expect(files.status, JSON.stringify(files.body)).toBe(200);
    expect(files.body.content[0].messageUsageDetails).toEqual([
      { id: assets.id, name: assets.name, type: 'ASSETS_STATIC', messageGroupId: groupId },
    ]);
    const folders = await get(`/api/v2/fileFolder?search=id=${folder.id}&select=messageUsageDetails`);
    expect(ids(folders.body.content[0].messageUsageDetails)).toEqual([dynamic.id]);
    const fileDelete = await k.t.request('DELETE', `/api/file/${file.id}`, { token: k.owner });
    expect([fileDelete.status, fileDelete.body.key]).toEqual([409, 'file.error.inUse']);
    expect((await k.t.request('DELETE', `/api/fileFolder/${folder.id}`, { token: k.owner })).status).toBe(409);
  });

  it('content (contentId and contentAssignment) and content folders; deleting used content is refused', async () => {
    const content = await k.own.content('Message content');
    const other = await k.own.content('Assigned content');
    const folder = await k.own.contentFolder('Message content folder');
    const plain = await create({ type: 'CONTENT', contentId: content.id });
    const assigned = await create({
      type: 'CONTENT',
      contentId: content.id,
      contentAssignment: { assignments: [{ contentId: other.id }] },
    });
    const dynamic = await create({ type: 'CONTENT_DYNAMIC', contentGroupAssignment: { assignments: [{ contentGroupId: folder.id }] } });
    const item = await get(`/api/v2/deviceContent/${content.id}?select=messageUsageDetails`);
    expect(item.status, JSON.stringify(item.body)).toBe(200);
    expect(ids(item.body.messageUsageDetails).sort()).toEqual([plain.id, assigned.id].sort());
    expect(ids((await get(`/api/v2/deviceContent/${other.id}?select=messageUsageDetails`)).body.messageUsageDetails)).toEqual([
      assigned.id,
    ]);
    const groups = await get(`/api/v2/contentGroup?search=id=${folder.id}&select=messageUsageDetails`);
    expect(ids(groups.body.content[0].messageUsageDetails)).toEqual([dynamic.id]);
    expect((await k.t.request('DELETE', `/api/simpleLoop/${content.id}`, { token: k.owner })).status).toBe(409);
  });

  it('device folders and quick filters (readOnly, not deletable while used)', async () => {
    const deviceFolder = await k.own.deviceFolder('Message screens');
    const filter = await k.own.quickFilter('DEVICE');
    const content = await k.own.content();
    const targeted = await create({
      type: 'CONTENT',
      contentId: content.id,
      deviceGroupAssignment: { assignments: [{ deviceGroupId: deviceFolder.id }] },
    });
    const filtered = await create({
      type: 'CONTENT',
      contentId: content.id,
      deviceSelectionMode: 'QUICK_FILTER',
      deviceQuickFilterId: filter.id,
    });
    const groups = await get(`/api/v2/deviceGroup?search=id=${deviceFolder.id}&select=messageUsageDetails`);
    expect(ids(groups.body.content[0].messageUsageDetails)).toEqual([targeted.id]);
    const read = await get(`/api/v2/quickFilter?search=id=${filter.id}&select=readOnly,messageUsageDetails`);
    expect(read.body.content[0]).toMatchObject({ readOnly: true });
    expect(ids(read.body.content[0].messageUsageDetails)).toEqual([filtered.id]);
    expect((await k.t.request('DELETE', `/api/quickFilter/?quickFilterId=${filter.id}`, { token: k.owner })).status).toBe(409);
    expect((await k.t.request('DELETE', `/api/message/${filtered.id}`, { token: k.approver })).status).toBe(204);
    expect((await k.t.request('DELETE', `/api/quickFilter/?quickFilterId=${filter.id}`, { token: k.owner })).status).toBe(204);
  });
});
