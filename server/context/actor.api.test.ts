import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTenantScope, targetCustomerId } from '@/server/auth/tenant-scope';
import type { AppEnv } from '@/server/http/context';
import { serviceContext } from '@/server/http/service-context';
import { createLogger } from '@/server/logger';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { CLEANUP_OUTDATED_JOB, cleanupOutdatedFiles } from '@/server/modules/file-folders/file-folders.jobs';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { quickFilters } from '@/server/modules/quick-filters/quick-filters.table';
import { teamAccessCondition, teamVisibilityCondition } from '@/server/modules/teams/team-visibility';
import { teamAssignments, teams } from '@/server/modules/teams/teams.table';
import { files } from '@/server/modules/files/files.table';
import { insertFile, rootFolderOf } from '@/server/modules/files/files.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { actorHasRole, systemActor, type Actor, type ApiKeyActor, type DeviceActor, type UserActor } from './actor';
import { roles } from './roles';

/** How the shared rules (tenant scope, roles, teams, audit) treat each kind of caller. */

let t: TestContext;
let customerId: number;
let otherCustomerId: number;

const device = (customer: number): DeviceActor => ({
  kind: 'device',
  deviceId: uuidv7(),
  deviceName: 'Lobby',
  customerId: customer,
  customerName: 'c',
});
const apiKey = (customer: number, restricted: boolean, id = uuidv7()): ApiKeyActor => ({
  kind: 'apiKey',
  apiKeyId: id,
  name: 'Doorbell',
  customerId: customer,
  customerName: 'c',
  scopes: ['WEBHOOK_CALL'],
  restricted,
});
const user = (customer: number, role: UserActor['role']): UserActor => ({
  kind: 'user',
  userId: uuidv7(),
  email: 'u@example.com',
  name: 'u',
  role,
  customerId: customer,
  customerName: 'c',
  isNetworkOwner: false,
  isRestrictedUser: false,
  tokenFamilyId: 'f',
  via: 'bearer',
});

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  otherCustomerId = (await t.factories.customer()).id;
});
afterAll(() => t.close());

describe('roles', () => {
  it('a user has its role and those below; the system every role; devices and API keys none', () => {
    for (const role of roles) {
      expect(actorHasRole(user(customerId, 'EDITOR'), role)).toBe(roles.indexOf(role) <= roles.indexOf('EDITOR'));
      expect(actorHasRole(systemActor('job'), role)).toBe(true);
      expect(actorHasRole(device(customerId), role)).toBe(false);
      expect(actorHasRole(apiKey(customerId, false), role)).toBe(false);
    }
  });

  it('routes for users refuse any other caller with 401, as an unknown token', async () => {
    const app = new Hono<AppEnv>();
    app.onError((err, c) =>
      c.json({ status: (err as { status?: number }).status ?? 500 }, ((err as { status?: number }).status ?? 500) as 401),
    );
    const callers: Actor[] = [device(customerId), apiKey(customerId, false), systemActor('job'), user(customerId, 'VIEWER')];
    for (const actor of callers) {
      app.get(`/${actor.kind}`, (c) => {
        c.set('actor', actor);
        c.set('deps', { db: t.db, config: t.config, storage: t.storage, log: createLogger('silent'), ready: async () => true });
        serviceContext(c);

        return c.text('served');
      });
    }
    for (const actor of callers) expect((await app.request(`/${actor.kind}`)).status, actor.kind).toBe(actor.kind === 'user' ? 200 : 401);
  });
});

describe('tenant scope', () => {
  it('a device and an API key act in their own customer only', async () => {
    for (const actor of [device(customerId), apiKey(customerId, true)]) {
      await expect(resolveTenantScope(t.db, actor, undefined)).resolves.toEqual({ kind: 'customer', customerId, explicit: false });
      await expect(resolveTenantScope(t.db, actor, customerId)).resolves.toEqual({ kind: 'customer', customerId, explicit: true });
      await expect(resolveTenantScope(t.db, actor, otherCustomerId)).rejects.toMatchObject({
        status: 403,
        key: 'auth.error.tenantForbidden',
      });
      await expect(resolveTenantScope(t.db, actor, -1)).rejects.toMatchObject({ status: 403, key: 'auth.error.tenantForbidden' });
    }
  });

  it("never gives a device or an API key of a network owner's customer the network", async () => {
    const owner = await t.factories.customer({ isSubreseller: true, subresellerSince: new Date() });
    const member = await t.factories.customer({ ownerSubresellerId: owner.id });
    for (const actor of [device(owner.id), apiKey(owner.id, false)]) {
      await expect(resolveTenantScope(t.db, actor, undefined)).resolves.toEqual({
        kind: 'customer',
        customerId: owner.id,
        explicit: false,
      });
      await expect(resolveTenantScope(t.db, actor, member.id)).rejects.toMatchObject({ status: 403 });
    }
  });

  it('the system sees every tenant unless it names one, and a write must name one', async () => {
    const system = systemActor('job');
    const all = await resolveTenantScope(t.db, system, undefined);
    expect(all).toEqual({ kind: 'all' });
    await expect(resolveTenantScope(t.db, system, otherCustomerId)).resolves.toEqual({
      kind: 'customer',
      customerId: otherCustomerId,
      explicit: true,
    });
    expect(targetCustomerId({ kind: 'customer', customerId, explicit: true }, system)).toBe(customerId);
    expect(() => targetCustomerId(all, system)).toThrow(expect.objectContaining({ status: 400, key: 'request.error.customerIdRequired' }));
    expect(targetCustomerId({ kind: 'all' }, device(customerId))).toBe(customerId);
  });
});

describe('teams', () => {
  it('an API key sees through its own team assignments; a device and the system see the whole tenant', async () => {
    const keyId = uuidv7();
    const teamId = uuidv7();
    await t.db.insert(teams).values({ id: teamId, customerId, name: `keys ${teamId}` });
    const filter = async (name: string) => {
      const id = uuidv7();
      await t.db.insert(quickFilters).values({ id, customerId, name, filteredEntityType: 'FILE', criteria: { type: 'FILE' } });

      return id;
    };
    const inTeam = await filter('tv-in-team');
    await filter('tv-team-less');
    await t.db.insert(teamAssignments).values([
      { teamId, resourceType: 'webhookApiKey', resourceId: keyId, readOnly: false, customerId },
      { teamId, resourceType: 'quickFilter', resourceId: inTeam, readOnly: false, customerId },
    ]);
    const where = (actor: Actor) => teamAccessCondition({ actor }, 'quickFilter', quickFilters.id);
    const names = async (actor: Actor) => {
      const rows = await t.db
        .select({ name: quickFilters.name })
        .from(quickFilters)
        .where(and(eq(quickFilters.customerId, customerId), where(actor)));

      return rows
        .map((r) => r.name)
        .filter((n) => n.startsWith('tv-'))
        .sort();
    };

    // Restricted: only its teams' resources. Unrestricted member: its teams' and the team-less ones (customer default).
    expect(await names(apiKey(customerId, true, keyId))).toEqual(['tv-in-team']);
    expect(await names(apiKey(customerId, false, keyId))).toEqual(['tv-in-team', 'tv-team-less']);
    // A key in no team, restricted, sees nothing.
    expect(await names(apiKey(customerId, true))).toEqual([]);
    for (const above of [device(customerId), systemActor('job')]) {
      expect(where(above)).toBeUndefined();
      expect(teamVisibilityCondition({ actor: above }, 'quickFilter', quickFilters.id)).toBeUndefined();
      expect(await names(above)).toEqual(['tv-in-team', 'tv-team-less']);
    }
  });
});

describe('audit', () => {
  it('an entry written by a job names the job, in the table and through GET /api/v2/log', async () => {
    const customer = await t.factories.customer({ name: `Jobs ${uuidv7()}` });
    const root = await rootFolderOf(t.db, customer.id);
    await t.db.update(fileFolders).set({ cleanupOutdatedFiles: true }).where(eq(fileFolders.id, root.id));
    await insertFile(t.db, root, { validTo: new Date(Date.now() - 60_000) });
    expect(await cleanupOutdatedFiles(t.db)).toBeGreaterThanOrEqual(1);
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.customerId, customer.id));
    expect(entry).toMatchObject({
      action: 'cleanupOutdatedFiles',
      actorKind: 'system',
      actorName: CLEANUP_OUTDATED_JOB,
      userId: null,
      userEmail: null,
    });
    const { token } = await t.actor('OWNER', { customerId: customer.id });
    const res = await t.request('GET', '/api/v2/log', { token });
    expect(res.body.content).toContainEqual(expect.objectContaining({ actorKind: 'system', actorName: CLEANUP_OUTDATED_JOB }));
    expect(await t.db.select().from(files).where(eq(files.customerId, customer.id))).toEqual([]);
  });

  it('an entry written by a signed-in user names the user', async () => {
    const { user: owner, token } = await t.actor('OWNER');
    expect((await t.request('POST', '/api/team', { token, json: { name: `audited ${uuidv7()}` } })).status).toBe(201);
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.customerId, owner.customerId));
    expect(entry).toMatchObject({ actorKind: 'user', actorName: null, userId: owner.id, userEmail: owner.email });
  });
});
