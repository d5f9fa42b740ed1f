import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignsTestKit, type CampaignsTestKit } from './campaigns.test-kit';

let k: CampaignsTestKit;
let alpha: Record<string, any>;
let beta: Record<string, any>;
let gamma: Record<string, any>;
let contentA: { id: string };
let contentB: { id: string };
let screen: { id: string };
let deviceFilter: { id: string; name: string };

beforeAll(async () => {
  k = await campaignsTestKit();
  contentA = await k.own.content('A content');
  contentB = await k.own.content('B content');
  screen = await k.own.device('Screen 1');
  deviceFilter = await k.own.quickFilter('DEVICE', { name: 'Screen' });
  alpha = await k.create(k.contentChannel(contentA.id, { name: 'Alpha', weight: 3, validFrom: '2026-01-01', tags: ['promo'] }));
  beta = await k.create(
    k.contentChannel(
      contentB.id,
      { name: 'Beta', weight: 1, deviceSelectionMode: 'STATIC', deviceAssignment: { assignments: [{ deviceId: screen.id }] } },
      [],
    ),
  );
  gamma = await k.create({
    ...k.contentChannel(
      contentA.id,
      { name: 'Gamma', weight: 2, deviceSelectionMode: 'QUICK_FILTER', deviceQuickFilterId: deviceFilter.id },
      [],
    ),
    level: 'TOP',
    affectedDateRanges: { intervals: [] },
  });
  // Another tenant's campaign never shows.
  await k.create(
    k.contentChannel((await k.other.content('Theirs')).id, { name: 'Alpha theirs' }, [k.other.roots.device.id]),
    k.otherApprover,
  );
});
afterAll(() => k.t.close());

const list = (query: string, token = k.viewer) => k.t.request('GET', `/api/v2/campaign${query}`, { token });
const names = (body: { content: { name: string }[] }) => body.content.map((c) => c.name);

describe('GET /api/v2/campaign', () => {
  it("pages the tenant's campaigns by name with primitives only by default", async () => {
    const res = await list('?size=2');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ totalElements: 3, totalPages: 2, size: 2, number: 0 });
    expect(names(res.body)).toEqual(['Alpha', 'Beta']);
    expect(res.body.content[0]).toMatchObject({
      id: alpha.id,
      level: 'WIDGET',
      validFrom: Date.UTC(2026, 0, 1),
      creatorEmail: expect.any(String),
      createDate: expect.any(Number),
      lastSavedAt: expect.any(Number),
    });
    expect(res.body.content[0].contentAssignments).toBeUndefined();
    expect(names((await list('?size=2&page=1')).body)).toEqual(['Gamma']);
  });

  it('sorts, searches by field and by assignment prefixes', async () => {
    expect(names((await list('?sort=weight,desc')).body)).toEqual(['Alpha', 'Gamma', 'Beta']);
    expect(names((await list('?search=level=TOP')).body)).toEqual(['Gamma']);
    expect(names((await list(`?search=${encodeURIComponent(`campaignContentAssignments.contentId=${contentA.id}`)}`)).body)).toEqual([
      'Alpha',
      'Gamma',
    ]);
    expect(names((await list(`?search=${encodeURIComponent(`campaignDeviceAssignments.deviceId=${screen.id}`)}`)).body)).toEqual(['Beta']);
    expect(names((await list('?search=campaignMessageGroupAssignments.messageGroupId=7')).body)).toEqual([]);
    expect(names((await list(`?search=${encodeURIComponent('tags:promo')}`)).body)).toEqual(['Alpha']);
    expect(names((await list(`?search=${encodeURIComponent(`validFrom≥${Date.UTC(2025, 0, 1)}`)}`)).body)).toEqual(['Alpha']);
    expect((await list('?search=nope:1')).status).toBe(400);
    expect((await list('?sort=nope,asc')).status).toBe(400);
  });

  it('selects assignment lists, embedded objects and affectedScreenCount (one statement per list for the page)', async () => {
    const select =
      'name,contentAssignments,deviceAssignments,deviceGroupAssignments,teamAssignments,affectedScreenCount,customer,creator,lastSavedBy,deviceQuickFilter';
    const res = await list(`?select=${select}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [a, b, g] = res.body.content;
    expect(a).toMatchObject({
      id: alpha.id,
      name: 'Alpha',
      contentAssignments: [{ id: contentA.id, name: 'A content', weight: 1 }],
      deviceAssignments: [],
      deviceGroupAssignments: [{ id: k.own.roots.device.id }],
      teamAssignments: [],
      affectedScreenCount: 1,
      customer: { id: k.customerId, name: expect.any(String) },
      creator: { email: expect.any(String) },
    });
    expect(a.level).toBeUndefined();
    expect(b).toMatchObject({ deviceAssignments: [{ id: screen.id, name: 'Screen 1' }], affectedScreenCount: 1 });
    expect(g).toMatchObject({ deviceQuickFilter: { id: deviceFilter.id, name: deviceFilter.name }, affectedScreenCount: 1 });
    expect((await list('?select=contentAssignments(id)')).status).toBe(400);
    expect((await list('?select=nope')).status).toBe(400);
  });

  it('filters by team for team members and answers readOnly on request', async () => {
    const team = await k.own.team();
    const member = await k.t.actor('VIEWER', { customerId: k.customerId });
    await k.own.join(team.id, 'user', member.user.id);
    await k.own.join(team.id, 'campaign', String(beta.id), true);
    const res = await list('?includeReadOnlyInfo=true', member.token);
    expect(res.body.content.map((c: { name: string; readOnly: boolean }) => [c.name, c.readOnly])).toEqual([['Beta', true]]);
    expect(names((await list(`?search=${encodeURIComponent(`teamAssignments.team.id=${team.id}`)}`)).body)).toEqual(['Beta']);
  });
});

describe('GET /api/v2/campaign/{id}', () => {
  it('answers one campaign with its lists, honouring select; another tenant gets 404', async () => {
    const res = await k.t.request('GET', `/api/v2/campaign/${beta.id}`, { token: k.viewer });
    expect(res.body).toMatchObject({
      id: beta.id,
      name: 'Beta',
      deviceSelectionMode: 'STATIC',
      readOnly: false,
      deviceAssignments: [{ id: screen.id }],
      fileAssignments: [],
    });
    const selected = await k.t.request('GET', `/api/v2/campaign/${beta.id}?select=name`, { token: k.viewer });
    expect(selected.body).toEqual({ id: beta.id, name: 'Beta', readOnly: false });
    expect((await k.t.request('GET', `/api/v2/campaign/${beta.id}`, { token: k.otherApprover })).status).toBe(404);
    expect((await k.t.request('GET', '/api/v2/campaign/999999999', { token: k.viewer })).status).toBe(404);
    expect(
      (await k.t.request('GET', `/api/v2/campaign/${gamma.id}?select=affectedScreenCount,teamAccessList`, { token: k.viewer })).body,
    ).toMatchObject({
      affectedScreenCount: 1,
      teamAccessList: { teams: [] },
    });
  });
});
