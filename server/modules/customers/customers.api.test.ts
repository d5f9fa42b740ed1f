import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { CustomerSchema } from './customers.schemas';
import { customers } from '@/server/tenant/customers.table';

let t: TestContext;
let admin: { token: string; userId: string; email: string };
beforeAll(async () => {
  t = await createTestContext();
  const { user, token } = await t.actor('ADMIN');
  admin = { token, userId: user.id, email: user.email };
});
afterAll(() => t.close());

const unique = (prefix: string) => `${prefix} ${Date.now()} ${Math.random().toString(36).slice(2, 8)}`;
const auditFor = (name: string) => t.db.select().from(auditLog).where(eq(auditLog.entityName, name));
const customersNamed = (name: string) => t.db.select().from(customers).where(eq(customers.name, name));

describe('POST /api/customer', () => {
  it('ADMIN creates a customer: 201 with the entity as a read answers it', async () => {
    const name = unique('Acme');
    const res = await t.request('POST', '/api/customer', {
      token: admin.token,
      json: { name, licenseTier: 'BUSINESS', vertical: 'RETAIL', comment: 'first', country: 'DE', location: 'Berlin', type: 'shop' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      name,
      licenseTier: 'BUSINESS',
      vertical: 'RETAIL',
      comment: 'first',
      country: 'DE',
      location: 'Berlin',
      type: 'shop',
      restricted: false,
    });
    expect(new Date(res.body.createdDate).toISOString()).toBe(res.body.createdDate);
    expect(CustomerSchema.strict().safeParse(res.body).success).toBe(true);
    const [row] = await customersNamed(name);
    expect(row?.id).toBe(res.body.id);
    const read = await t.request('GET', `/api/customer/select?search=${encodeURIComponent(`id=${res.body.id}`)}`, { token: admin.token });
    expect(read.body.content).toEqual([res.body]);
  });

  it('defaults licenseTier to ENTERPRISE and omits unset attributes', async () => {
    const name = unique('Defaults');
    const res = await t.request('POST', '/api/customer', { token: admin.token, json: { name } });
    expect(res.status).toBe(201);
    expect(res.body.licenseTier).toBe('ENTERPRISE');
    for (const absent of ['comment', 'country', 'vertical', 'expirationDate', 'ownerSubresellerId', 'subreseller'])
      expect(res.body).not.toHaveProperty(absent);
  });

  it('trims the name', async () => {
    const name = unique('Trimmed');
    const res = await t.request('POST', '/api/customer', { token: admin.token, json: { name: `  ${name}  ` } });
    expect(res.body.name).toBe(name);
  });

  it('ignores attributes that are not part of the create body (no mass assignment)', async () => {
    const owner = await t.factories.customer({ isSubreseller: true });
    const name = unique('Sneaky');
    const res = await t.request('POST', '/api/customer', {
      token: admin.token,
      json: {
        name,
        id: 999999,
        isSubreseller: true,
        subresellerSince: new Date().toISOString(),
        restricted: true,
        isSubresellerOf: owner.id,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe(999999);
    expect(res.body).not.toHaveProperty('subreseller');
    expect(res.body).not.toHaveProperty('ownerSubresellerId');
    expect(res.body).toMatchObject({ restricted: false });
  });

  it('writes an audit entry with the name, the author and the request id', async () => {
    const name = unique('Audited');
    const res = await t.request('POST', '/api/customer', {
      token: admin.token,
      json: { name, comment: 'c' },
      headers: { 'x-request-id': 'audit-req-1' },
    });
    expect(res.status).toBe(201);
    const entries = await auditFor(name);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'create',
      entityType: 'customer',
      entityId: String(res.body.id),
      entityName: name,
      customerId: res.body.id,
      customerName: name,
      userId: admin.userId,
      userEmail: admin.email,
      requestId: 'audit-req-1',
      logLevel: 'INFO',
    });
    expect(entries[0]!.message).toContain(name);
    // The tier in the console's words, not its code (issue 28 item 11).
    expect(entries[0]!.message).toMatch(/\((Essential|Business|Enterprise)\)$/);
    expect(entries[0]!.message.length).toBeLessThanOrEqual(500);
  });

  it.each(['OWNER', 'TECHNICIAN', 'VIEWER'] as const)('%s → 403, nothing created and nothing audited', async (role) => {
    const { token } = await t.actor(role);
    const name = unique(`Refused ${role}`);
    const res = await t.request('POST', '/api/customer', { token, json: { name } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ status: 403, key: 'auth.error.roleRequired' });
    expect(await customersNamed(name)).toEqual([]);
    expect(await auditFor(name)).toEqual([]);
  });

  it('a duplicate name → 409 customer.error.nameExists, and only the first is audited', async () => {
    const name = unique('Twice');
    expect((await t.request('POST', '/api/customer', { token: admin.token, json: { name } })).status).toBe(201);
    const res = await t.request('POST', '/api/customer', { token: admin.token, json: { name, comment: 'second' } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 409, key: 'customer.error.nameExists' });
    expect(await customersNamed(name)).toHaveLength(1);
    expect(await auditFor(name)).toHaveLength(1);
  });

  it('an invalid body → 400, nothing audited', async () => {
    const res = await t.request('POST', '/api/customer', { token: admin.token, json: { name: 'x'.repeat(256) } });
    expect(res.status).toBe(400);
    expect(res.body.key).toBe('request.error.invalid');
    expect(await auditFor('x'.repeat(256))).toEqual([]);
  });
});

describe('transactional audit (DECISIONS §7)', () => {
  // Test-only triggers on this test's own database make a write fail at a chosen point.
  beforeAll(async () => {
    await t.db.execute(sql`
      create or replace function test_fail_customer() returns trigger language plpgsql as $$
      begin
        if new.name like 'FailAtCommit%' then raise exception 'test: refused at commit (secret trigger detail)'; end if;
        return new;
      end $$`);
    await t.db.execute(sql`
      create constraint trigger test_fail_customer_commit after insert on customer
      deferrable initially deferred for each row execute function test_fail_customer()`);
    await t.db.execute(sql`
      create or replace function test_fail_audit() returns trigger language plpgsql as $$
      begin
        if new.entity_name like 'FailAudit%' then raise exception 'test: audit refused'; end if;
        return new;
      end $$`);
    await t.db.execute(
      sql`create trigger test_fail_audit_insert before insert on audit_log for each row execute function test_fail_audit()`,
    );
  });

  it('when the write fails at commit (after the audit entry was written), no audit entry remains', async () => {
    const name = unique('FailAtCommit');
    const res = await t.request('POST', '/api/customer', { token: admin.token, json: { name } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ status: 500, key: 'server.error.internal', message: 'Internal server error' });
    expect(await customersNamed(name)).toEqual([]);
    expect(await auditFor(name)).toEqual([]);
  });

  it('when the audit entry cannot be written, the customer is not created', async () => {
    const name = unique('FailAudit');
    const res = await t.request('POST', '/api/customer', { token: admin.token, json: { name } });
    expect(res.status).toBe(500);
    expect(await customersNamed(name)).toEqual([]);
  });

  it('the connection is usable afterwards', async () => {
    const name = unique('After failure');
    expect((await t.request('POST', '/api/customer', { token: admin.token, json: { name } })).status).toBe(201);
    expect(await auditFor(name)).toHaveLength(1);
  });
});
