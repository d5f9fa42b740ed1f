import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyActor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { customerScope } from '@/server/context/tenant-scope';
import { withTransaction } from '@/server/db/transaction';
import { createLogger } from '@/server/logger';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { deviceChangeListeners, type DeviceChange } from '@/server/modules/devices/device-changes';
import { runCampaignAction, type CampaignActionChange, type CampaignActionTarget } from './index';
import { campaignsTestKit, type CampaignsTestKit } from './campaigns.test-kit';
import { campaigns } from './campaigns.table';

/*
 * Webhook campaign actions (spec 3 "Webhook action", spec 5 §4) called as the lead's executor calls them: with a
 * webhook API key's actor, inside an open transaction.
 */

let k: CampaignsTestKit;
let contentId: string;
const heard: DeviceChange[] = [];
let stopListening: () => void;

beforeAll(async () => {
  k = await campaignsTestKit();
  contentId = (await k.own.content()).id;
  stopListening = deviceChangeListeners.add({ name: 'campaign-actions-test', changed: async (_tx, change) => void heard.push(change) });
});
afterAll(async () => {
  stopListening();
  await k.t.close();
});

function keyActor(input: { restricted?: boolean; id?: string; customerId?: number } = {}): ApiKeyActor {
  return {
    kind: 'apiKey',
    apiKeyId: input.id ?? uuidv7(),
    name: 'Doorbell',
    customerId: input.customerId ?? k.customerId,
    customerName: 'Test customer',
    scopes: ['WEBHOOK_CALL'],
    restricted: input.restricted ?? false,
  };
}

/** The action as the executor runs it: the key's actor, `ctx.db` an open transaction. */
function run(target: CampaignActionTarget, change: CampaignActionChange, actor: ApiKeyActor = keyActor()) {
  return withTransaction(k.t.db, (tx) => {
    const ctx: ServiceContext<ApiKeyActor> = {
      db: tx,
      config: k.t.config,
      storage: k.t.storage,
      actor,
      scope: customerScope(actor.customerId),
      requestId: 'webhook-test',
      log: createLogger('silent'),
      proof: {},
    };

    return runCampaignAction(ctx, { target, change });
  });
}

const ids = (...campaignIds: (number | string)[]): CampaignActionTarget => ({ kind: 'campaigns', campaignIds: campaignIds.map(String) });
const tagged = (...tags: string[]): CampaignActionTarget => ({ kind: 'tags', tags });

async function read(id: number): Promise<Record<string, any>> {
  const res = await k.t.request('GET', `/api/v2/campaign/${id}?select=enabled,saturation,weight,lastSavedAt,lastSavedByEmail`, {
    token: k.owner,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return res.body;
}

async function channel(extra: Record<string, unknown> = {}, deviceGroupIds?: string[]): Promise<number> {
  // As the owner: it may give a campaign any team.
  return (await k.create(k.contentChannel(contentId, extra, deviceGroupIds), k.owner)).id as number;
}

/** The device ids told since `from`. */
const toldSince = (from: number) => [...new Set(heard.slice(from).flatMap((c) => c.deviceIds))].sort();

describe('campaign actions by id', () => {
  it('disable and enable the named campaigns as a console save would: read, screens told, audit naming the key', async () => {
    const folder = await k.own.deviceFolder(`Hall ${uuidv7().slice(-6)}`);
    const screen = await k.own.device('hall screen', folder);
    const first = await channel({}, [folder.id]);
    const second = await channel({ enabled: false }, [folder.id]);
    const before = await read(first);
    expect(before.lastSavedByEmail).toEqual(expect.stringContaining('@'));

    let mark = heard.length;
    expect(await run(ids(first, second), { enabled: false })).toEqual({
      affected: 1,
      detail: '1 campaign disabled; left as they were: 1 already disabled',
    });
    // Saved now, by the key: no user's e-mail any more.
    const after = await read(first);
    expect(after).toMatchObject({ enabled: false });
    expect(after.lastSavedAt).toBeGreaterThanOrEqual(before.lastSavedAt);
    expect(after.lastSavedByEmail ?? null).toBeNull();
    expect(toldSince(mark)).toEqual([screen.id]);
    expect(heard.at(-1)).toMatchObject({ customerId: k.customerId, kind: 'settings' });

    mark = heard.length;
    expect(await run(ids(first, second), { enabled: true })).toMatchObject({ affected: 2 });
    expect(await read(first)).toMatchObject({ enabled: true });
    expect(await read(second)).toMatchObject({ enabled: true });
    expect(toldSince(mark)).toEqual([screen.id]);

    // Nothing to change: nothing written, no screen told.
    mark = heard.length;
    expect(await run(ids(first), { enabled: true })).toEqual({
      affected: 0,
      detail: '0 campaigns enabled; left as they were: 1 already enabled',
    });
    expect(toldSince(mark)).toEqual([]);

    const entries = await k.t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'campaign'), eq(auditLog.entityId, String(second))));
    const byKey = entries.filter((e) => e.actorKind === 'apiKey');
    expect(byKey.map((e) => e.message)).toEqual([expect.stringMatching(/^Channel '.*' enabled$/)]);
    expect(byKey[0]).toMatchObject({ actorName: 'Doorbell', action: 'update', customerId: k.customerId, userId: null });
    expect(byKey[0]!.changes).toEqual({ fields: ['enabled'], enabled: { from: false, to: true } });
  });

  it('set saturation and priority (the weight) within the bounds of the campaign update', async () => {
    const id = await channel({ saturation: 1, weight: 10 });
    expect(await run(ids(id), { saturation: 2.5 })).toMatchObject({ affected: 1 });
    expect(await run(ids(id), { priority: -3 })).toMatchObject({ affected: 1, detail: '1 campaign priority set to -3' });
    expect(await read(id)).toMatchObject({ saturation: 2.5, weight: -3 });
    // The bounds themselves are values the update takes.
    expect(await run(ids(id), { saturation: 0 })).toMatchObject({ affected: 1 });
    expect(await run(ids(id), { priority: 1_000_000 })).toMatchObject({ affected: 1 });
    expect(await read(id)).toMatchObject({ saturation: 0, weight: 1_000_000 });
  });

  it.each<[string, unknown]>([
    ['a negative saturation', { saturation: -1 }],
    ['a saturation above 1 000 000', { saturation: 1_000_001 }],
    ['a saturation that is not a number', { saturation: 'high' }],
    ['a saturation of NaN', { saturation: Number.NaN }],
    ['a fractional priority', { priority: 1.5 }],
    ['a priority beyond 1 000 000', { priority: -1_000_001 }],
    ['a priority as text', { priority: '5' }],
    ['enabled as text', { enabled: 'yes' }],
    ['two fields at once', { enabled: true, priority: 1 }],
    ['no field', {}],
    ['no object', 'enable'],
  ])('refuse %s with a ValidationError and change nothing', async (_name, change) => {
    const id = await channel({ saturation: 1, weight: 1 });
    await expect(run(ids(id), change as CampaignActionChange)).rejects.toMatchObject({ status: 400, key: 'request.error.invalid' });
    expect(await read(id)).toMatchObject({ enabled: true, saturation: 1, weight: 1 });
  });

  it('refuse an id of another tenant, an unknown or malformed one with NotFoundError naming it, changing nothing', async () => {
    const own = await channel();
    const theirs = (await k.create({ ...k.contentChannel((await k.other.content()).id, {}, [k.other.roots.device.id]) }, k.otherApprover))
      .id as number;
    await expect(run(ids(own, theirs), { enabled: false })).rejects.toMatchObject({
      status: 404,
      key: 'campaign.error.notFound',
      message: `No campaign with id ${theirs}`,
    });
    await expect(run(ids('999999999999'), { enabled: false })).rejects.toMatchObject({ status: 404 });
    await expect(run(ids('12; drop table campaign\u0000'), { enabled: false })).rejects.toMatchObject({
      status: 404,
      message: 'No campaign with id 12; drop table campaign?',
    });
    expect(await read(own)).toMatchObject({ enabled: true });
    const [foreign] = await k.t.db.select({ enabled: campaigns.enabled }).from(campaigns).where(eq(campaigns.id, theirs));
    expect(foreign).toEqual({ enabled: true });
    await expect(run(ids(), { enabled: false })).rejects.toMatchObject({ status: 400 });
  });

  it('refuse a locked campaign named by id (409), as a console save does', async () => {
    const locked = await channel({ locked: true });
    await expect(run(ids(locked), { priority: 4 })).rejects.toMatchObject({ status: 409, key: 'campaign.error.locked' });
  });
});

describe('campaign actions by tags', () => {
  it('change the campaigns carrying any of the tags, and only those', async () => {
    const summer = await channel({ tags: ['summer', 'promo'] });
    const autumn = await channel({ tags: ['autumn'] });
    const winter = await channel({ tags: ['winter'] });
    const locked = await channel({ tags: ['summer'], locked: true });
    expect(await run(tagged('summer', 'autumn'), { saturation: 4 })).toEqual({
      affected: 2,
      detail: '2 campaigns saturation set to 4; left as they were: 1 locked',
    });
    expect(await read(summer)).toMatchObject({ saturation: 4 });
    expect(await read(autumn)).toMatchObject({ saturation: 4 });
    expect((await read(winter)).saturation ?? null).toBeNull();
    expect((await read(locked)).saturation ?? null).toBeNull();

    expect(await run(tagged('promo'), { enabled: false })).toMatchObject({ affected: 1 });
    expect(await read(summer)).toMatchObject({ enabled: false });
    expect(await run(tagged('nobody-has-this'), { enabled: false })).toEqual({
      affected: 0,
      detail: 'No campaign the key sees carries the tags nobody-has-this',
    });
    // Another tenant's campaigns with the tag are not touched.
    const theirs = (
      await k.create(k.contentChannel((await k.other.content()).id, { tags: ['winter'] }, [k.other.roots.device.id]), k.otherApprover)
    ).id as number;
    expect(await run(tagged('winter'), { priority: 7 })).toMatchObject({ affected: 1 });
    const [foreign] = await k.t.db.select({ weight: campaigns.weight }).from(campaigns).where(eq(campaigns.id, theirs));
    expect(foreign).toEqual({ weight: null });
  });

  it('refuse tags that are not tags, and an empty list', async () => {
    await expect(run(tagged('bad\u0000tag'), { enabled: true })).rejects.toMatchObject({
      status: 400,
      key: 'tag.error.invalid',
      message: 'Invalid tag "bad?tag": a tag holds no control characters',
    });
    await expect(run(tagged('-dash'), { enabled: true })).rejects.toMatchObject({ status: 400, key: 'tag.error.invalid' });
    await expect(run(tagged(), { enabled: true })).rejects.toMatchObject({ status: 400 });
  });
});

describe('a restricted key', () => {
  it("changes only its teams' campaigns: others are unknown to it by id and left alone by tag", async () => {
    const keyId = uuidv7();
    const ours = await k.own.team();
    const watched = await k.own.team();
    const theirs = await k.own.team();
    await k.own.join(ours.id, 'webhookApiKey', keyId);
    await k.own.join(watched.id, 'webhookApiKey', keyId);
    const inOurTeam = await channel({ tags: ['lobby'], teamAccessList: { teams: [{ id: ours.id }] } }, [k.own.roots.device.id]);
    const inWatchedTeam = await channel({ tags: ['lobby'], teamAccessList: { teams: [{ id: watched.id, readOnly: true }] } });
    const inTheirTeam = await channel({ tags: ['lobby'], teamAccessList: { teams: [{ id: theirs.id }] } });
    const teamLess = await channel({ tags: ['lobby'] });
    const key = keyActor({ restricted: true, id: keyId });

    expect(await run(tagged('lobby'), { priority: 2 }, key)).toEqual({
      affected: 1,
      detail: '1 campaign priority set to 2; left as they were: 1 read-only through the teams of the key',
    });
    expect(await read(inOurTeam)).toMatchObject({ weight: 2 });
    for (const id of [inWatchedTeam, inTheirTeam, teamLess]) expect((await read(id)).weight ?? null).toBeNull();

    await expect(run(ids(inTheirTeam), { enabled: false }, key)).rejects.toMatchObject({ status: 404, key: 'campaign.error.notFound' });
    await expect(run(ids(teamLess), { enabled: false }, key)).rejects.toMatchObject({ status: 404 });
    await expect(run(ids(inWatchedTeam), { enabled: false }, key)).rejects.toMatchObject({ status: 403, key: 'team.error.readOnly' });
    expect(await run(ids(inOurTeam), { enabled: false }, key)).toMatchObject({ affected: 1 });
    // The same key unrestricted also sees the team-less campaign (the customer's default), still not another team's.
    expect(await run(tagged('lobby'), { saturation: 3 }, keyActor({ id: keyId }))).toMatchObject({ affected: 2 });
    expect(await read(teamLess)).toMatchObject({ saturation: 3 });
  });
});
