import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { createTestContext, type TestContext } from '@/server/test/harness';

const BASE = '/api/alertRuleNotificationChannel';

let t: TestContext;
let customerId: number;
let owner: string;
let technician: string;
let approver: string;
let otherTechnician: string;

beforeAll(async () => {
  t = await createTestContext({ SMS_WEBHOOK_URL: 'https://sms.example.com/send' });
  customerId = (await t.factories.customer()).id;
  owner = (await t.actor('OWNER', { customerId })).token;
  technician = (await t.actor('TECHNICIAN', { customerId })).token;
  approver = (await t.actor('APPROVER', { customerId })).token;
  otherTechnician = (await t.actor('TECHNICIAN')).token;
});
afterAll(() => t.close());

const create = (body: unknown, token = technician, query = '') => t.request('POST', `${BASE}${query}`, { token, json: body });
const email = (name: string, notify = ['ops@example.com']) => ({ name, comment: '', channelType: 'EMAIL', notify });

describe('notification channels (spec 2 "Alert rules, notification channels, alerts")', () => {
  it('creates, reads, lists (search, sort, paging, simple), updates partially and deletes, with audit entries', async () => {
    const a = await create({ name: 'Night shift', comment: 'Pager duty', channelType: 'SMS', notify: ['+4915112345678'] });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body).toEqual({
      id: expect.any(Number),
      name: 'Night shift',
      comment: 'Pager duty',
      channelType: 'SMS',
      notify: ['+4915112345678'],
      customerId,
      enabled: true,
      readOnly: false,
    });
    const b = await create(email('Facility team', ['facility@example.com', 'lead@example.com']));
    expect(b.body).toMatchObject({ comment: '', channelType: 'EMAIL' });

    const page = await t.request('GET', `${BASE}?size=1&page=0`, { token: technician });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ totalElements: 2, content: [{ name: 'Facility team' }] });
    const sorted = await t.request('GET', `${BASE}?sort=name,desc`, { token: technician });
    expect(sorted.body.content.map((c: { name: string }) => c.name)).toEqual(['Night shift', 'Facility team']);
    const searched = await t.request('GET', `${BASE}?search=${encodeURIComponent('name~night')}`, { token: technician });
    expect(searched.body.content.map((c: { id: number }) => c.id)).toEqual([a.body.id]);
    const byType = await t.request('GET', `${BASE}?search=${encodeURIComponent('channelType=EMAIL')}`, { token: technician });
    expect(byType.body.content.map((c: { id: number }) => c.id)).toEqual([b.body.id]);
    const simple = await t.request('GET', `${BASE}/simple`, { token: technician });
    expect(simple.body).toEqual({
      content: [
        { id: b.body.id, name: 'Facility team' },
        { id: a.body.id, name: 'Night shift' },
      ],
    });
    expect((await t.request('GET', `${BASE}/${a.body.id}?select=name`, { token: technician })).body).toEqual({
      id: a.body.id,
      name: 'Night shift',
    });

    // Partial: null and omitted keep their value; an empty comment is a value.
    const put = await t.request('PUT', `${BASE}/${b.body.id}`, {
      token: technician,
      json: { name: null, comment: 'Building A', notify: ['a@example.com'] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ name: 'Facility team', comment: 'Building A', channelType: 'EMAIL', notify: ['a@example.com'] });
    expect((await t.request('PUT', `${BASE}/${b.body.id}`, { token: technician, json: { comment: '' } })).body.comment).toBe('');

    expect((await t.request('DELETE', `${BASE}/${a.body.id}`, { token: technician })).status).toBe(204);
    expect((await t.request('GET', `${BASE}/${a.body.id}`, { token: technician })).status).toBe(404);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'notificationChannel'), eq(auditLog.customerId, customerId)));
    expect(entries.map((e) => e.action).sort()).toEqual(['create', 'create', 'delete', 'update', 'update']);
  });

  it.each([
    ['no comment (spec 1 "Validation" 3)', { name: 'x', channelType: 'EMAIL', notify: ['a@example.com'] }],
    ['a null comment', { name: 'x', comment: null, channelType: 'EMAIL', notify: ['a@example.com'] }],
    ['no name', { comment: '', channelType: 'EMAIL', notify: ['a@example.com'] }],
    ['a blank name', email(' ')],
    ['an unknown type', { name: 'x', comment: '', channelType: 'PIGEON', notify: ['a@example.com'] }],
    ['no recipient', email('x', [])],
    ['a phone number on an EMAIL channel', email('x', ['+4915112345678'])],
    ['an address twice', email('x', ['a@example.com', 'A@example.com'])],
    ['an e-mail address on an SMS channel', { name: 'x', comment: '', channelType: 'SMS', notify: ['a@example.com'] }],
    ['a number without a country code', { name: 'x', comment: '', channelType: 'SMS', notify: ['015112345678'] }],
  ])('refuses %s with 400', async (_, body) => {
    const res = await create(body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
  });

  it('names the offending notify entry of a create and of an update whose type and entries disagree', async () => {
    const res = await create(email('Mixed', ['a@example.com', '+4915112345678']));
    expect(res.body).toMatchObject({ key: 'request.error.invalidCombination', details: { issues: [{ path: 'notify.1' }] } });
    const channel = await create(email('Turns into SMS'));
    // The type changes, the stored entries stay: they must fit the new type.
    const typeOnly = await t.request('PUT', `${BASE}/${channel.body.id}`, { token: technician, json: { channelType: 'SMS' } });
    expect(typeOnly.status).toBe(400);
    expect(typeOnly.body).toMatchObject({ key: 'request.error.invalidCombination', details: { issues: [{ path: 'notify.0' }] } });
    const notifyOnly = await t.request('PUT', `${BASE}/${channel.body.id}`, { token: technician, json: { notify: ['+4915112345678'] } });
    expect(notifyOnly.status).toBe(400);
    const both = await t.request('PUT', `${BASE}/${channel.body.id}`, {
      token: technician,
      json: { channelType: 'SMS', notify: ['+4915112345678'] },
    });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(both.body).toMatchObject({ channelType: 'SMS', notify: ['+4915112345678'] });
  });

  it('keeps names unique in the customer (409), not across customers', async () => {
    await create(email('On call'));
    const twice = await create(email('On call'));
    expect(twice.status).toBe(409);
    expect(twice.body.key).toBe('notificationChannel.error.nameExists');
    const other = await create(email('Off call'));
    const renamed = await t.request('PUT', `${BASE}/${other.body.id}`, { token: technician, json: { name: 'On call' } });
    expect(renamed.status).toBe(409);
    expect(renamed.body.key).toBe('notificationChannel.error.nameExists');
    expect((await create(email('On call'), otherTechnician)).status).toBe(201);
  });

  it('refuses deleting a channel while something references it (the foreign-key hook alert rules will use)', async () => {
    const channel = await create(email('Used by a rule'));
    // A stand-in for the alert rules' channel references (alerts issue): a plain foreign key is the contract.
    await t.db.execute(sql`create table alert_rule_channel_probe (channel_id bigint not null references notification_channel(id))`);
    await t.db.execute(sql`insert into alert_rule_channel_probe values (${channel.body.id})`);
    const refused = await t.request('DELETE', `${BASE}/${channel.body.id}`, { token: technician });
    expect(refused.status).toBe(409);
    expect(refused.body.key).toBe('notificationChannel.error.inUse');
    expect((await t.request('GET', `${BASE}/${channel.body.id}`, { token: technician })).status).toBe(200);
    await t.db.execute(sql`drop table alert_rule_channel_probe`);
    expect((await t.request('DELETE', `${BASE}/${channel.body.id}`, { token: technician })).status).toBe(204);
  });

  it('needs TECHNICIAN for every operation; another tenant sees a 404', async () => {
    const mine = await create(email('Technicians only'));
    expect((await create(email('By an approver'), approver)).status).toBe(403);
    for (const [method, path] of [
      ['GET', BASE],
      ['GET', `${BASE}/simple`],
      ['GET', `${BASE}/${mine.body.id}`],
      ['PUT', `${BASE}/${mine.body.id}`],
      ['DELETE', `${BASE}/${mine.body.id}`],
    ] as const) {
      expect((await t.request(method, path, { token: approver, json: method === 'PUT' ? { comment: 'x' } : undefined })).status, path).toBe(
        403,
      );
    }
    for (const [method, json] of [
      ['GET', undefined],
      ['PUT', { name: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      expect((await t.request(method, `${BASE}/${mine.body.id}`, { token: otherTechnician, json })).status).toBe(404);
    }
    const theirs = await t.request('GET', `${BASE}/simple`, { token: otherTechnician });
    expect(theirs.body.content.map((c: { id: number }) => c.id)).not.toContain(mine.body.id);
  });

  it("applies team visibility: a member sees only its teams' channels and cannot write read-only ones", async () => {
    const team = (await t.request('POST', '/api/team', { token: owner, json: { name: 'Facility' } })).body.id as string;
    const otherTeam = (await t.request('POST', '/api/team', { token: owner, json: { name: 'IT' } })).body.id as string;
    const member = await t.actor('TECHNICIAN', { customerId });
    const joined = await t.request('PUT', `/api/team/updateUserAssignments?teamId=${team}`, {
      token: owner,
      json: { resourcesToAdd: [{ id: member.user.id }] },
    });
    expect(joined.status).toBe(200);
    const ro = await create(email('Read-only for facility'), owner, `?teamIds=${team}:true`);
    const hidden = await create(email('IT only'), owner, `?teamIds=${otherTeam}:false`);
    expect((await t.request('GET', `${BASE}/${hidden.body.id}`, { token: member.token })).status).toBe(404);
    const simple = (await t.request('GET', `${BASE}/simple`, { token: member.token })).body.content as { id: number }[];
    expect(simple.map((c) => c.id)).toContain(ro.body.id);
    expect(simple.map((c) => c.id)).not.toContain(hidden.body.id);
    expect((await t.request('GET', `${BASE}/${ro.body.id}`, { token: member.token })).body).toMatchObject({ readOnly: true });
    const refused = await t.request('PUT', `${BASE}/${ro.body.id}`, { token: member.token, json: { comment: 'x' } });
    expect(refused.status).toBe(403);
    expect(refused.body.key).toBe('team.error.readOnly');
    const assignments = await t.request('GET', `/api/team/notificationChannelAssignments?teamId=${team}`, { token: owner });
    expect(assignments.status, JSON.stringify(assignments.body)).toBe(200);
    expect(assignments.body).toEqual([expect.objectContaining({ id: String(ro.body.id), readOnly: true })]);
  });
});

describe('notification channels without SMS delivery configured', () => {
  let plain: TestContext;
  beforeAll(async () => {
    plain = await createTestContext();
  });
  afterAll(() => plain.close());

  it('refuses SMS channels with 400 naming the setting, and changing a channel to SMS', async () => {
    const token = (await plain.actor('TECHNICIAN')).token;
    const sms = await plain.request('POST', BASE, {
      token,
      json: { name: 'SMS', comment: '', channelType: 'SMS', notify: ['+4915112345678'] },
    });
    expect(sms.status).toBe(400);
    expect(sms.body).toMatchObject({ key: 'notificationChannel.error.smsNotConfigured', details: { setting: 'SMS_WEBHOOK_URL' } });
    const mail = await plain.request('POST', BASE, { token, json: email('Mail') });
    expect(mail.status).toBe(201);
    const changed = await plain.request('PUT', `${BASE}/${mail.body.id}`, {
      token,
      json: { channelType: 'SMS', notify: ['+4915112345678'] },
    });
    expect(changed.status).toBe(400);
    expect(changed.body.key).toBe('notificationChannel.error.smsNotConfigured');
  });

  it('the same create twice at once: one channel and one 409; a NUL character and another tenant in the query or body are refused', async () => {
    const [first, second] = await Promise.all([create(email('Twice at once')), create(email('Twice at once'))]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    const listed = await t.request('GET', `${BASE}?search=${encodeURIComponent('name=Twice at once')}`, { token: technician });
    expect(listed.body.totalElements).toBe(1);

    expect((await create(email('Bad\u0000name'))).status).toBe(400);
    expect((await create(email('Nul in notify', ['ops\u0000@example.com']))).status).toBe(400);

    const other = await t.factories.customer();
    expect((await create(email('Elsewhere'), technician, `?customerId=${other.id}`)).status).toBe(403);
    const withCustomer = await create({ ...email('Body tenant'), customerId: other.id });
    if (withCustomer.status === 201) expect(withCustomer.body.customerId).toBe(customerId);
    else expect(withCustomer.status).toBe(400);
  });
});
