import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/server/test/harness';

/*
 * Tags on datasources (our DATASOURCE tag type, docs/decisions.md): written on create and update with the tag
 * rules of spec 3, searchable in the v2 list, registered and counted under `datasourceTags`, another tenant's
 * tags neither seen nor counted.
 */

let t: TestContext;
let customerId: number;
let editor: string;
let viewer: string;
let otherEditor: string;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  const otherCustomerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
  viewer = (await t.actor('VIEWER', { customerId })).token;
  otherEditor = (await t.actor('EDITOR', { customerId: otherCustomerId })).token;
});
afterAll(async () => {
  await t.close();
});

async function created(name: string, tags?: string[], token = editor): Promise<{ id: string; tags: string[] }> {
  const res = await t.request('POST', '/api/datasource', {
    token,
    json: { name, sourceType: 'INTERNAL', structureType: 'KEY_VALUE', ...(tags ? { tags } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: string; tags: string[] };
}

const names = (body: unknown) => (body as { content: Array<{ name: string }> }).content.map((d) => d.name).sort();

describe('tags on datasources', () => {
  it('stores them on create (duplicates dropped), defaults to none, and replaces them on update', async () => {
    const menu = await created('Menu prices', ['kitchen', 'lobby', 'kitchen']);
    expect(menu.tags).toEqual(['kitchen', 'lobby']);
    expect((await created('No tags')).tags).toEqual([]);

    const updated = await t.request('PUT', `/api/datasource/${menu.id}`, { token: editor, json: { tags: ['lobby', 'menu'] } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.tags).toEqual(['lobby', 'menu']);
    const kept = await t.request('PUT', `/api/datasource/${menu.id}`, { token: editor, json: { comment: 'prices' } });
    expect(kept.body.tags).toEqual(['lobby', 'menu']);
  });

  it('refuses tags that break the tag rules, and changes nothing', async () => {
    const bad = await t.request('POST', '/api/datasource', {
      token: editor,
      json: { name: 'Bad tags', sourceType: 'INTERNAL', structureType: 'KEY_VALUE', tags: ['-starts-with-dash'] },
    });
    expect(bad.status).toBe(400);
    const long = await t.request('POST', '/api/datasource', {
      token: editor,
      json: { name: 'Long tags', sourceType: 'INTERNAL', structureType: 'KEY_VALUE', tags: ['a'.repeat(1500), 'b'.repeat(1500)] },
    });
    expect(long.status).toBe(400);
    expect(long.body.key).toBe('tag.error.invalid');
    const list = await t.request('GET', `/api/v2/datasource?search=${encodeURIComponent('name~tags')}`, { token: viewer });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(names(list.body)).toEqual(['No tags']);
  });

  it('finds datasources by tag in the v2 list, and lists and suggests the tags with their counts', async () => {
    await created('Room A', ['rooms', 'floor-1']);
    await created('Room B', ['rooms']);
    await created('Foreign rooms', ['rooms', 'foreign'], otherEditor);

    const byTag = await t.request('GET', `/api/v2/datasource?search=${encodeURIComponent('tags:rooms')}`, { token: viewer });
    expect(byTag.status, JSON.stringify(byTag.body)).toBe(200);
    expect(names(byTag.body)).toEqual(['Room A', 'Room B']);
    const anyOf = await t.request('GET', `/api/v2/datasource?search=${encodeURIComponent('tags∈floor-1%2Cmenu')}`, { token: viewer });
    expect(anyOf.status, JSON.stringify(anyOf.body)).toBe(200);
    expect(names(anyOf.body)).toEqual(['Menu prices', 'Room A']);

    const listing = await t.request('GET', '/api/tag?select=datasourceTags', { token: viewer });
    expect(listing.status).toBe(200);
    expect(listing.body.datasourceTags.rooms.count).toBe(2);
    expect(listing.body.datasourceTags.foreign).toBeUndefined();
    const suggest = await t.request('GET', '/api/tag/suggest?keyword=ro&entity=DATASOURCE', { token: viewer });
    expect(suggest.body).toEqual(['rooms']);
  });

  it('refuses deleting a tag a datasource carries', async () => {
    const res = await t.request('DELETE', `/api/tag?tag=rooms&tagType=DATASOURCE`, { token: editor });
    expect(res.status).toBe(409);
    expect(res.body.key).toBe('tag.error.inUse');
  });
});
