import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserActor } from '@/server/context/actor';
import { customers } from '@/server/tenant/customers.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { assertWritable } from './team-visibility';
import { teamAssignments } from './teams.table';

let t: TestContext;
let customerId: number;
let owner: { token: string; id: string; email: string };
const teams: Record<string, string> = {};
type Named = 'm1' | 'r1' | 'nm' | 'a' | 'b' | 'c' | 'ro';
const u = {} as Record<Named, { id: string; email: string; token: string }>;

beforeAll(async () => {
  t = await createTestContext();
  const customer = await t.factories.customer();
  customerId = customer.id;
  const o = await t.actor('OWNER', { customerId, email: `owner-${customerId}@example.com` });
  owner = { token: o.token, id: o.user.id, email: o.user.email };
  for (const name of ['m1', 'r1', 'nm', 'a', 'b', 'c', 'ro'] as Named[]) {
    const { user, token } = await t.actor('VIEWER', { customerId, email: `${name}-${customerId}@example.com`, restricted: name === 'r1' });
    u[name] = { id: user.id, email: user.email, token };
  }
  for (const name of ['T1', 'T2']) {
    const res = await t.request('POST', '/api/team', { token: owner.token, json: { name, comment: `team ${name}` } });
    expect(res.status).toBe(201);
    teams[name] = res.body.id;
  }
  const put = (team: string, resourcesToAdd: { id: string; readOnly?: boolean }[]) =>
    t.request('PUT', `/api/team/updateUserAssignments?teamId=${teams[team]}`, { token: owner.token, json: { resourcesToAdd } });
  expect((await put('T1', [{ id: u.m1.id }, { id: u.r1.id }, { id: u.a.id }, { id: u.ro.id, readOnly: true }])).status).toBe(200);
  expect((await put('T2', [{ id: u.b.id }])).status).toBe(200);
});
afterAll(() => t.close());

async function setSettings(values: { userFullAccessIfNotInTeam?: boolean; accessResourcesWithoutTeam?: boolean }) {
  await t.db
    .update(customers)
    .set({ userFullAccessIfNotInTeam: true, accessResourcesWithoutTeam: true, ...values })
    .where(eq(customers.id, customerId));
}

async function visibleNames(token: string, query = ''): Promise<string[]> {
  const res = await t.request('GET', `/api/v2/user?size=100&select=email${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const names = (res.body.content as { email: string }[]).map((x) => x.email.split('-')[0]!);

  return names.sort();
}

const ALL = ['a', 'b', 'c', 'm1', 'nm', 'owner', 'r1', 'ro'];
const T1 = ['a', 'm1', 'r1', 'ro'];
const TEAMLESS = ['c', 'nm', 'owner'];

describe('team visibility on GET /api/v2/user', () => {
  const cases: {
    name: string;
    caller: Named | 'owner';
    query?: (ids: Record<string, string>) => string;
    settings?: Parameters<typeof setSettings>[0];
    expected: string[];
  }[] = [
    { name: 'OWNER sees everyone', caller: 'owner', expected: ALL },
    { name: 'OWNER narrowed by selectTeamIds', caller: 'owner', query: (ids) => `&selectTeamIds=${ids.T1}`, expected: T1 },
    {
      name: 'OWNER: selectTeamIds + includeResourcesWithoutTeam',
      caller: 'owner',
      query: (ids) => `&selectTeamIds=${ids.T2}&includeResourcesWithoutTeam=true`,
      expected: ['b', ...TEAMLESS].sort(),
    },
    { name: 'a member sees its teams', caller: 'm1', expected: T1 },
    {
      name: 'a member adds team-less resources on request',
      caller: 'm1',
      query: () => '&includeResourcesWithoutTeam=true',
      expected: [...T1, ...TEAMLESS].sort(),
    },
    {
      name: 'accessResourcesWithoutTeam=false keeps team-less resources from members',
      caller: 'm1',
      query: () => '&includeResourcesWithoutTeam=true',
      settings: { accessResourcesWithoutTeam: false },
      expected: T1,
    },
    { name: 'a member cannot select a team it is not in', caller: 'm1', query: (ids) => `&selectTeamIds=${ids.T2}`, expected: [] },
    {
      name: 'a restricted user sees only its teams, whatever the flags',
      caller: 'r1',
      query: () => '&includeResourcesWithoutTeam=true',
      expected: T1,
    },
    { name: 'a non-member has full access by default', caller: 'nm', expected: ALL },
    { name: 'a non-member can narrow by selectTeamIds', caller: 'nm', query: (ids) => `&selectTeamIds=${ids.T2}`, expected: ['b'] },
    {
      name: 'userFullAccessIfNotInTeam=false: a non-member sees nothing',
      caller: 'nm',
      settings: { userFullAccessIfNotInTeam: false },
      expected: [],
    },
    {
      name: 'userFullAccessIfNotInTeam=false does not affect members',
      caller: 'm1',
      settings: { userFullAccessIfNotInTeam: false },
      expected: T1,
    },
  ];

  it.each(cases)('$name', async ({ caller, query, settings, expected }) => {
    await setSettings(settings ?? {});
    const token = caller === 'owner' ? owner.token : u[caller].token;
    expect(await visibleNames(token, query?.(teams) ?? '')).toEqual(expected);
    await setSettings({});
  });

  it('includeReadOnlyInfo: readOnly is true only where every caller team is read-only', async () => {
    const res = await t.request('GET', '/api/v2/user?size=100&select=email&includeReadOnlyInfo=true', { token: u.m1.token });
    const byName = Object.fromEntries(
      (res.body.content as { email: string; readOnly: boolean }[]).map((x) => [x.email.split('-')[0], x.readOnly]),
    );
    expect(byName).toEqual({ a: false, m1: false, r1: false, ro: true });
    const asOwner = await t.request('GET', '/api/v2/user?size=100&select=email&includeReadOnlyInfo=true', { token: owner.token });
    expect((asOwner.body.content as { readOnly: boolean }[]).every((x) => x.readOnly === false)).toBe(true);
  });

  it('rejects a malformed selectTeamIds with 400', async () => {
    const res = await t.request('GET', '/api/v2/user?selectTeamIds=nope', { token: owner.token });
    expect(res.status).toBe(400);
  });

  it('search=teamAssignments.team.id=<id> compiles through the query language', async () => {
    const res = await t.request('GET', `/api/v2/user?select=email&search=${encodeURIComponent(`teamAssignments.team.id=${teams.T2}`)}`, {
      token: owner.token,
    });
    expect(res.status).toBe(200);
    expect((res.body.content as { email: string }[]).map((x) => x.email)).toEqual([u.b.email]);
    const teamLess = await t.request('GET', `/api/v2/user?select=email&size=100&search=${encodeURIComponent('teamAssignments=NULL')}`, {
      token: owner.token,
    });
    expect((teamLess.body.content as { email: string }[]).map((x) => x.email.split('-')[0]).sort()).toEqual(TEAMLESS);
    const readOnly = await t.request('GET', `/api/v2/user?select=email&search=${encodeURIComponent('teamAssignments.readOnly=true')}`, {
      token: owner.token,
    });
    expect((readOnly.body.content as { email: string }[]).map((x) => x.email)).toEqual([u.ro.email]);
  });

  it('assertWritable: 403 team.error.readOnly through read-only teams, 404 when invisible', async () => {
    const actor: UserActor = {
      kind: 'user',
      userId: u.m1.id,
      email: u.m1.email,
      name: 'm1',
      role: 'VIEWER',
      customerId,
      customerName: 'c',
      isNetworkOwner: false,
      isRestrictedUser: false,
      tokenFamilyId: 'f',
      via: 'bearer',
    };
    const ctx = { actor, scope: { kind: 'customer' as const, customerId, explicit: false } };
    await expect(assertWritable(t.db, ctx, 'user', u.a.id)).resolves.toBeUndefined();
    await expect(assertWritable(t.db, ctx, 'user', u.ro.id)).rejects.toMatchObject({ status: 403, key: 'team.error.readOnly' });
    await expect(assertWritable(t.db, ctx, 'user', u.b.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      assertWritable(t.db, { ...ctx, actor: { ...actor, role: 'OWNER', userId: owner.id } }, 'user', u.ro.id),
    ).resolves.toBeUndefined();
  });
});

describe('team CRUD', () => {
  it('creates, refuses a duplicate name, renames and deletes (with its assignments)', async () => {
    const created = await t.request('POST', '/api/team/', { token: owner.token, json: { name: 'Crud', comment: 'c' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Crud', comment: 'c', customerId });
    expect((await t.request('POST', '/api/team', { token: owner.token, json: { name: 'Crud' } })).status).toBe(409);
    expect((await t.request('POST', '/api/team', { token: owner.token, json: { name: '' } })).status).toBe(400);
    const id = created.body.id as string;
    const renamed = await t.request('PUT', `/api/team?teamId=${id}`, { token: owner.token, json: { name: 'Crud 2' } });
    expect(renamed.status).toBe(200);
    // Omitted attributes keep their value (spec 1 rule 2); "" removes the comment.
    expect(renamed.body).toMatchObject({ id, name: 'Crud 2', comment: 'c' });
    const cleared = await t.request('PUT', `/api/team?teamId=${id}`, { token: owner.token, json: { comment: '' } });
    expect(cleared.body).toMatchObject({ id, name: 'Crud 2' });
    expect(cleared.body.comment).toBeUndefined();
    expect((await t.request('PUT', `/api/team?teamId=${id}`, { token: owner.token, json: { name: 'T1' } })).status).toBe(409);
    await t.request('PUT', `/api/team/updateUserAssignments?teamId=${id}`, {
      token: owner.token,
      json: { resourcesToAdd: [{ id: u.c.id }] },
    });
    expect((await t.request('DELETE', `/api/team/${id}`, { token: owner.token })).status).toBe(204);
    expect(await t.db.select().from(teamAssignments).where(eq(teamAssignments.teamId, id))).toEqual([]);
    expect((await t.request('DELETE', `/api/team/${id}`, { token: owner.token })).status).toBe(404);
  });

  it('lists teams with member and resource counts; members see only their teams', async () => {
    const res = await t.request('GET', '/api/team?includeTeamUserNumber=true&includeTeamResourceNumber=true&sort=name,asc&search=name^T', {
      token: owner.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.content).toMatchObject([
      { name: 'T1', teamUserNumber: 4, teamDeviceGroupNumber: 0, teamFileFolderNumber: 0, teamContentGroupNumber: 0 },
      { name: 'T2', teamUserNumber: 1 },
    ]);
    const plain = await t.request('GET', '/api/team?search=name^T', { token: owner.token });
    expect(plain.body.content[0].teamUserNumber).toBeUndefined();
    const asMember = await t.request('GET', '/api/team', { token: u.b.token });
    expect(asMember.body.content.map((x: { name: string }) => x.name)).toEqual(['T2']);
  });

  it('refuses team writes below OWNER and teams of another tenant', async () => {
    const tech = await t.actor('TECHNICIAN', { customerId });
    expect((await t.request('POST', '/api/team', { token: tech.token, json: { name: 'x' } })).status).toBe(403);
    const other = await t.actor('OWNER');
    expect((await t.request('PUT', `/api/team?teamId=${teams.T1}`, { token: other.token, json: { name: 'stolen' } })).status).toBe(404);
    expect((await t.request('DELETE', `/api/team/${teams.T1}`, { token: other.token })).status).toBe(404);
  });

  it('counts against the TEAM limit (STARTER: none)', async () => {
    const starter = await t.factories.customer({ licenseTier: 'STARTER' });
    const o = await t.actor('OWNER', { customerId: starter.id });
    const res = await t.request('POST', '/api/team', { token: o.token, json: { name: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.key).toBe('resourceLimit.error.limitReached');
  });
});

describe('assignment endpoints', () => {
  it('lists the resources of a team and the teams of a resource', async () => {
    const res = await t.request('GET', `/api/team/userAssignments?teamId=${teams.T1}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.arrayContaining([
        { id: u.ro.id, readOnly: true },
        { id: u.a.id, readOnly: false },
      ]),
    );
    expect(res.body).toHaveLength(4);
    const ofUser = await t.request('GET', `/api/team/user/${u.ro.id}/assignments`, { token: owner.token });
    expect(ofUser.status).toBe(200);
    expect(ofUser.body).toEqual({ teams: [{ id: teams.T1, name: 'T1', readOnly: true }] });
    expect((await t.request('GET', `/api/team/User/${u.b.id}/assignments`, { token: owner.token })).body.teams).toHaveLength(1);
    // A member cannot read the teams of a user it does not see.
    expect((await t.request('GET', `/api/team/user/${u.b.id}/assignments`, { token: u.m1.token })).status).toBe(404);
  });

  it('answers 404 team.error.unknownResourceType for kinds not registered', async () => {
    for (const [method, path] of [
      ['GET', `/api/team/deviceInstallRuleAssignments?teamId=${teams.T1}`],
      ['GET', `/api/team/fooAssignments?teamId=${teams.T1}`],
      ['GET', `/api/team/whatever?teamId=${teams.T1}`],
      ['GET', `/api/team/deviceInstallRule/${u.a.id}/assignments`],
    ] as const) {
      const res = await t.request(method, path, { token: owner.token });
      expect(res.status, path).toBe(404);
      expect(res.body.key).toBe('team.error.unknownResourceType');
    }
    const put = await t.request('PUT', `/api/team/updateDeviceInstallRuleAssignments?teamId=${teams.T1}`, {
      token: owner.token,
      json: { resourcesToAdd: [] },
    });
    expect(put.status).toBe(404);
    expect(put.body.key).toBe('team.error.unknownResourceType');
  });

  it('accepts the other registered kinds (folders)', async () => {
    const res = await t.request('GET', `/api/team/fileFolderAssignments?teamId=${teams.T1}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('refuses an OWNER joining a team (409) and resources or teams of another tenant (404)', async () => {
    const owners = await t.request('PUT', `/api/team/updateUserAssignments?teamId=${teams.T1}`, {
      token: owner.token,
      json: { resourcesToAdd: [{ id: owner.id }] },
    });
    expect(owners.status).toBe(409);
    expect(owners.body.key).toBe('team.error.ownerCannotJoin');
    const stranger = await t.actor('VIEWER');
    const foreign = await t.request('PUT', `/api/team/updateUserAssignments?teamId=${teams.T1}`, {
      token: owner.token,
      json: { resourcesToAdd: [{ id: stranger.user.id }] },
    });
    expect(foreign.status).toBe(404);
    const otherOwner = await t.actor('OWNER', { customerId: stranger.user.customerId });
    const foreignTeam = await t.request('PUT', `/api/team/updateUserAssignments?teamId=${teams.T1}`, {
      token: otherOwner.token,
      json: { resourcesToAdd: [{ id: stranger.user.id }] },
    });
    expect(foreignTeam.status).toBe(404);
    expect((await t.request('GET', `/api/team/userAssignments?teamId=${teams.T1}`, { token: otherOwner.token })).status).toBe(404);
  });

  it('refuses callers below OWNER (403)', async () => {
    const res = await t.request('PUT', `/api/team/updateUserAssignments?teamId=${teams.T1}`, {
      token: u.m1.token,
      json: { resourcesToAdd: [] },
    });
    expect(res.status).toBe(403);
  });

  it('removes resources from a team', async () => {
    const path = `/api/team/updateUserAssignments?teamId=${teams.T2}`;
    await t.request('PUT', path, { token: owner.token, json: { resourcesToAdd: [{ id: u.c.id }] } });
    const res = await t.request('PUT', path, { token: owner.token, json: { resourceIdsToRemove: [u.c.id] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: u.b.id, readOnly: false }]);
  });

  it('POST /api/user/updateTeamAssignments applies the shared team-assignment body', async () => {
    const path = `/api/user/updateTeamAssignments?email=${encodeURIComponent(u.c.email)}`;
    const added = await t.request('POST', path, {
      token: owner.token,
      json: {
        assignToTeams: [
          { teamId: teams.T1, readOnly: true },
          { teamId: teams.T2, readOnly: false },
        ],
      },
    });
    expect(added.status).toBe(200);
    expect(added.body.teams).toEqual([
      { id: teams.T1, name: 'T1', readOnly: true },
      { id: teams.T2, name: 'T2', readOnly: false },
    ]);
    const removed = await t.request('POST', path, { token: owner.token, json: { removeFromTeamIds: [teams.T1, teams.T2] } });
    expect(removed.body).toEqual({ teams: [] });
    const ownerJoin = await t.request('POST', `/api/user/updateTeamAssignments?email=${encodeURIComponent(owner.email)}`, {
      token: owner.token,
      json: { assignToTeams: [{ teamId: teams.T1, readOnly: false }] },
    });
    expect(ownerJoin.status).toBe(409);
    const stranger = await t.actor('OWNER');
    const otherTeam = await t.request('POST', `/api/user/updateTeamAssignments?email=${encodeURIComponent(stranger.user.email)}`, {
      token: stranger.token,
      json: { assignToTeams: [{ teamId: teams.T1, readOnly: false }] },
    });
    expect(otherTeam.status).toBe(404);
    const otherUser = await t.request('POST', path, { token: stranger.token, json: { assignToTeams: [] } });
    expect(otherUser.status).toBe(404);
    // The change is audited.
    const log = await t.request('GET', `/api/v2/log?search=${encodeURIComponent(u.c.id)}`, { token: owner.token });
    expect(log.body.totalElements).toBeGreaterThanOrEqual(1);
  });
});
