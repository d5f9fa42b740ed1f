import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { customers } from '@/server/tenant/customers.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { advertisers } from './advertisers.table';
import { PROOF_OF_PLAY_CSV_COLUMNS } from './proof-of-play.service';

let t: TestContext;
let customerId: number;
let owner: string;
let technician: string;
let approver: string;
let viewer: string;
let otherTechnician: string;
let otherCustomerId: number;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  owner = (await t.actor('OWNER', { customerId })).token;
  technician = (await t.actor('TECHNICIAN', { customerId })).token;
  approver = (await t.actor('APPROVER', { customerId })).token;
  viewer = (await t.actor('VIEWER', { customerId })).token;
  const other = await t.actor('TECHNICIAN');
  otherTechnician = other.token;
  otherCustomerId = other.user.customerId;
});
afterAll(() => t.close());

const HEADER = `${PROOF_OF_PLAY_CSV_COLUMNS.join(',')}\r\n`;

async function create(body: unknown, token = technician, query = '') {
  return t.request('POST', `/api/adv${query}`, { token, json: body });
}

async function createdAdvertiser(
  name: string,
  extra: Record<string, unknown> = {},
  token = technician,
): Promise<{ id: string; name: string }> {
  const res = await create({ name, ...extra }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body;
}

const created = createdAdvertiser;

const auditActions = async (id: string) =>
  (
    await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'advertiser'), eq(auditLog.entityId, id)))
  ).map((e) => e.action);

describe('POST /api/adv', () => {
  it('creates an advertiser (enabled false by default, readOnly false) with an audit entry', async () => {
    const res = await create({
      name: 'Acme',
      comment: 'Coffee',
      validity: { fromDate: '2026-12-01', toDate: '2026-12-31', cron: '0 8-18 * * MON-FRI', timeZone: 'Europe/Berlin' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/),
      name: 'Acme',
      comment: 'Coffee',
      enabled: false,
      customerId,
      validity: { fromDate: '2026-12-01', toDate: '2026-12-31', cron: '0 8-18 * * MON-FRI', timeZone: 'Europe/Berlin' },
      readOnly: false,
      proofOfPlayAccessSecretConfigured: false,
    });
    expect(await auditActions(res.body.id)).toEqual(['create']);
  });

  it('ignores the read-only body fields (id, customerId, proofOfPlayAccessSecretConfigured)', async () => {
    const res = await create({
      id: uuidv7(),
      name: 'Ignored fields',
      customerId: otherCustomerId,
      proofOfPlayAccessSecretConfigured: true,
      enabled: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ customerId, enabled: true, proofOfPlayAccessSecretConfigured: false });
  });

  it('refuses a duplicate name in the customer (409), not in another one', async () => {
    await created('Dup');
    const dup = await create({ name: 'Dup' });
    expect(dup.status).toBe(409);
    expect(dup.body.key).toBe('advertiser.error.nameExists');
    expect((await create({ name: 'Dup' }, otherTechnician)).status).toBe(201);
  });

  it('validates name, dates, time zone and cron', async () => {
    const cases: unknown[] = [
      { name: 'x'.repeat(26) },
      { name: '' },
      { name: '   ' },
      { comment: 'no name' },
      { name: 'ok', enabled: 'yes' },
      { name: 'ok', validity: { timeZone: 'Mars/Olympus' } },
      { name: 'ok', validity: { timeZone: '+01:00' } },
      { name: 'ok', validity: { fromDate: '2026-02-30' } },
      { name: 'ok', validity: { fromDate: '01.12.2026' } },
    ];
    for (const body of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.key).toBe('request.error.invalid');
    }
    // The cron language is checked field by field, with its own key (the document states its shape and words the rest).
    for (const cron of ['61 * * * *', 'every day', '* * * *']) {
      const res = await create({ name: 'ok', validity: { cron } });
      expect(res.status, cron).toBe(400);
      expect(res.body.key, cron).toBe('advertiser.error.invalidCron');
    }
    // A rule between two values: its own key (the schema words it, JSON Schema cannot state it).
    const reversed = await create({ name: 'ok', validity: { fromDate: '2026-12-31', toDate: '2026-12-01' } });
    expect(reversed.status).toBe(400);
    expect(reversed.body).toMatchObject({ key: 'request.error.invalidCombination', details: { issues: [{ path: 'validity.toDate' }] } });
    expect((await create({ name: 'x'.repeat(25) })).status).toBe(201);
  });

  it('refuses NUL characters (400)', async () => {
    const res = await create({ name: 'nul\u0000name' });
    expect(res.status).toBe(400);
    const comment = await create({ name: 'nul comment', comment: 'a\u0000b' });
    expect(comment.status).toBe(400);
  });

  it('is TECHNICIAN and above', async () => {
    const res = await create({ name: 'approver' }, approver);
    expect(res.status).toBe(403);
    expect(res.body.key).toBe('auth.error.roleRequired');
  });

  it("refuses another tenant's customerId (403)", async () => {
    const res = await create({ name: 'elsewhere' }, technician, `?customerId=${otherCustomerId}`);
    expect(res.status).toBe(403);
  });

  it('counts against the ADVERTISER resource limit, and the counter reports the usage', async () => {
    const limited = await t.factories.customer({ licenseTier: 'ENTERPRISE', resourceLimits: { overrides: { ADVERTISER: 1 } } });
    const { token } = await t.actor('TECHNICIAN', { customerId: limited.id });
    expect((await create({ name: 'one' }, token)).status).toBe(201);
    const second = await create({ name: 'two' }, token);
    expect(second.status).toBe(400);
    expect(second.body).toMatchObject({ key: 'resourceLimit.error.limitReached', details: { resource: 'ADVERTISER', used: 1, limit: 1 } });
    const limits = await t.request('GET', '/api/customer/resourceLimits', { token });
    expect(limits.body.find((r: { resource: string }) => r.resource === 'ADVERTISER')).toEqual({
      resource: 'ADVERTISER',
      limit: 1,
      used: 1,
    });
    const starter = await t.factories.customer({ licenseTier: 'STARTER' });
    const blocked = await create({ name: 'starter' }, (await t.actor('TECHNICIAN', { customerId: starter.id })).token);
    expect(blocked.body).toMatchObject({ key: 'resourceLimit.error.limitReached', details: { resource: 'ADVERTISER', used: 0, limit: 0 } });
  });
});

describe('GET /api/adv, /simple, /simplePaged and /{advertiserId}', () => {
  let alpha: { id: string };
  let customerIdForList: number;
  let listToken: string;
  beforeAll(async () => {
    const scoped = await t.factories.customer();
    customerIdForList = scoped.id;
    listToken = (await t.actor('TECHNICIAN', { customerId: scoped.id })).token;
    alpha = await created('Alpha', { enabled: true }, listToken);
    await created('Beta', { comment: 'second' }, listToken);
    await created('Gamma', {}, listToken);
  });

  it('pages with search, select and sort (by name by default)', async () => {
    const res = await t.request('GET', '/api/adv', { token: listToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalElements: 3, number: 0, size: 20, first: true, last: true });
    expect(res.body.content.map((a: { name: string }) => a.name)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(res.body.content[0]).toMatchObject({
      id: alpha.id,
      enabled: true,
      readOnly: false,
      customerId: customerIdForList,
      proofOfPlayAccessSecretConfigured: false,
    });
    const searched = await t.request('GET', `/api/adv?search=${encodeURIComponent('enabled=false')}&sort=name,desc&select=name`, {
      token: listToken,
    });
    expect(searched.body.content).toEqual([
      { id: expect.any(String), name: 'Gamma' },
      { id: expect.any(String), name: 'Beta' },
    ]);
    const paged = await t.request('GET', '/api/adv?size=1&page=1', { token: listToken });
    expect(paged.body).toMatchObject({ totalElements: 3, totalPages: 3, numberOfElements: 1 });
    expect((await t.request('GET', '/api/adv?search=bogus:1', { token: listToken })).status).toBe(400);
    expect((await t.request('GET', '/api/adv?sort=readOnly,asc', { token: listToken })).status).toBe(400);
  });

  it('answers the simple list, with readOnly only when asked', async () => {
    const simple = await t.request('GET', '/api/adv/simple', { token: listToken });
    expect(simple.status).toBe(200);
    expect(simple.body.content).toEqual([
      { id: alpha.id, name: 'Alpha' },
      { id: expect.any(String), name: 'Beta' },
      { id: expect.any(String), name: 'Gamma' },
    ]);
    const withInfo = await t.request('GET', `/api/adv/simple?includeReadOnlyInfo=true&search=${encodeURIComponent('name:Alp')}`, {
      token: listToken,
    });
    expect(withInfo.body).toEqual({ content: [{ id: alpha.id, name: 'Alpha', readOnly: false }] });
    const paged = await t.request('GET', '/api/adv/simplePaged?size=2&includeReadOnlyInfo=true', { token: listToken });
    expect(paged.status).toBe(200);
    expect(paged.body).toMatchObject({ totalElements: 3, totalPages: 2, size: 2 });
    expect(paged.body.content[0]).toEqual({ id: alpha.id, name: 'Alpha', readOnly: false });
  });

  it("reads one advertiser; another tenant's id and a malformed id are 404", async () => {
    const one = await t.request('GET', `/api/adv/${alpha.id}`, { token: listToken });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: alpha.id, name: 'Alpha', readOnly: false });
    expect((await t.request('GET', `/api/adv/${alpha.id}`, { token: otherTechnician })).status).toBe(404);
    expect((await t.request('GET', '/api/adv/not-a-uuid', { token: listToken })).status).toBe(404);
  });

  it('lists nothing of another tenant and refuses its customerId', async () => {
    const res = await t.request('GET', '/api/adv', { token: otherTechnician });
    expect(res.body.content.some((a: { id: string }) => a.id === alpha.id)).toBe(false);
    expect((await t.request('GET', `/api/adv?customerId=${customerIdForList}`, { token: otherTechnician })).status).toBe(403);
  });

  it('is VIEWER and above (DEVICE_USER is refused)', async () => {
    const { token } = await t.actor('DEVICE_USER', { customerId: customerIdForList });
    for (const path of [
      '/api/adv',
      '/api/adv/simple',
      '/api/adv/simplePaged',
      `/api/adv/${alpha.id}`,
      `/api/adv/getProofOfPlayLinks?advId=${alpha.id}`,
    ]) {
      expect((await t.request('GET', path, { token })).status, path).toBe(403);
    }
  });

  it('lets an ADMIN read any tenant by id and select one with customerId', async () => {
    const { token } = await t.actor('ADMIN');
    expect((await t.request('GET', `/api/adv/${alpha.id}`, { token })).status).toBe(200);
    const list = await t.request('GET', `/api/adv?customerId=${customerIdForList}`, { token });
    expect(list.body.totalElements).toBe(3);
  });
});

describe('PUT and DELETE /api/adv/{advertiserId}', () => {
  it('changes given fields only, replaces validity, clears with "", and audits', async () => {
    const adv = await created('Before', { comment: 'keep', validity: { timeZone: 'UTC', cron: '0 * * * *' } });
    const res = await t.request('PUT', `/api/adv/${adv.id}`, {
      token: technician,
      json: { name: 'After', enabled: true, comment: null, validity: { fromDate: '2027-01-01' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: adv.id, name: 'After', enabled: true, comment: 'keep', validity: { fromDate: '2027-01-01' } });
    expect(res.body.validity).toEqual({ fromDate: '2027-01-01' });
    const cleared = await t.request('PUT', `/api/adv/${adv.id}`, { token: technician, json: { comment: '', validity: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.comment).toBeUndefined();
    expect(cleared.body.validity).toBeUndefined();
    // Nothing changed: no entry.
    expect((await t.request('PUT', `/api/adv/${adv.id}`, { token: technician, json: { name: 'After' } })).status).toBe(200);
    expect(await auditActions(adv.id)).toEqual(['create', 'update', 'update']);
  });

  it('refuses bad input, a taken name (409) and the role below (403)', async () => {
    const adv = await created('Put target');
    await created('Taken');
    const put = (json: unknown, token = technician) => t.request('PUT', `/api/adv/${adv.id}`, { token, json });
    expect((await put({ name: 'y'.repeat(26) })).status).toBe(400);
    expect((await put({ validity: { timeZone: 'Nowhere/Land' } })).status).toBe(400);
    expect((await put({ validity: { cron: '* * * * * * * *' } })).status).toBe(400);
    expect((await put({ name: 'a\u0000' })).status).toBe(400);
    const taken = await put({ name: 'Taken' });
    expect(taken.status).toBe(409);
    expect(taken.body.key).toBe('advertiser.error.nameExists');
    expect((await put({ name: 'approver' }, approver)).status).toBe(403);
    expect((await put({ name: 'foreign' }, otherTechnician)).status).toBe(404);
  });

  it('deletes (204, audited); another tenant, the role below and a second delete are refused', async () => {
    const adv = await created('Doomed');
    expect((await t.request('DELETE', `/api/adv/${adv.id}`, { token: approver })).status).toBe(403);
    expect((await t.request('DELETE', `/api/adv/${adv.id}`, { token: otherTechnician })).status).toBe(404);
    expect((await t.request('DELETE', `/api/adv/${adv.id}`, { token: technician })).status).toBe(204);
    expect((await t.request('GET', `/api/adv/${adv.id}`, { token: technician })).status).toBe(404);
    expect((await t.request('DELETE', `/api/adv/${adv.id}`, { token: technician })).status).toBe(404);
    expect(await auditActions(adv.id)).toEqual(['create', 'delete']);
  });
});

describe('teams', () => {
  const teamIds: Record<string, string> = {};
  let member: string;

  beforeAll(async () => {
    for (const name of ['Adv T1', 'Adv T2']) {
      const res = await t.request('POST', '/api/team', { token: owner, json: { name } });
      expect(res.status).toBe(201);
      teamIds[name] = res.body.id;
    }
    const m = await t.actor('TECHNICIAN', { customerId });
    member = m.token;
    const put = await t.request('PUT', `/api/team/updateUserAssignments?teamId=${teamIds['Adv T1']}`, {
      token: owner,
      json: { resourcesToAdd: [{ id: m.user.id }] },
    });
    expect(put.status).toBe(200);
  });

  it('assigns with teamIds and updateTeamAssignments (OWNER); members see readOnly and cannot write read-only ones', async () => {
    const ro = await created('Team RO', {}, owner);
    const hidden = await create({ name: 'Team 2 only' }, owner, `?teamIds=${teamIds['Adv T2']}:false`);
    expect(hidden.status).toBe(201);
    const assign = await t.request('POST', `/api/adv/updateTeamAssignments?advertiserId=${ro.id}`, {
      token: owner,
      json: { assignToTeams: [{ teamId: teamIds['Adv T1'], readOnly: true }] },
    });
    expect(assign.status, JSON.stringify(assign.body)).toBe(200);
    expect(assign.body.teams).toEqual([{ id: teamIds['Adv T1'], name: 'Adv T1', readOnly: true }]);
    expect((await t.request('POST', `/api/adv/updateTeamAssignments?advertiserId=${ro.id}`, { token: technician, json: {} })).status).toBe(
      403,
    );
    expect(
      (await t.request('POST', `/api/adv/updateTeamAssignments?advertiserId=${ro.id}`, { token: (await t.actor('OWNER')).token, json: {} }))
        .status,
    ).toBe(404);

    const list = await t.request('GET', '/api/adv?size=1000&select=name,readOnly', { token: member });
    const byName = Object.fromEntries((list.body.content as { name: string; readOnly: boolean }[]).map((a) => [a.name, a.readOnly]));
    expect(byName['Team RO']).toBe(true);
    expect(byName['Team 2 only']).toBeUndefined();
    expect((await t.request('GET', `/api/adv/${ro.id}`, { token: member })).body.readOnly).toBe(true);
    const simple = await t.request('GET', `/api/adv/simple?includeReadOnlyInfo=true&search=${encodeURIComponent('name=Team RO')}`, {
      token: member,
    });
    expect(simple.body.content).toEqual([{ id: ro.id, name: 'Team RO', readOnly: true }]);
    expect((await t.request('GET', `/api/adv/${hidden.body.id}`, { token: member })).status).toBe(404);
    const put = await t.request('PUT', `/api/adv/${ro.id}`, { token: member, json: { name: 'nope' } });
    expect(put.status).toBe(403);
    expect(put.body.key).toBe('team.error.readOnly');
    expect((await t.request('PUT', `/api/adv/enableProofOfPlayLinks?advId=${ro.id}`, { token: member })).status).toBe(403);
    expect((await t.request('GET', `/api/adv/getProofOfPlayLinks?advId=${ro.id}`, { token: member })).body).toEqual({ enabled: false });
    expect((await t.request('DELETE', `/api/adv/${hidden.body.id}`, { token: member })).status).toBe(404);
    // The owner sees it writable; the generic team route lists the assignment.
    expect((await t.request('GET', `/api/adv/${ro.id}`, { token: owner })).body.readOnly).toBe(false);
    const teamList = await t.request('GET', `/api/team/advertiserAssignments?teamId=${teamIds['Adv T1']}`, { token: owner });
    expect(teamList.body).toEqual(expect.arrayContaining([{ id: ro.id, readOnly: true }]));
  });
});

describe('proof-of-play links', () => {
  const exportPath = (url: string) => url.replace('http://localhost', '');
  // A link is published only while its advertiser is enabled.
  const created = (name: string, extra: Record<string, unknown> = {}, token = technician) =>
    createdAdvertiser(name, { enabled: true, ...extra }, token);

  it('enables (TECHNICIAN), answers the URL while enabled, exports the CSV header, rotates and disables', async () => {
    const adv = await created('Links');
    expect((await t.request('GET', `/api/adv/getProofOfPlayLinks?advId=${adv.id}`, { token: viewer })).body).toEqual({ enabled: false });
    expect((await t.request('PUT', `/api/adv/enableProofOfPlayLinks?advId=${adv.id}`, { token: approver })).status).toBe(403);

    const enabled = await t.request('PUT', `/api/adv/enableProofOfPlayLinks?advId=${adv.id}`, { token: technician });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expect(enabled.body.enabled).toBe(true);
    const url = new URL(enabled.body.exportHistoryAsCSV as string);
    expect(url.pathname).toBe('/public-api/adv/proof-of-play/history/export/csv');
    const token = url.searchParams.get('token')!;
    expect(Buffer.from(token, 'base64url').toString()).toMatch(new RegExp(`^${adv.id}:[A-Za-z0-9_-]{43}$`));
    // Only the hash and the sealed secret are stored, never the secret itself.
    const [stored] = await t.db.select().from(advertisers).where(eq(advertisers.id, adv.id));
    const secret = Buffer.from(token, 'base64url').toString().split(':')[1]!;
    expect(JSON.stringify(stored)).not.toContain(secret);

    expect((await t.request('GET', `/api/adv/getProofOfPlayLinks?advId=${adv.id}`, { token: viewer })).body).toEqual(enabled.body);
    expect((await t.request('GET', `/api/adv/${adv.id}`, { token: viewer })).body.proofOfPlayAccessSecretConfigured).toBe(true);

    const csv = await t.app.request(exportPath(url.toString()));
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="proof-of-play-${adv.id}.csv"`);
    expect(await csv.text()).toBe(HEADER);

    // Enabling again rotates the token: the old URL stops working.
    const renewed = await t.request('PUT', `/api/adv/enableProofOfPlayLinks?advId=${adv.id}`, { token: technician });
    expect(renewed.body.exportHistoryAsCSV).not.toBe(enabled.body.exportHistoryAsCSV);
    const old = await t.app.request(exportPath(url.toString()));
    expect(old.status).toBe(401);
    expect(((await old.json()) as { key: string }).key).toBe('proofOfPlay.error.invalidLink');
    expect((await t.app.request(exportPath(renewed.body.exportHistoryAsCSV))).status).toBe(200);

    const disabled = await t.request('PUT', `/api/adv/disableProofOfPlayLinks?advId=${adv.id}`, { token: technician });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toEqual({ enabled: false });
    expect((await t.app.request(exportPath(renewed.body.exportHistoryAsCSV))).status).toBe(401);
    expect((await t.request('GET', `/api/adv/getProofOfPlayLinks?advId=${adv.id}`, { token: viewer })).body).toEqual({ enabled: false });
    expect((await t.request('GET', `/api/adv/${adv.id}`, { token: viewer })).body.proofOfPlayAccessSecretConfigured).toBe(false);
    expect(await auditActions(adv.id)).toEqual(['create', 'enableProofOfPlayLinks', 'enableProofOfPlayLinks', 'disableProofOfPlayLinks']);
  });

  it("answers 404 for another tenant's advertiser and a missing advId (400)", async () => {
    const adv = await created('Foreign links');
    expect((await t.request('PUT', `/api/adv/enableProofOfPlayLinks?advId=${adv.id}`, { token: otherTechnician })).status).toBe(404);
    expect((await t.request('PUT', `/api/adv/disableProofOfPlayLinks?advId=${adv.id}`, { token: otherTechnician })).status).toBe(404);
    expect((await t.request('GET', `/api/adv/getProofOfPlayLinks?advId=${adv.id}`, { token: otherTechnician })).status).toBe(404);
    expect((await t.request('PUT', '/api/adv/enableProofOfPlayLinks', { token: technician })).status).toBe(400);
  });

  it('refuses garbage, tampered and deleted-advertiser tokens (401), a missing token (400), a restricted customer (403)', async () => {
    const adv = await created('Tampered');
    const url = new URL(
      (await t.request('PUT', `/api/adv/enableProofOfPlayLinks?advId=${adv.id}`, { token: technician })).body.exportHistoryAsCSV,
    );
    const token = url.searchParams.get('token')!;
    const [id, secret] = Buffer.from(token, 'base64url').toString().split(':') as [string, string];
    const other = await created('Other links');
    const forged = Buffer.from(`${other.id}:${secret}`).toString('base64url');
    const flipped = Buffer.from(`${id}:${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`).toString('base64url');
    for (const bad of ['garbage', 'AAAA', forged, flipped, `${token}x`, '%00']) {
      const res = await t.app.request(`/public-api/adv/proof-of-play/history/export/csv?token=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBeGreaterThanOrEqual(400);
      expect(res.status, bad).toBeLessThan(500);
      if (bad !== '%00') expect([bad, res.status]).toEqual([bad, 401]);
    }
    expect((await t.app.request('/public-api/adv/proof-of-play/history/export/csv')).status).toBe(400);
    // Standard base64 of the same token works too.
    const standard = Buffer.from(token, 'base64url').toString('base64');
    expect((await t.app.request(`/public-api/adv/proof-of-play/history/export/csv?token=${encodeURIComponent(standard)}`)).status).toBe(
      200,
    );

    const restricted = await t.factories.customer();
    const { token: restrictedTech } = await t.actor('TECHNICIAN', { customerId: restricted.id });
    const radv = await created('Restricted', {}, restrictedTech);
    const rurl = (await t.request('PUT', `/api/adv/enableProofOfPlayLinks?advId=${radv.id}`, { token: restrictedTech })).body
      .exportHistoryAsCSV as string;
    await t.db.update(customers).set({ restricted: true }).where(eq(customers.id, restricted.id));
    expect((await t.app.request(exportPath(rurl))).status).toBe(403);

    expect((await t.request('DELETE', `/api/adv/${adv.id}`, { token: technician })).status).toBe(204);
    expect((await t.app.request(exportPath(url.toString()))).status).toBe(401);
  });

  it('refuses the link of a disabled advertiser (403 proofOfPlay.error.advertiserDisabled) until it is enabled again', async () => {
    const adv = await created('Paused', { enabled: false });
    const url = (await t.request('PUT', `/api/adv/enableProofOfPlayLinks?advId=${adv.id}`, { token: technician })).body
      .exportHistoryAsCSV as string;
    const refused = await t.app.request(exportPath(url));
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { key: string }).key).toBe('proofOfPlay.error.advertiserDisabled');
    const page = await t.app.request(exportPath(url), { headers: { accept: 'text/html' } });
    expect(page.status).toBe(403);
    expect((await t.request('PUT', `/api/adv/${adv.id}`, { token: technician, json: { enabled: true } })).status).toBe(200);
    expect((await t.app.request(exportPath(url))).status).toBe(200);
  });

  it('answers a browser a readable page (totals, by day, by screen, the CSV to download) under a strict policy; a client of the spec still gets the CSV', async () => {
    const adv = await created('Readable <b>Co</b>');
    const url = (await t.request('PUT', `/api/adv/enableProofOfPlayLinks?advId=${adv.id}`, { token: technician })).body
      .exportHistoryAsCSV as string;
    const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const page = await t.app.request(exportPath(url), { headers: browser });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toMatch(/^default-src 'none'; style-src 'nonce-[A-Za-z0-9+/=]+'; /);
    expect(policy).not.toContain('script-src');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).not.toContain('<script');
    // The name is escaped; totals, the two tables' empty states and the download link.
    expect(html).toContain('Readable &lt;b&gt;Co&lt;/b&gt;');
    expect(html).toContain('<dd data-total="plays">0</dd>');
    expect(html).toContain('No plays in this period.');
    const download = /href="([^"]+)"[^>]*download>Download CSV/.exec(html)![1]!.replaceAll('&amp;', '&');
    expect(download).toContain('format=csv');
    const csv = await t.app.request(download, { headers: browser });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await csv.text()).toBe(HEADER);
    // The periods; an unknown one is a 400.
    expect(html).toContain('<strong aria-current="page">30 days</strong>');
    expect((await t.app.request(`${exportPath(url)}&days=7`, { headers: browser })).status).toBe(200);
    expect((await t.app.request(`${exportPath(url)}&days=8`, { headers: browser })).status).toBe(400);
    // Without text/html in Accept (curl, a program written from the spec): the CSV, as before.
    for (const accept of [undefined, '*/*', 'text/csv']) {
      const res = await t.app.request(exportPath(url), { headers: accept ? { accept } : {} });
      expect(res.headers.get('content-type'), accept).toMatch(/^text\/csv/);
    }
  });

  it('limits wrong tokens per address (429 with Retry-After)', async () => {
    let last: Response | undefined;
    for (let i = 0; i < 31; i++) last = await t.app.request('/public-api/adv/proof-of-play/history/export/csv?token=wrong');
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
