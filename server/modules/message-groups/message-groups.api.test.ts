import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { createTestContext, type TestContext } from '@/server/test/harness';

let t: TestContext;
let customerId: number;
let owner: string;
let approver: string;
let editor: string;
let viewer: string;
let otherApprover: string;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  owner = (await t.actor('OWNER', { customerId })).token;
  approver = (await t.actor('APPROVER', { customerId })).token;
  editor = (await t.actor('EDITOR', { customerId })).token;
  viewer = (await t.actor('VIEWER', { customerId })).token;
  otherApprover = (await t.actor('APPROVER')).token;
});
afterAll(() => t.close());

const create = (body: unknown, token = approver, query = '') => t.request('POST', `/api/messageGroup${query}`, { token, json: body });

describe('message groups (spec 2, version 1 only)', () => {
  it('creates, reads, lists (search, sort, paging), updates partially and deletes, with audit entries', async () => {
    const a = await create({ name: 'Breaking news', weight: 2, saturation: 1.5, contentShuffleMode: 'SERIAL' });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body).toMatchObject({
      name: 'Breaking news',
      weight: 2,
      saturation: 1.5,
      contentShuffleMode: 'SERIAL',
      customerId,
      readOnly: false,
    });
    expect(typeof a.body.id).toBe('number');
    const b = await create({ name: 'Announcements' });
    expect(b.body).toMatchObject({ name: 'Announcements', weight: 0 });

    const listed = await t.request('GET', `/api/messageGroup?sort=name,asc&size=1&page=0`, { token: viewer });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ totalElements: 2, content: [{ name: 'Announcements' }] });
    const searched = await t.request('GET', `/api/messageGroup?search=${encodeURIComponent('name~break')}`, { token: viewer });
    expect(searched.body.content.map((g: { name: string }) => g.name)).toEqual(['Breaking news']);
    expect((await t.request('GET', `/api/messageGroup/${a.body.id}?select=name`, { token: viewer })).body).toEqual({
      id: a.body.id,
      name: 'Breaking news',
    });

    const put = await t.request('PUT', `/api/messageGroup/${a.body.id}`, {
      token: approver,
      json: { weight: 5, saturation: '', name: null },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ name: 'Breaking news', weight: 5, contentShuffleMode: 'SERIAL' });
    expect(put.body.saturation).toBeUndefined();

    expect((await t.request('DELETE', `/api/messageGroup/${b.body.id}`, { token: approver })).status).toBe(204);
    expect((await t.request('GET', `/api/messageGroup/${b.body.id}`, { token: viewer })).status).toBe(404);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'messageGroup'), eq(auditLog.customerId, customerId)));
    expect(entries.map((e) => e.action).sort()).toEqual(['create', 'create', 'delete', 'update']);
  });

  it('refuses bad input with 400 naming the field', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: 'x'.repeat(256) },
      { name: 'ok', weight: 1.5 },
      { name: 'ok', contentShuffleMode: 'RANDOM' },
      { name: 'ok', saturation: -1 },
      { name: 'nul\u0000' },
    ]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.request('PUT', '/api/messageGroup/abc', { token: approver, json: { name: 'x' } })).status).toBe(400);
  });

  it('needs APPROVER to write and VIEWER to read; another tenant sees a 404', async () => {
    expect((await create({ name: 'By an editor' }, editor)).status).toBe(403);
    const mine = await create({ name: 'Mine' });
    expect((await t.request('PUT', `/api/messageGroup/${mine.body.id}`, { token: editor, json: { name: 'x' } })).status).toBe(403);
    expect((await t.request('DELETE', `/api/messageGroup/${mine.body.id}`, { token: editor })).status).toBe(403);
    for (const [method, json] of [
      ['GET', undefined],
      ['PUT', { name: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      expect((await t.request(method, `/api/messageGroup/${mine.body.id}`, { token: otherApprover, json })).status).toBe(404);
    }
    expect(
      (await t.request('GET', '/api/messageGroup', { token: otherApprover })).body.content.map((g: { id: number }) => g.id),
    ).not.toContain(mine.body.id);
  });

  it("applies team visibility: a member sees only its teams' groups and cannot write read-only ones", async () => {
    const team = (await t.request('POST', '/api/team', { token: owner, json: { name: 'Newsroom' } })).body.id as string;
    const otherTeam = (await t.request('POST', '/api/team', { token: owner, json: { name: 'Sales' } })).body.id as string;
    const m = await t.actor('APPROVER', { customerId });
    expect(
      (
        await t.request('PUT', `/api/team/updateUserAssignments?teamId=${team}`, {
          token: owner,
          json: { resourcesToAdd: [{ id: m.user.id }] },
        })
      ).status,
    ).toBe(200);
    const ro = await create({ name: 'Read-only for the newsroom' }, owner, `?teamIds=${team}:true`);
    const hidden = await create({ name: 'Sales only' }, owner, `?teamIds=${otherTeam}:false`);
    expect((await t.request('GET', `/api/messageGroup/${hidden.body.id}`, { token: m.token })).status).toBe(404);
    const seen = await t.request('GET', `/api/messageGroup/${ro.body.id}`, { token: m.token });
    expect(seen.body).toMatchObject({ readOnly: true });
    const refused = await t.request('PUT', `/api/messageGroup/${ro.body.id}`, { token: m.token, json: { name: 'x' } });
    expect(refused.status).toBe(403);
    expect(refused.body.key).toBe('team.error.readOnly');
    const assignments = await t.request('GET', `/api/team/messageGroupAssignments?teamId=${team}`, { token: owner });
    expect(assignments.status, JSON.stringify(assignments.body)).toBe(200);
  });
});
