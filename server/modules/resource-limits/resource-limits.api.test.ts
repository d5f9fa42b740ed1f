import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '@/server/db/transaction';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { customers } from '@/server/tenant/customers.table';
import { teams } from '@/server/modules/teams/teams.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { assertWithinLimit } from './resource-limits.check';
import { resourceLimitConfig } from './resource-limits.table';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestContext();
  admin = (await t.actor('ADMIN')).token;
});
afterAll(() => t.close());

const batch = (configUpdates: Array<{ name: string; value: string }>) =>
  t.request('PUT', '/api/config/batch', { token: admin, json: { configUpdates } });
const limitsOf = async (token: string, customerId?: number) =>
  (await t.request('GET', `/api/customer/resourceLimits${customerId ? `?customerId=${customerId}` : ''}`, { token })).body as Array<{
    resource: string;
    limit: number;
    used: number;
  }>;
const row = (rows: Array<{ resource: string }>, resource: string) => rows.find((r) => r.resource === resource);

describe('GET /api/config/limits', () => {
  it('lists every resource per tier with defaults, maxima and editability', async () => {
    const res = await t.request('GET', '/api/config/limits', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(11 * 3);
    const user = res.body.filter((r: { resource: string }) => r.resource === 'USER');
    expect(user).toEqual([
      { resource: 'USER', tier: 'STARTER', limit: 5, defaultLimit: 5, maxLimit: 100000, editable: true },
      { resource: 'USER', tier: 'BUSINESS', limit: 50, defaultLimit: 50, maxLimit: 100000, editable: true },
      { resource: 'USER', tier: 'ENTERPRISE', limit: 50, defaultLimit: 50, maxLimit: 100000, editable: false },
    ]);
    for (const key of [
      'WEBHOOK',
      'DEVICE_PROFILE',
      'DATASOURCE',
      'CAMPAIGN',
      'ALERT_RULE',
      'QUICK_FILTER',
      'ADVERTISER',
      'UI_PROFILE',
      'TEAM',
      'API_KEY',
    ]) {
      expect(res.body.some((r: { resource: string }) => r.resource === key)).toBe(true);
    }
  });

  it('is ADMIN only', async () => {
    const { token } = await t.actor('OWNER');
    expect((await t.request('GET', '/api/config/limits', { token })).status).toBe(403);
  });
});

describe('PUT /api/config/batch and DELETE /api/config/limits/batch', () => {
  it('sets limits (ENTERPRISE follows BUSINESS), audits, and resets to defaults', async () => {
    const res = await batch([
      { name: 'config.limit.DATASOURCE.BUSINESS', value: '42' },
      { name: 'config.limit.DATASOURCE.STARTER', value: '0' },
    ]);
    expect(res.status).toBe(200);
    const ds = res.body
      .filter((r: { resource: string }) => r.resource === 'DATASOURCE')
      .map((r: { tier: string; limit: number }) => [r.tier, r.limit]);
    expect(ds).toEqual([
      ['STARTER', 0],
      ['BUSINESS', 42],
      ['ENTERPRISE', 42],
    ]);
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.entityType, 'config'));
    expect(entries.at(-1)!.message).toContain('DATASOURCE.BUSINESS=42');
    const reset = await t.request(
      'DELETE',
      '/api/config/limits/batch?keys=config.limit.DATASOURCE.BUSINESS,config.limit.DATASOURCE.STARTER',
      { token: admin },
    );
    expect(reset.status).toBe(204);
    const after = (await t.request('GET', '/api/config/limits', { token: admin })).body.filter(
      (r: { resource: string }) => r.resource === 'DATASOURCE',
    );
    expect(after.map((r: { limit: number; defaultLimit: number }) => r.limit === r.defaultLimit)).toEqual([true, true, true]);
  });

  it.each([
    ['config.limit.NOPE.BUSINESS', '1', 'config.error.unknownName'],
    ['config.limit.USER.GOLD', '1', 'config.error.unknownName'],
    ['config.limit.USER.business', '1', 'config.error.unknownName'],
    ['something.else', '1', 'config.error.unknownName'],
    ['config.limit.USER.ENTERPRISE', '1', 'config.error.notEditable'],
    ['config.limit.USER.BUSINESS', '-1', 'config.error.invalidValue'],
    ['config.limit.USER.BUSINESS', '1.5', 'config.error.invalidValue'],
    ['config.limit.USER.BUSINESS', 'ten', 'config.error.invalidValue'],
    ['config.limit.USER.BUSINESS', '100001', 'config.error.invalidValue'],
  ])('%s = %s → 400 %s, and nothing of the batch is applied', async (name, value, key) => {
    const res = await batch([
      { name: 'config.limit.TEAM.BUSINESS', value: '3' },
      { name, value },
    ]);
    expect(res).toMatchObject({ status: 400, body: { key } });
    expect(await t.db.select().from(resourceLimitConfig).where(eq(resourceLimitConfig.resource, 'TEAM'))).toEqual([]);
  });

  it('an empty or malformed body and a bad reset key are 400', async () => {
    expect((await batch([])).status).toBe(400);
    expect(
      (
        await t.request('PUT', '/api/config/batch', {
          token: admin,
          json: { configUpdates: [{ name: 'config.limit.USER.BUSINESS', value: 5 }] },
        })
      ).status,
    ).toBe(400);
    expect((await t.request('DELETE', '/api/config/limits/batch?keys=config.limit.X.Y', { token: admin })).status).toBe(400);
    expect((await t.request('DELETE', '/api/config/limits/batch?keys=config.limit.USER.starter', { token: admin })).status).toBe(400);
    expect((await t.request('DELETE', '/api/config/limits/batch', { token: admin })).status).toBe(400);
  });
});

describe('GET /api/customer/resourceLimits', () => {
  it("answers the effective limit and usage per resource of the caller's own customer", async () => {
    const c = await t.factories.customer({ licenseTier: 'STARTER' });
    const { token } = await t.actor('VIEWER', { customerId: c.id });
    await t.factories.user({ customerId: c.id });
    await t.db.insert(teams).values({ id: uuidv7(), customerId: c.id, name: 'T' });
    const rows = await limitsOf(token);
    expect(rows).toHaveLength(11);
    expect(row(rows, 'USER')).toEqual({ resource: 'USER', limit: 5, used: 2 });
    expect(row(rows, 'TEAM')).toEqual({ resource: 'TEAM', limit: 0, used: 1 });
    expect(row(rows, 'WEBHOOK')).toEqual({ resource: 'WEBHOOK', limit: 0, used: 0 });
  });

  it('ENTERPRISE: overrides apply, an omitted key inherits the current BUSINESS limit', async () => {
    const c = await t.factories.customer({ licenseTier: 'ENTERPRISE', resourceLimits: { overrides: { USER: 3 } } });
    await batch([{ name: 'config.limit.TEAM.BUSINESS', value: '9' }]);
    const rows = await limitsOf(admin, c.id);
    expect(row(rows, 'USER')).toMatchObject({ limit: 3 });
    expect(row(rows, 'TEAM')).toMatchObject({ limit: 9 });
    expect(row(rows, 'CAMPAIGN')).toMatchObject({ limit: 200 });
    // Overrides do not apply to other tiers.
    await t.db.update(customers).set({ licenseTier: 'BUSINESS' }).where(eq(customers.id, c.id));
    expect(row(await limitsOf(admin, c.id), 'USER')).toMatchObject({ limit: 50 });
    await t.request('DELETE', '/api/config/limits/batch?keys=config.limit.TEAM.BUSINESS', { token: admin });
  });

  it("another tenant's customerId is 403", async () => {
    const { token } = await t.actor('VIEWER');
    const other = await t.factories.customer();
    expect((await t.request('GET', `/api/customer/resourceLimits?customerId=${other.id}`, { token })).status).toBe(403);
  });
});

describe('assertWithinLimit', () => {
  it("a limit of 0 blocks creation with the spec's error shape", async () => {
    const c = await t.factories.customer({ licenseTier: 'STARTER' });
    const err = await withTransaction(t.db, (tx) => assertWithinLimit(tx, c.id, 'TEAM')).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, key: 'resourceLimit.error.limitReached', details: { resource: 'TEAM', used: 0, limit: 0 } });
  });

  it('20 parallel creations against a limit of 5 create exactly 5', async () => {
    const c = await t.factories.customer({ licenseTier: 'ENTERPRISE', resourceLimits: { overrides: { TEAM: 5 } } });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        withTransaction(t.db, async (tx) => {
          await assertWithinLimit(tx, c.id, 'TEAM');
          await tx.insert(teams).values({ id: uuidv7(), customerId: c.id, name: `Team ${i}` });
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(15);
    for (const r of rejected)
      expect(r.reason).toMatchObject({ key: 'resourceLimit.error.limitReached', details: { resource: 'TEAM', used: 5, limit: 5 } });
    expect(await t.db.select().from(teams).where(eq(teams.customerId, c.id))).toHaveLength(5);
  });
});
