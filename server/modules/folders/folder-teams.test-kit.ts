import { expect } from 'vitest';
import type { Role } from '@/server/context/roles';
import type { TestContext } from '@/server/test/harness';

/**
 * The team fixture the folder API tests share (content and device folders): teams A and B of the customer,
 * a member of team A with `memberRole`, and three folders in the root: read-only for A, writable for A, and
 * B's only (hidden from the member). Folders are created and assigned through the module's own routes.
 */
export type FolderTeamRoutes = {
  /** The path of a create in the root, without the query (`/api/contentGroup`, `/api/deviceGroup/{rootId}`). */
  createPath: string;
  /** The team assignment path up to the id (`/api/contentGroup/updateTeamAssignments?contentGroupId=`). */
  assignPath: string;
  /** The list path (`/api/v2/contentGroup`). */
  listPath: string;
};

export async function folderTeamFixture(
  t: TestContext,
  input: { owner: string; customerId: number; memberRole: Role; label: string; routes: FolderTeamRoutes },
) {
  const { owner, routes } = input;
  const assign = (id: string, teamId: string, readOnly = false) =>
    t.request('POST', `${routes.assignPath}${id}`, { token: owner, json: { assignToTeams: [{ teamId, readOnly }] } });
  const create = async (name: string, query = '') => {
    const res = await t.request('POST', `${routes.createPath}${query}`, { token: owner, json: { name } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);

    return res.body.id as string;
  };
  const team = async (name: string) => (await t.request('POST', '/api/team', { token: owner, json: { name } })).body.id as string;
  const teamA = await team(`${input.label} team A`);
  const teamB = await team(`${input.label} team B`);
  const m = await t.actor(input.memberRole, { customerId: input.customerId });
  expect(
    (
      await t.request('PUT', `/api/team/updateUserAssignments?teamId=${teamA}`, {
        token: owner,
        json: { resourcesToAdd: [{ id: m.user.id }] },
      })
    ).status,
  ).toBe(200);
  const readOnlyId = await create('TeamReadOnly', `?teamIds=${teamA}:true`);
  const writableId = await create('TeamWritable');
  const hiddenId = await create('TeamHidden');
  const res = await assign(writableId, teamA);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.teams).toEqual([expect.objectContaining({ id: teamA, readOnly: false })]);
  await assign(hiddenId, teamB);

  return {
    teamA,
    teamB,
    member: m.token,
    readOnlyId,
    writableId,
    hiddenId,
    assign,
    /** What `token` lists (with `includeReadOnlyInfo`): folder id → readOnly. */
    async seenBy(token: string): Promise<Map<string, boolean>> {
      const list = await t.request('GET', `${routes.listPath}?size=100&includeReadOnlyInfo=true&select=name`, { token });
      expect(list.status).toBe(200);

      return new Map((list.body.content as { id: string; readOnly: boolean }[]).map((g) => [g.id, g.readOnly]));
    },
  };
}
