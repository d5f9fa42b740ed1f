import { desc, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyActor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { withTransaction } from '@/server/db/transaction';
import { ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import { createLogger } from '@/server/logger';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { devices } from '@/server/modules/devices/devices.table';
import { connectDeviceSocket, newDevice } from '@/server/modules/display/display.test-kit';
import { teamAssignments, teams } from '@/server/modules/teams/teams.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { registerRefreshWaker } from './datasource-refresh';
import { requestRefreshOfAllDatasources, runDatasourceAction, type DatasourceActionOp } from './index';
import * as q from './datasources.queries';
import { datasources } from './datasources.table';
import { documentHash } from './formats';

/*
 * The datasource webhook actions (spec 3 "Webhook action", spec 5 §2) as the webhooks module calls them: with the
 * API key's actor, inside the execution's transaction.
 */

let t: TestContext;
let customerId: number;
let otherCustomerId: number;
const wakes: number[] = [];

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  otherCustomerId = (await t.factories.customer()).id;
  // Stands in for the refresher of this process (the module's jobs do not run in tests).
  registerRefreshWaker(() => wakes.push(Date.now()));
});
afterAll(() => t.close());

function apiKey(options: { restricted?: boolean; customer?: number; id?: string } = {}): ApiKeyActor {
  return {
    kind: 'apiKey',
    apiKeyId: options.id ?? uuidv7(),
    name: 'Doorbell',
    customerId: options.customer ?? customerId,
    customerName: 'Test customer',
    scopes: ['WEBHOOK_CALL'],
    restricted: options.restricted ?? false,
  };
}

function contextOf(actor: ApiKeyActor): ServiceContext<ApiKeyActor> {
  return {
    db: t.db,
    config: t.config,
    storage: t.storage,
    actor,
    scope: { kind: 'customer', customerId: actor.customerId, explicit: false },
    requestId: `test-${uuidv7()}`,
    log: createLogger('silent'),
    proof: {},
  };
}

/** As the webhook executor calls it: inside a transaction of its own, which the action joins. */
function run(datasourceId: string, action: DatasourceActionOp, actor = apiKey()) {
  const ctx = contextOf(actor);

  return withTransaction(ctx.db, (tx) => runDatasourceAction({ ...ctx, db: tx }, { datasourceId, action }));
}

async function datasource(
  options: { structureType?: string; sourceType?: string; document?: unknown; customer?: number; deactivated?: boolean } = {},
) {
  const id = uuidv7();
  const sourceType = options.sourceType ?? 'INTERNAL';
  const customer = options.customer ?? customerId;
  await q.insertDatasource(t.db, {
    id,
    customerId: customer,
    name: `ds ${id.slice(-12)}`,
    sourceType,
    structureType: options.structureType ?? 'KEY_VALUE',
    ...(sourceType === 'EXTERNAL'
      ? {
          type: 'JSON',
          remoteUrl: 'http://127.0.0.1:9/data.json',
          refreshFrequency: 300,
          deactivated: options.deactivated ?? false,
          nextRefreshAt: options.deactivated ? null : new Date(Date.now() + 3_600_000),
        }
      : {}),
  });
  if (options.document !== undefined)
    await q.upsertDocument(t.db, {
      datasourceId: id,
      customerId: customer,
      document: options.document,
      hash: documentHash(options.document),
      size: Buffer.byteLength(JSON.stringify(options.document)),
      validators: null,
    });

  return id;
}

async function documentOf(id: string): Promise<unknown> {
  return (await q.findDocument(t.db, id))?.document;
}

const rooms = {
  name: 'HQ',
  visitors: 4,
  queue: ['a', 'b', 'c'],
  rooms: [
    { id: 'A', seats: 6 },
    { id: 'B', seats: 10 },
  ],
};

describe('document actions change the stored document', () => {
  it.each<[string, DatasourceActionOp, unknown]>([
    ['SET', { op: 'set', data: { fresh: true } }, { fresh: true }],
    ['MERGE', { op: 'merge', patch: { name: 'HQ 2', queue: null } }, { name: 'HQ 2', visitors: 4, rooms: rooms.rooms }],
    ['INCREASE', { op: 'increase', keySelector: 'visitors' }, { ...rooms, visitors: 5 }],
    [
      'DECREASE',
      { op: 'decrease', keySelector: 'rooms.1.seats', minimumValue: 0 },
      {
        ...rooms,
        rooms: [
          { id: 'A', seats: 6 },
          { id: 'B', seats: 9 },
        ],
      },
    ],
    ['DELETE_BY_KEY', { op: 'deleteByKey', keySelector: 'name' }, { visitors: 4, queue: rooms.queue, rooms: rooms.rooms }],
    ['INSERT_TO_ARRAY', { op: 'insertToArray', keySelector: 'queue', data: 'z', index: 0 }, { ...rooms, queue: ['z', 'a', 'b', 'c'] }],
    ['REMOVE_FROM_ARRAY', { op: 'removeFromArray', keySelector: 'queue', data: 'b' }, { ...rooms, queue: ['a', 'c'] }],
    ['EMPTY_ARRAY', { op: 'emptyArray', keySelector: 'queue' }, { ...rooms, queue: [] }],
    ['ROTATE_ARRAY', { op: 'rotateArray', keySelector: '$.queue' }, { ...rooms, queue: ['b', 'c', 'a'] }],
    [
      'REPLACE_OR_MERGE_ELEMENT',
      { op: 'replaceOrMergeElement', keySelector: 'rooms', index: -1, data: { seats: 12 } },
      {
        ...rooms,
        rooms: [
          { id: 'A', seats: 6 },
          { id: 'B', seats: 12 },
        ],
      },
    ],
  ])('%s', async (_, action, expected) => {
    const id = await datasource({ document: rooms });
    await expect(run(id, action)).resolves.toMatchObject({ affected: 1 });
    expect(await documentOf(id)).toEqual(expected);
  });

  it('array actions without a key selector work on a LIST document itself', async () => {
    const id = await datasource({ structureType: 'LIST' });
    await run(id, { op: 'insertToArray', data: { n: 1 } });
    await run(id, { op: 'insertToArray', data: { n: 2 } });
    await run(id, { op: 'rotateArray' });
    expect(await documentOf(id)).toEqual([{ n: 2 }, { n: 1 }]);
    const refused = await run(id, { op: 'removeFromArray', index: 5 }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused).toMatchObject({ key: 'datasource.error.invalidAction' });
  });

  it('INSERT_CAP and CLEAR_CAP keep a FEED of CAP alerts', async () => {
    const id = await datasource({ structureType: 'FEED' });
    const sent = new Date(Date.now() - 60_000).toISOString();
    const alert = `<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>FIRE-1</identifier><sender>ops@city.example</sender>
      <sent>${sent}</sent><status>Actual</status><msgType>Alert</msgType><scope>Public</scope>
      <info><event>Fire</event><urgency>Immediate</urgency><severity>Severe</severity><certainty>Observed</certainty>
      <headline>Fire in hall 3</headline><area><areaDesc>Hall 3</areaDesc></area></info></alert>`;
    await expect(run(id, { op: 'insertCap', data: alert })).resolves.toEqual({ affected: 1, detail: '1 active alert (0 before)' });
    expect(await documentOf(id)).toMatchObject({ items: [{ id: 'FIRE-1', headline: 'Fire in hall 3', severity: 'Severe' }] });
    await expect(run(id, { op: 'clearCap', capIds: ['FIRE-1'] })).resolves.toMatchObject({ affected: 1 });
    expect(await documentOf(id)).toEqual({ items: [] });
  });

  it('an action that changes nothing stores nothing and answers affected 0', async () => {
    const id = await datasource({ document: { count: 10 } });
    const before = await q.findDocument(t.db, id);
    await expect(run(id, { op: 'increase', keySelector: 'count', maximumValue: 10 })).resolves.toEqual({
      affected: 0,
      detail: '"count" stays 10 (maximum 10) (no change)',
    });
    expect(await q.findDocument(t.db, id)).toEqual(before);
  });

  it('refuses a document the structure does not take, and one over 1 MiB, keeping the data', async () => {
    const id = await datasource({ structureType: 'LIST', document: [1] });
    await expect(run(id, { op: 'set', data: { not: 'a list' } })).rejects.toMatchObject({ key: 'datasource.error.invalidDocument' });
    await expect(run(id, { op: 'insertToArray', data: 'x'.repeat(1024 * 1024) })).rejects.toMatchObject({
      key: 'datasource.error.documentTooLarge',
    });
    await expect(run(id, { op: 'insertToArray', data: 'a\u0000b' })).rejects.toMatchObject({ key: 'request.error.nulCharacter' });
    expect(await documentOf(id)).toEqual([1]);
  });

  it('writes nothing when the execution’s transaction rolls back', async () => {
    const id = await datasource({ document: { count: 1 } });
    const ctx = contextOf(apiKey());
    const failed = await withTransaction(ctx.db, async (tx) => {
      await runDatasourceAction({ ...ctx, db: tx }, { datasourceId: id, action: { op: 'increase', keySelector: 'count' } });
      throw new Error('the execution failed later');
    }).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(Error);
    expect(await documentOf(id)).toEqual({ count: 1 });
  });
});

describe('concurrency, audit and push', () => {
  it('increases at once all count (each read-modify-write locks the row)', async () => {
    const id = await datasource({ document: { count: 0 } });
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => run(id, { op: 'increase', keySelector: 'count' })));
    expect(outcomes.map((outcome) => outcome.affected)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(await documentOf(id)).toEqual({ count: 6 });
  });

  it('audits a change under the key’s name, naming the action and the key selector', async () => {
    const id = await datasource({ document: { count: 0 } });
    await run(id, { op: 'increase', keySelector: 'count' }, apiKey());
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.datasourceId, id)).orderBy(desc(auditLog.id)).limit(1);
    expect(entry).toMatchObject({
      actorKind: 'apiKey',
      actorName: 'Doorbell',
      customerId,
      entityType: 'datasource',
      action: 'update',
      message: expect.stringContaining("INCREASE_VALUE_IN_DATASOURCE at 'count'"),
    });
  });

  it('sends datasourceChanged to the screens showing the datasource', async () => {
    const base = await t.listen();
    const editor = (await t.actor('EDITOR', { customerId })).token;
    const id = await datasource({ document: { now: 1 } });
    const root = await t.request('GET', '/api/v2/contentGroup?search=parentId=NULL', { token: editor });
    // The answer's declared shape (a page of content groups).
    const groupId = (root.body.content as Array<{ id: string; parentId?: string | null }>).find((g) => !g.parentId)!.id;
    const widget = {
      id: 'n',
      type: 'datasource',
      x: 0,
      y: 0,
      width: 300,
      height: 100,
      zIndex: 1,
      mode: 'text',
      datasourceId: id,
      field: 'now',
    };
    const slide = await t.request('POST', `/api/content?contentGroupId=${groupId}`, {
      token: editor,
      json: {
        name: `Board ${id.slice(-6)}`,
        structureType: 'SLIDE',
        data: { Default: { pageData: { screenSize: { width: 1920, height: 1080 } }, widgets: [widget] } },
      },
    });
    expect(slide.status, JSON.stringify(slide.body)).toBe(201);
    const screen = await newDevice(t, { customerId });
    await t.db.update(devices).set({ contentId: slide.body.id }).where(eq(devices.id, screen.deviceId));
    const socket = await connectDeviceSocket(t, base, screen);
    try {
      await run(id, { op: 'increase', keySelector: 'now' });
      await expect
        .poll(() => socket.frames.filter((f) => f.type === 'datasourceChanged'), { timeout: 5_000 })
        .toEqual([{ type: 'datasourceChanged', id }]);
    } finally {
      socket.socket.close();
    }
  });
});

describe('who may act on which datasource', () => {
  it('answers another tenant’s datasource and an unknown id like a missing one', async () => {
    const theirs = await datasource({ customer: otherCustomerId, document: { count: 0 } });
    for (const datasourceId of [theirs, uuidv7()]) {
      const refused = await run(datasourceId, { op: 'increase', keySelector: 'count' }).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(NotFoundError);
      expect(refused).toMatchObject({ key: 'datasource.error.notFound', message: `No datasource with id ${datasourceId}` });
    }
    await expect(run(theirs, { op: 'refresh' })).rejects.toBeInstanceOf(NotFoundError);
    expect(await documentOf(theirs)).toEqual({ count: 0 });
  });

  it('lets a restricted key act only on its teams’ datasources, and write only through a writable team', async () => {
    const keyId = uuidv7();
    const [writable, readOnly] = [uuidv7(), uuidv7()];
    await t.db.insert(teams).values([
      { id: writable, customerId, name: `writers ${writable}` },
      { id: readOnly, customerId, name: `readers ${readOnly}` },
    ]);
    const inTeam = await datasource({ document: { count: 0 } });
    const readable = await datasource({ document: { count: 0 } });
    const teamLess = await datasource({ document: { count: 0 } });
    await t.db.insert(teamAssignments).values([
      { teamId: writable, resourceType: 'webhookApiKey', resourceId: keyId, readOnly: false, customerId },
      { teamId: readOnly, resourceType: 'webhookApiKey', resourceId: keyId, readOnly: false, customerId },
      { teamId: writable, resourceType: 'datasource', resourceId: inTeam, readOnly: false, customerId },
      { teamId: readOnly, resourceType: 'datasource', resourceId: readable, readOnly: true, customerId },
    ]);
    const key = apiKey({ restricted: true, id: keyId });
    await expect(run(inTeam, { op: 'increase', keySelector: 'count' }, key)).resolves.toMatchObject({ affected: 1 });
    await expect(run(teamLess, { op: 'increase', keySelector: 'count' }, key)).rejects.toBeInstanceOf(NotFoundError);
    await expect(run(readable, { op: 'increase', keySelector: 'count' }, key)).rejects.toBeInstanceOf(ForbiddenError);
    // An unrestricted key also reaches the team-less one (the customer's default accessResourcesWithoutTeam).
    await expect(run(teamLess, { op: 'increase', keySelector: 'count' }, apiKey({ id: keyId }))).resolves.toMatchObject({ affected: 1 });
    expect([await documentOf(inTeam), await documentOf(readable), await documentOf(teamLess)]).toEqual([
      { count: 1 },
      { count: 0 },
      { count: 1 },
    ]);
  });

  it('refuses data writes to an external datasource', async () => {
    const external = await datasource({ sourceType: 'EXTERNAL' });
    const refused = await run(external, { op: 'set', data: { a: 1 } }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused).toMatchObject({
      key: 'datasource.error.notInternal',
      message: expect.stringMatching(/^SET_INTERNAL_DATASOURCE writes only to an INTERNAL/),
    });
  });
});

describe('refresh', () => {
  it('REFRESH_DATASOURCE makes the refresh due now and wakes the refresher once committed', async () => {
    const id = await datasource({ sourceType: 'EXTERNAL' });
    const ctx = contextOf(apiKey());
    const wakesBefore = wakes.length;
    const before = Date.now();
    await withTransaction(ctx.db, async (tx) => {
      await expect(runDatasourceAction({ ...ctx, db: tx }, { datasourceId: id, action: { op: 'refresh' } })).resolves.toMatchObject({
        affected: 1,
      });
      // Nothing is fetched inside the transaction: the refresher is woken only after the commit.
      expect(wakes.length).toBe(wakesBefore);
    });
    expect(wakes.length).toBe(wakesBefore + 1);
    const [row] = await t.db.select().from(datasources).where(eq(datasources.id, id));
    expect(row!.nextRefreshAt!.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(row!.nextRefreshAt!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('refuses an internal or a deactivated datasource with a reason', async () => {
    const internal = await datasource();
    await expect(run(internal, { op: 'refresh' })).rejects.toMatchObject({
      key: 'datasource.error.notExternal',
      message: expect.stringContaining('only external datasources are refreshed'),
    });
    const deactivated = await datasource({ sourceType: 'EXTERNAL', deactivated: true });
    const refused = await run(deactivated, { op: 'refresh' }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused).toMatchObject({ key: 'datasource.error.deactivated' });
  });

  it('REFRESH_DATASOURCE_ALL makes every active external datasource of the customer that the key may write due now', async () => {
    const customer = (await t.factories.customer()).id;
    const keyId = uuidv7();
    const team = uuidv7();
    await t.db.insert(teams).values({ id: team, customerId: customer, name: `refreshers ${team}` });
    const [inTeam, teamLess, deactivated, internal, theirs] = [
      await datasource({ sourceType: 'EXTERNAL', customer }),
      await datasource({ sourceType: 'EXTERNAL', customer }),
      await datasource({ sourceType: 'EXTERNAL', customer, deactivated: true }),
      await datasource({ customer }),
      await datasource({ sourceType: 'EXTERNAL', customer: otherCustomerId }),
    ];
    await t.db.insert(teamAssignments).values([
      { teamId: team, resourceType: 'webhookApiKey', resourceId: keyId, readOnly: false, customerId: customer },
      { teamId: team, resourceType: 'datasource', resourceId: inTeam, readOnly: false, customerId: customer },
    ]);
    const due = async () => {
      const rows = await t.db
        .select({ id: datasources.id, nextRefreshAt: datasources.nextRefreshAt })
        .from(datasources)
        .where(eq(datasources.sourceType, 'EXTERNAL'));
      const now = Date.now();

      return rows
        .filter((row) => row.nextRefreshAt && row.nextRefreshAt.getTime() <= now)
        .map((row) => row.id)
        .filter((id) => [inTeam, teamLess, deactivated, internal, theirs].includes(id))
        .sort();
    };
    const allOf = (actor: ApiKeyActor) => {
      const ctx = contextOf(actor);

      return withTransaction(ctx.db, (tx) => requestRefreshOfAllDatasources({ ...ctx, db: tx }));
    };
    await expect(allOf(apiKey({ restricted: true, id: keyId, customer }))).resolves.toEqual({ affected: 1 });
    expect(await due()).toEqual([inTeam]);
    await expect(allOf(apiKey({ id: keyId, customer }))).resolves.toEqual({ affected: 2 });
    expect(await due()).toEqual([inTeam, teamLess].sort());
  });
});
