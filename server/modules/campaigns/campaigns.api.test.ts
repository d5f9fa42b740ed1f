import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { campaignsTestKit, type CampaignsTestKit } from './campaigns.test-kit';

let k: CampaignsTestKit;
let contentId: string;

beforeAll(async () => {
  k = await campaignsTestKit();
  contentId = (await k.own.content('Welcome')).id;
});
afterAll(() => k.t.close());

const post = (body: unknown, token = k.approver, query = '') => k.t.request('POST', `/api/campaign${query}`, { token, json: body });
const put = (id: number, body: unknown, token = k.approver) => k.t.request('PUT', `/api/campaign/${id}`, { token, json: body });
const issuePaths = (body: { details?: { issues?: { path: string }[] } }) => (body.details?.issues ?? []).map((i) => i.path);

describe('POST /api/campaign', () => {
  it('creates a CONTENT channel with the defaults, its assignments and an audit entry', async () => {
    const created = await k.create(k.contentChannel(contentId, { name: 'Lobby', tags: ['promo'] }));
    expect(created).toMatchObject({
      name: 'Lobby',
      level: 'WIDGET',
      type: 'CONTENT',
      version: '2.0',
      enabled: true,
      defaultDuration: 10,
      playAllItemsInSinglePlaybackSlot: true,
      playMultipleItemsInSinglePlaybackSlot: false,
      skipDefaultPage: false,
      deviceSelectionMode: 'DYNAMIC',
      customerId: k.customerId,
      tags: ['promo'],
      readOnly: false,
      contentAssignments: [{ id: contentId, name: 'Welcome', weight: 1 }],
      deviceGroupAssignments: [{ id: k.own.roots.device.id }],
      teamAccessList: { teams: [] },
    });
    expect(typeof created.id).toBe('number');
    const entries = await k.t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'campaign'), eq(auditLog.entityId, String(created.id))));
    expect(entries.map((e) => e.action)).toContain('create');
    // The type in the console's words, not its code (issue 28 item 11).
    expect(entries.find((e) => e.action === 'create')!.message).not.toMatch(/\([A-Z_]+\)/);
  });

  it('creates every type with its required fields', async () => {
    const folder = await k.own.contentFolder('Promos');
    const file = await k.own.file('a.png');
    const fileFolder = await k.own.fileFolder('Media');
    const contentFilter = await k.own.quickFilter('CONTENT');
    const fileFilter = await k.own.quickFilter('FILE');
    const group = await k.t.request('POST', '/api/messageGroup', { token: k.approver, json: { name: 'News' } });
    const base = { level: 'WIDGET', version: '2.0' };
    const bodies = [
      {
        ...base,
        name: 'dyn',
        type: 'CONTENT_DYNAMIC',
        contentGroupAssignment: { assignments: [{ contentGroupId: folder.id }] },
        orderingMode: 'ALPHABET',
        contentShuffleMode: 'SERIAL',
      },
      {
        ...base,
        name: 'static',
        type: 'ASSETS_STATIC',
        fileAssignment: { assignments: [{ fileId: file.id, weight: 2 }] },
        defaultDuration: 5,
        orderingMode: 'DEFAULT',
      },
      {
        ...base,
        name: 'folder',
        type: 'ASSETS_DYNAMIC',
        fileFolderAssignment: { assignments: [{ fileFolderId: fileFolder.id }] },
        defaultDuration: 3,
        orderingMode: 'RANDOM',
      },
      {
        ...base,
        name: 'groups',
        type: 'MESSAGE_GROUP',
        messageGroupAssignment: { assignments: [{ messageGroupId: group.body.id }] },
        contentShuffleMode: 'BALANCED',
      },
      {
        ...base,
        name: 'cqf',
        type: 'CONTENT_QUICK_FILTER',
        contentQuickFilterId: contentFilter.id,
        orderingMode: 'DEFAULT',
        contentShuffleMode: 'BALANCED',
      },
      { ...base, name: 'fqf', type: 'ASSET_QUICK_FILTER', fileQuickFilterId: fileFilter.id, defaultDuration: 8, orderingMode: 'DEFAULT' },
    ];
    for (const body of bodies) {
      const created = await k.create(body);
      expect(created).toMatchObject({ name: body.name, type: body.type });
    }
    const groups = await k.t.request('GET', '/api/v2/campaign?search=name=groups&select=messageGroupAssignments', { token: k.viewer });
    expect(groups.body.content[0].messageGroupAssignments).toEqual([{ id: group.body.id, name: 'News' }]);
  });

  it('creates a schedule (level TOP, CONTENT with affectedDateRanges)', async () => {
    const created = await k.create({
      ...k.contentChannel(contentId),
      name: 'Christmas',
      level: 'TOP',
      affectedDateRanges: { intervals: [{ from: '2026-12-24', to: '2026-12-26', isExcluded: false }] },
      validFrom: '2026-12-01',
      validTo: '2026-12-31',
    });
    expect(created).toMatchObject({ level: 'TOP', validFrom: Date.UTC(2026, 11, 1), validTo: Date.UTC(2026, 11, 31) });
    expect(created.affectedDateRanges.intervals[0]).toMatchObject({ from: '2026-12-24', isExcluded: false });
  });

  const missingCases: [string, Record<string, unknown>, string[]][] = [
    ['CONTENT', { contentShuffleMode: 'BALANCED' }, ['contentAssignment']],
    ['CONTENT', { contentAssignment: { assignments: [] } }, ['contentAssignment', 'contentShuffleMode']],
    ['CONTENT_DYNAMIC', { contentShuffleMode: 'BALANCED' }, ['contentGroupAssignment', 'orderingMode']],
    ['ASSETS_STATIC', {}, ['fileAssignment', 'defaultDuration', 'orderingMode']],
    ['ASSETS_DYNAMIC', { orderingMode: 'DEFAULT' }, ['fileFolderAssignment', 'defaultDuration']],
    ['MESSAGE_GROUP', {}, ['messageGroupAssignment', 'contentShuffleMode']],
    ['CONTENT_QUICK_FILTER', {}, ['contentQuickFilterId', 'orderingMode', 'contentShuffleMode']],
    ['ASSET_QUICK_FILTER', { defaultDuration: 10 }, ['fileQuickFilterId', 'orderingMode']],
  ];
  it.each(missingCases)(
    '%s without its required fields: 400 request.error.invalidCombination naming them',
    async (type, extra, missing) => {
      const res = await post({ name: 'x', level: 'WIDGET', type, version: '2.0', ...extra });
      expect(res.status).toBe(400);
      // A rule between several values (the type and the field it needs): its own key, not the schema's.
      expect(res.body.key).toBe('request.error.invalidCombination');
      expect(issuePaths(res.body).sort()).toEqual([...missing].sort());
    },
  );

  it.each(['CONTENT_BY_TAG', 'SIMPLE_LOOP', 'SIMPLE_LOOP_BY_TAG', 'DSP_ADNETWORK_MEDIA'])(
    'refuses type %s with a clear 400',
    async (type) => {
      const res = await post({ name: 'x', level: 'WIDGET', type, version: '2.0' });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain('not supported');
    },
  );

  it('refuses bad enums, versions, dates, a schedule of another type and NUL characters', async () => {
    const good = k.contentChannel(contentId);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, level: 'PAGE' }, 'level'],
      [{ ...good, type: 'NOPE' }, 'type'],
      [{ ...good, contentShuffleMode: 'RANDOM' }, 'contentShuffleMode'],
      [{ ...good, deviceSelectionMode: 'ALL' }, 'deviceSelectionMode'],
      [{ ...good, version: '1.0' }, 'version'],
      [{ ...good, version: undefined }, 'version'],
      [{ ...good, validFrom: '2026-02-01', validTo: '2026-01-31' }, 'validTo'],
      [{ ...good, validFrom: '2026-02-30' }, 'validFrom'],
      [{ ...good, defaultDuration: 2 }, 'defaultDuration'],
      [{ ...good, level: 'TOP' }, 'affectedDateRanges'],
      [{ ...good, deviceSelectionMode: 'STATIC' }, 'deviceAssignment'],
      [{ ...good, deviceSelectionMode: 'QUICK_FILTER' }, 'deviceQuickFilterId'],
      [
        { ...good, playMultipleItemsInSinglePlaybackSlot: true, playAllItemsInSinglePlaybackSlot: false },
        'playbackSlotNumberOfElementsToPlay',
      ],
    ];
    for (const [body, path] of cases) {
      const res = await post(body);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(issuePaths(res.body), path).toContain(path);
    }
    const schedule = await post({ ...good, level: 'TOP', type: 'CONTENT_DYNAMIC', affectedDateRanges: { intervals: [] } });
    expect(schedule.status).toBe(400);
    const nul = await post({ ...good, name: 'bad\u0000name' });
    expect([nul.status, nul.body.key]).toEqual([400, 'request.error.nulCharacter']);
  });

  it('needs APPROVER: an editor gets 403', async () => {
    const res = await post(k.contentChannel(contentId), k.editor);
    expect(res.status).toBe(403);
  });

  it("answers 404 for another tenant's id in every id-carrying field", async () => {
    const o = k.other;
    const cases: Record<string, unknown>[] = [
      { contentAssignment: { assignments: [{ contentId: (await o.content()).id }] } },
      { deviceGroupAssignment: { assignments: [{ deviceGroupId: o.roots.device.id }] } },
      { deviceSelectionMode: 'STATIC', deviceAssignment: { assignments: [{ deviceId: (await o.device('theirs')).id }] } },
      {
        type: 'CONTENT_DYNAMIC',
        orderingMode: 'DEFAULT',
        contentGroupAssignment: { assignments: [{ contentGroupId: o.roots.content.id }] },
      },
      {
        type: 'ASSETS_STATIC',
        defaultDuration: 5,
        orderingMode: 'DEFAULT',
        fileAssignment: { assignments: [{ fileId: (await o.file()).id }] },
      },
      {
        type: 'ASSETS_DYNAMIC',
        defaultDuration: 5,
        orderingMode: 'DEFAULT',
        fileFolderAssignment: { assignments: [{ fileFolderId: o.roots.file.id }] },
      },
      { type: 'CONTENT_QUICK_FILTER', orderingMode: 'DEFAULT', contentQuickFilterId: (await o.quickFilter('CONTENT')).id },
      { type: 'ASSET_QUICK_FILTER', orderingMode: 'DEFAULT', defaultDuration: 5, fileQuickFilterId: (await o.quickFilter('FILE')).id },
      { deviceSelectionMode: 'QUICK_FILTER', deviceQuickFilterId: (await o.quickFilter('DEVICE')).id },
      { teamAccessList: { teams: [{ id: (await o.team()).id }] } },
      { playedAssetTeamAccessList: { teams: [{ id: (await o.team()).id }] } },
    ];
    for (const extra of cases) {
      const res = await post({ ...k.contentChannel(contentId), ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(404);
    }
    const teamIds = await post(k.contentChannel(contentId), k.approver, `?teamIds=${(await o.team()).id}:false`);
    expect(teamIds.status).toBe(404);
  });

  it('refuses a quick filter of the wrong entity type (400)', async () => {
    const res = await post({
      ...k.contentChannel(contentId),
      deviceSelectionMode: 'QUICK_FILTER',
      deviceQuickFilterId: (await k.own.quickFilter('FILE')).id,
    });
    expect([res.status, res.body.key]).toEqual([400, 'campaign.error.quickFilterType']);
  });

  it('makes a team member pick one of its teams; teams it is not in are 403', async () => {
    const team = await k.own.team();
    const foreignTeam = await k.own.team();
    const member = await k.t.actor('APPROVER', { customerId: k.customerId });
    await k.own.join(team.id, 'user', member.user.id);
    const none = await post(k.contentChannel(contentId), member.token);
    expect([none.status, none.body.key]).toEqual([400, 'campaign.error.teamRequired']);
    const notMine = await post({ ...k.contentChannel(contentId), teamAccessList: { teams: [{ id: foreignTeam.id }] } }, member.token);
    expect(notMine.status).toBe(403);
    const created = await k.create({ ...k.contentChannel(contentId), teamAccessList: { teams: [{ id: team.id }] } }, member.token);
    expect(created.teamAccessList).toEqual({ teams: [{ id: team.id, name: team.name, readOnly: false }] });
    const viaQuery = await k.create(k.contentChannel(contentId), member.token, `?teamIds=${team.id}:false`);
    expect(viaQuery.teamAccessList.teams).toHaveLength(1);
  });
});

describe('PUT /api/campaign/{campaignId}', () => {
  it('adds and removes assignments, keeps what is not sent and ignores type and deviceSelectionMode', async () => {
    const second = await k.own.content('Second');
    const third = await k.own.content('Third');
    const created = await k.create(k.contentChannel(contentId, { weight: 5, saturation: 2 }));
    const res = await put(created.id, {
      type: 'ASSETS_STATIC',
      deviceSelectionMode: 'STATIC',
      weight: null,
      contentAssignment: {
        assignments: [
          { contentId: second.id, weight: 2 },
          { contentId: third.id, weight: 3 },
        ],
        removeIds: [contentId],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ type: 'CONTENT', deviceSelectionMode: 'DYNAMIC', weight: 5, saturation: 2 });
    expect(res.body.contentAssignments.map((a: { id: string }) => a.id)).toEqual([second.id, third.id]);
    const again = await put(created.id, { contentAssignment: { assignments: [{ contentId: third.id, weight: 1 }] } });
    expect(again.body.contentAssignments).toEqual([
      { id: third.id, name: 'Third', weight: 1 },
      { id: second.id, name: 'Second', weight: 2 },
    ]);
  });

  it('clears values with the reset flags and replaces tags', async () => {
    const advertiser = await k.t.request('POST', '/api/adv', { token: k.owner, json: { name: 'Resettable' } });
    expect(advertiser.status).toBe(201);
    const created = await k.create(
      k.contentChannel(contentId, {
        validTo: '2030-01-01',
        duration: 30,
        defaultDuration: 12,
        playbackSlotDuration: 60,
        playbackSlotNumberOfElementsToPlay: 2,
        advertiserId: advertiser.body.id,
        tags: ['a'],
      }),
    );
    const res = await put(created.id, {
      resetValidTo: true,
      resetDuration: true,
      resetDefaultDuration: true,
      resetAdvertiserId: true,
      resetPlaybackSlotDuration: true,
      resetPlaybackSlotNumberOfElementsToPlay: true,
      tags: ['b', 'c'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const field of [
      'validTo',
      'duration',
      'defaultDuration',
      'advertiserId',
      'playbackSlotDuration',
      'playbackSlotNumberOfElementsToPlay',
    ])
      expect(res.body[field], field).toBeUndefined();
    expect(res.body.tags).toEqual(['b', 'c']);
  });

  it('refuses validFrom after the stored validTo, bad values and NUL characters', async () => {
    const created = await k.create(k.contentChannel(contentId, { validTo: '2026-06-30' }));
    const reversed = await put(created.id, { validFrom: '2026-07-01' });
    expect([reversed.status, reversed.body.key]).toEqual([400, 'request.error.invalidCombination']);
    expect((await put(created.id, { defaultDuration: 1 })).status).toBe(400);
    expect((await put(created.id, { orderingMode: 'SHUFFLE' })).status).toBe(400);
    expect((await put(created.id, { name: 'a\u0000' })).body.key).toBe('request.error.nulCharacter');
  });

  it('refuses changes to a locked campaign until it is unlocked (locked: false)', async () => {
    const created = await k.create(k.contentChannel(contentId, { locked: true }));
    const refused = await put(created.id, { name: 'Renamed' });
    expect([refused.status, refused.body.key]).toEqual([409, 'campaign.error.locked']);
    expect((await k.t.request('DELETE', `/api/campaign/${created.id}`, { token: k.approver })).status).toBe(409);
    const unlocked = await put(created.id, { locked: false, name: 'Renamed' });
    expect(unlocked.body).toMatchObject({ locked: false, name: 'Renamed' });
  });

  it("answers 404 for another tenant's campaign or ids, and 403 below APPROVER", async () => {
    const created = await k.create(k.contentChannel(contentId));
    expect((await put(created.id, { name: 'x' }, k.otherApprover)).status).toBe(404);
    expect((await put(created.id, { name: 'x' }, k.editor)).status).toBe(403);
    expect((await put(created.id, { fileAssignment: { assignments: [{ fileId: (await k.other.file()).id }] } })).status).toBe(404);
    expect((await put(created.id, { deviceGroupAssignment: { assignments: [{ deviceGroupId: k.other.roots.device.id }] } })).status).toBe(
      404,
    );
    expect((await put(created.id, { deviceQuickFilterId: (await k.other.quickFilter('DEVICE')).id })).status).toBe(404);
  });

  it('replaces the teams with teamAccessList (a member may not empty it)', async () => {
    const [t1, t2] = [await k.own.team(), await k.own.team()];
    const created = await k.create(k.contentChannel(contentId, { teamAccessList: { teams: [{ id: t1.id }] } }), k.owner);
    const res = await put(created.id, { teamAccessList: { teams: [{ id: t2.id, readOnly: true }] } }, k.owner);
    expect(res.body.teamAccessList).toEqual({ teams: [{ id: t2.id, name: t2.name, readOnly: true }] });
    const member = await k.t.actor('APPROVER', { customerId: k.customerId });
    await k.own.join(t1.id, 'user', member.user.id);
    const mine = await k.create(k.contentChannel(contentId, { teamAccessList: { teams: [{ id: t1.id }] } }), member.token);
    const emptied = await put(mine.id, { teamAccessList: { teams: [] } }, member.token);
    expect([emptied.status, emptied.body.key]).toEqual([400, 'campaign.error.teamRequired']);
  });

  it('is read-only for a team member whose team has it read-only (403), writable through a writable team', async () => {
    const team = await k.own.team();
    const member = await k.t.actor('APPROVER', { customerId: k.customerId });
    await k.own.join(team.id, 'user', member.user.id);
    const created = await k.create(k.contentChannel(contentId), k.owner, `?teamIds=${team.id}:true`);
    const listed = await k.t.request('GET', `/api/v2/campaign/${created.id}`, { token: member.token });
    expect(listed.body.readOnly).toBe(true);
    const refused = await put(created.id, { name: 'x' }, member.token);
    expect([refused.status, refused.body.key]).toEqual([403, 'team.error.readOnly']);
  });
});

describe('DELETE /api/campaign/{id} and POST /api/campaign/updateTeamAssignments', () => {
  it('deletes the campaign only (what it plays stays), 404 afterwards', async () => {
    const created = await k.create(k.contentChannel(contentId));
    expect((await k.t.request('DELETE', `/api/campaign/${created.id}`, { token: k.editor })).status).toBe(403);
    expect((await k.t.request('DELETE', `/api/campaign/${created.id}`, { token: k.otherApprover })).status).toBe(404);
    expect((await k.t.request('DELETE', `/api/campaign/${created.id}`, { token: k.approver })).status).toBe(204);
    expect((await k.t.request('GET', `/api/v2/campaign/${created.id}`, { token: k.viewer })).status).toBe(404);
    expect((await k.t.request('GET', `/api/v2/deviceContent/${contentId}?select=id`, { token: k.viewer })).status).toBe(200);
  });

  it('changes teams (OWNER only)', async () => {
    const team = await k.own.team();
    const created = await k.create(k.contentChannel(contentId));
    const path = `/api/campaign/updateTeamAssignments?campaignId=${created.id}`;
    expect((await k.t.request('POST', path, { token: k.approver, json: { assignToTeams: [{ teamId: team.id }] } })).status).toBe(403);
    const res = await k.t.request('POST', path, { token: k.owner, json: { assignToTeams: [{ teamId: team.id, readOnly: true }] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.teams).toEqual([{ id: team.id, name: team.name, readOnly: true }]);
    const read = await k.t.request('GET', `/api/v2/campaign/${created.id}?select=teamAssignments`, { token: k.viewer });
    expect(read.body.teamAssignments).toEqual([{ id: team.id, name: team.name }]);
  });

  it('counts against the CAMPAIGN limit (400 resourceLimit.error.limitReached)', async () => {
    const limited = (await k.t.factories.customer({ resourceLimits: { overrides: { CAMPAIGN: 1 } } })).id;
    const token = (await k.t.actor('APPROVER', { customerId: limited })).token;
    const group = await k.t.request('POST', '/api/messageGroup', { token, json: { name: 'News' } });
    const body = {
      name: 'g',
      level: 'WIDGET',
      type: 'MESSAGE_GROUP',
      version: '2.0',
      contentShuffleMode: 'BALANCED',
      messageGroupAssignment: { assignments: [{ messageGroupId: group.body.id }] },
    };
    await k.create(body, token);
    const refused = await post(body, token);
    expect([refused.status, refused.body.key, refused.body.details]).toEqual([
      400,
      'resourceLimit.error.limitReached',
      { resource: 'CAMPAIGN', used: 1, limit: 1 },
    ]);
  });
});
