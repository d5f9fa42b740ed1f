import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { insertFile, rootFileFolder } from '@/server/modules/files/tagged-rows.test-kit';
import { registerTags } from './tags.rules';
import { tags } from './tags.table';

let t: TestContext;
let customerId: number;
let editor: string;
let viewer: string;
let otherEditor: string;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
  viewer = (await t.actor('VIEWER', { customerId })).token;
  otherEditor = (await t.actor('EDITOR')).token;
  const root = await rootFileFolder(t.db, customerId);
  await insertFile(t.db, { customerId, folder: root, name: 'a.png', tags: ['lobby', 'Promo'] });
  await insertFile(t.db, { customerId, folder: root, name: 'b.png', tags: ['lobby'] });
  await insertFile(t.db, { customerId, folder: root, name: 'c.png', tags: ['lobbyist', 'sale'] });
  await registerTags(t.db, customerId, 'FILE', ['lobby', 'Promo', 'lobbyist', 'sale']);
});
afterAll(() => t.close());

describe('GET /api/tag', () => {
  it('lists every group with counts, including registered tags nobody uses', async () => {
    await t.request('POST', '/api/tag?tagType=FILE', { token: editor, json: { tag: 'unused', comment: 'for later' } });
    const res = await t.request('GET', '/api/tag', { token: viewer });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'campaignTags',
      'datasourceTags',
      'deviceContentTags',
      'deviceTags',
      'fileTags',
      'messageTags',
    ]);
    expect(res.body.fileTags).toMatchObject({
      lobby: { count: 2 },
      Promo: { count: 1 },
      lobbyist: { count: 1 },
      sale: { count: 1 },
      unused: { count: 0, comment: 'for later' },
    });
    expect(res.body.deviceTags).toEqual({});
  });

  it('narrows to the selected groups and refuses an unknown one', async () => {
    const res = await t.request('GET', '/api/tag?select=fileTags,deviceTags', { token: viewer });
    expect(Object.keys(res.body).sort()).toEqual(['deviceTags', 'fileTags']);
    expect((await t.request('GET', '/api/tag?select=nope', { token: viewer })).status).toBe(400);
  });

  it("never shows another tenant's tags", async () => {
    const res = await t.request('GET', '/api/tag?select=fileTags', { token: otherEditor });
    expect(res.body.fileTags).toEqual({});
  });
});

describe('GET /api/tag/suggest', () => {
  it('answers tags by prefix, case-insensitively, most used first', async () => {
    const res = await t.request('GET', '/api/tag/suggest?keyword=LOB&entity=FILE', { token: viewer });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(['lobby', 'lobbyist']);
    expect((await t.request('GET', '/api/tag/suggest?keyword=pro', { token: viewer })).body).toEqual(['Promo']);
    expect((await t.request('GET', '/api/tag/suggest?keyword=lob&entity=DEVICE', { token: viewer })).body).toEqual([]);
    expect((await t.request('GET', '/api/tag/suggest?keyword=lob&entity=fileTags', { token: viewer })).body).toEqual(['lobby', 'lobbyist']);
  });

  it('treats LIKE wildcards in the keyword literally', async () => {
    expect((await t.request('GET', '/api/tag/suggest?keyword=%25', { token: viewer })).body).toEqual([]);
    expect((await t.request('GET', '/api/tag/suggest?keyword=_', { token: viewer })).body).toEqual([]);
  });

  it('refuses an entity its schema does not list (a type or group, spelled so); an empty one counts as none', async () => {
    for (const entity of ['car', 'file', ' FILE']) {
      const res = await t.request('GET', `/api/tag/suggest?keyword=a&entity=${encodeURIComponent(entity)}`, { token: viewer });
      expect(res.body, entity).toMatchObject({ status: 400, key: 'request.error.invalid', details: { issues: [{ path: 'entity' }] } });
    }
    expect((await t.request('GET', '/api/tag/suggest?keyword=lob&entity=', { token: viewer })).body).toEqual(['lobby', 'lobbyist']);
  });
});

describe('POST, PUT, DELETE /api/tag', () => {
  it('creates a tag with a comment (and an audit entry), refuses a duplicate', async () => {
    const res = await t.request('POST', '/api/tag?tagType=CAMPAIGN', { token: editor, json: { tag: 'Summer_2026', comment: 'seasonal' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ tag: 'Summer_2026', tagType: 'CAMPAIGN', comment: 'seasonal', count: 0 });
    const dup = await t.request('POST', '/api/tag?tagType=CAMPAIGN', { token: editor, json: { tag: 'Summer_2026' } });
    expect(dup.status).toBe(409);
    expect(dup.body.key).toBe('tag.error.exists');
    // The same text under another type is another tag.
    expect((await t.request('POST', '/api/tag?tagType=MESSAGE', { token: editor, json: { tag: 'Summer_2026' } })).status).toBe(201);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'tag'), eq(auditLog.entityId, 'CAMPAIGN:Summer_2026')));
    expect(entries).toHaveLength(1);
    // What the tag applies to in the console's words, not its code (issue 28 item 11).
    expect(entries[0]!.message).toBe("Tag 'Summer_2026' (Channels) created");
  });

  it('refuses a malformed tag or type with 400', async () => {
    for (const tag of ['-x', ' x', '', 'a b', 'a,b']) {
      const res = await t.request('POST', '/api/tag?tagType=FILE', { token: editor, json: { tag } });
      expect(res.status, tag).toBe(400);
      // The tag syntax is the body schema's pattern (issue 27 §3.3).
      expect(res.body.key).toBe('request.error.invalid');
    }
    expect((await t.request('POST', '/api/tag?tagType=CAR', { token: editor, json: { tag: 'x' } })).status).toBe(400);
    expect((await t.request('POST', '/api/tag?tagType=FILE', { token: editor, json: {} })).status).toBe(400);
  });

  it('changes a comment; 404 for an unknown tag; a used but unregistered tag gets registered', async () => {
    const res = await t.request('PUT', '/api/tag?tag=lobby&tagType=FILE', { token: editor, json: { comment: 'entrance screens' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ tag: 'lobby', tagType: 'FILE', comment: 'entrance screens', count: 2 });
    expect((await t.request('GET', '/api/tag?select=fileTags', { token: viewer })).body.fileTags.lobby).toEqual({
      count: 2,
      comment: 'entrance screens',
    });
    expect((await t.request('PUT', '/api/tag?tag=nothing&tagType=FILE', { token: editor, json: { comment: 'x' } })).status).toBe(404);
    const root = await rootFileFolder(t.db, customerId);
    await insertFile(t.db, { customerId, folder: root, name: 'd.png', tags: ['legacy'] });
    expect((await t.request('PUT', '/api/tag?tag=legacy&tagType=FILE', { token: editor, json: { comment: 'old' } })).status).toBe(200);
    const [row] = await t.db
      .select()
      .from(tags)
      .where(and(eq(tags.customerId, customerId), eq(tags.tag, 'legacy')));
    expect(row?.comment).toBe('old');
  });

  it('refuses to delete a tag in use (409 with the count), deletes an unused one, 404 after', async () => {
    const inUse = await t.request('DELETE', '/api/tag?tag=lobby&tagType=FILE', { token: editor });
    expect(inUse.status).toBe(409);
    expect(inUse.body).toMatchObject({ key: 'tag.error.inUse', details: { count: 2 } });
    expect((await t.request('GET', '/api/tag?select=fileTags', { token: viewer })).body.fileTags.lobby).toBeDefined();
    await t.request('POST', '/api/tag?tagType=FILE', { token: editor, json: { tag: 'temp' } });
    expect((await t.request('DELETE', '/api/tag?tag=temp&tagType=FILE', { token: editor })).status).toBe(204);
    expect((await t.request('DELETE', '/api/tag?tag=temp&tagType=FILE', { token: editor })).status).toBe(404);
  });

  it('counts use per tenant: another tenant may delete its own registration of the same text', async () => {
    await t.request('POST', '/api/tag?tagType=FILE', { token: otherEditor, json: { tag: 'lobby' } });
    expect((await t.request('DELETE', '/api/tag?tag=lobby&tagType=FILE', { token: otherEditor })).status).toBe(204);
  });

  it("answers 404 for another tenant's tag and 403 to a VIEWER", async () => {
    expect((await t.request('PUT', '/api/tag?tag=unused&tagType=FILE', { token: otherEditor, json: { comment: 'x' } })).status).toBe(404);
    expect((await t.request('DELETE', '/api/tag?tag=unused&tagType=FILE', { token: otherEditor })).status).toBe(404);
    expect((await t.request('POST', '/api/tag?tagType=FILE', { token: viewer, json: { tag: 'x' } })).status).toBe(403);
    expect((await t.request('DELETE', '/api/tag?tag=unused&tagType=FILE', { token: viewer })).status).toBe(403);
  });
});
