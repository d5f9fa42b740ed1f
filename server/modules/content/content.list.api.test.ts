import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '@/server/modules/files/files.table';
import { contentTestKit, type ContentTestKit } from './content.test-kit';
import { contentReferences, deviceContents } from './content.table';
import { starterTemplates } from './content-templates';
import { SlideDocument } from './content-data.schemas';
import { slideDocumentOf } from './slide-document.schemas';

let k: ContentTestKit;
let t: ContentTestKit['t'];
let folder: { id: string };
let loopId: string;
let slideId: string;

const list = (query: string, token = k.viewer) => t.request('GET', `/api/v2/deviceContent?size=100&${query}`, { token });
const names = async (query: string, token = k.viewer) => {
  const res = await list(query, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return (res.body.content as { name: string }[]).map((c) => c.name);
};
const dataOf = async (id: string) =>
  (await t.db.select({ data: deviceContents.data }).from(deviceContents).where(eq(deviceContents.id, id)))[0]!.data as {
    slides: { id: string }[];
  };

beforeAll(async () => {
  k = await contentTestKit();
  t = k.t;
  const res = await t.request('POST', '/api/contentGroup', { token: k.editor, json: { name: 'Listed' } });
  folder = res.body;
  loopId = (await k.createPlaylist('B playlist', k.playlist(), k.editor, folder.id)).id;
  slideId = (await k.createSlide('A slide')).id;
});
afterAll(() => t.close());

describe('GET /api/v2/deviceContent', () => {
  it('lists both kinds in one page, sorted by name, without documents unless selected', async () => {
    const res = await list('');
    expect(res.body.content.map((c: { name: string }) => c.name)).toEqual(['A slide', 'B playlist']);
    expect(res.body.content[0].data).toBeUndefined();
    expect(res.body.content[1]).toMatchObject({
      contentGroup: { id: folder.id, name: 'Listed' },
      contentGroupPath: `${k.root.id}/${folder.id}`,
      orientation: 'landscape',
    });
    const selected = await list('select=name,data,assignedDeviceCount');
    expect(selected.body.content[1]).toEqual({
      id: loopId,
      name: 'B playlist',
      data: expect.objectContaining({ slides: [] }),
      assignedDeviceCount: 0,
    });
    const first = await list('select=name,firstItem');
    expect(first.body.content.map((c: { firstItem: unknown }) => c.firstItem)).toEqual([null, null]);
    const one = await t.request('GET', `/api/v2/deviceContent/${slideId}`, { token: k.viewer });
    expect(Object.keys(one.body.data)).toEqual(['Default']);
  });

  it('narrows by kind, folder and search', async () => {
    expect(await names('includeLoops=false')).toEqual(['A slide']);
    expect(await names('includeContents=false')).toEqual(['B playlist']);
    expect(await names(`contentGroupId=${folder.id}`)).toEqual(['B playlist']);
    expect(await names(`search=${encodeURIComponent(`contentGroupPath:${k.root.id}`)}`)).toEqual(['A slide', 'B playlist']);
    expect(await names(`search=${encodeURIComponent('deviceContentType=simpleLoop')}`)).toEqual(['B playlist']);
    expect(await names('sort=name,desc')).toEqual(['B playlist', 'A slide']);
  });

  it('answers 404 for a folder the caller cannot see, and an empty page for an empty or exhausted visible one', async () => {
    expect((await list(`contentGroupId=${k.otherRoot.id}`)).status).toBe(404);
    expect((await list(`contentGroupId=${folder.id}`, k.otherEditor)).status).toBe(404);
    expect((await list('contentGroupId=0191a2b3-c4d5-7e6f-8a9b-0c1d2e3f4a5b')).status).toBe(404);
    const empty = await t.request('POST', '/api/contentGroup', { token: k.editor, json: { name: 'Empty' } });
    expect(await names(`contentGroupId=${empty.body.id}`)).toEqual([]);
    const beyond = await t.request('GET', `/api/v2/deviceContent?size=1&page=5&contentGroupId=${folder.id}`, { token: k.viewer });
    expect(beyond.status, JSON.stringify(beyond.body)).toBe(200);
    expect(beyond.body).toMatchObject({ content: [], totalElements: 1 });
  });

  it("never shows another tenant's content", async () => {
    expect(await names('', k.otherEditor)).toEqual([]);
    expect((await t.request('GET', `/api/v2/deviceContent/${loopId}`, { token: k.otherEditor })).status).toBe(404);
  });

  it('counts content in the folder list', async () => {
    const res = await t.request('GET', `/api/v2/contentGroup/${folder.id}?select=contentCount,simpleLoopCount`, { token: k.viewer });
    expect(res.body).toMatchObject({ contentCount: 0, simpleLoopCount: 1 });
  });

  it('applies a CONTENT quick filter', async () => {
    await t.request('POST', `/api/deviceContent/${slideId}/setTags`, { token: k.editor, json: ['lobby'] });
    const filter = await t.request('POST', '/api/quickFilter', {
      token: k.editor,
      json: { name: 'Lobby content', filteredEntityType: 'CONTENT', criteria: { type: 'CONTENT', tags: ['lobby'] } },
    });
    expect(filter.status, JSON.stringify(filter.body)).toBe(201);
    expect(await names(`quickFilterId=${filter.body.id}`)).toEqual(['A slide']);
    const inFolder = await t.request('POST', '/api/quickFilter', {
      token: k.editor,
      json: {
        name: 'In folder',
        filteredEntityType: 'CONTENT',
        criteria: { type: 'CONTENT', groupId: k.root.id, searchRecursively: true },
      },
    });
    expect(await names(`quickFilterId=${inFolder.body.id}`)).toEqual(['A slide', 'B playlist']);
  });

  it("answers a playlist's first item when firstItem is selected (the library's card preview)", async () => {
    const loop = await k.createPlaylist(
      'Z first item',
      k.playlist([
        { key: 'a', type: 'CONTENT', id: slideId, durationMs: 5_000 },
        { key: 'b', type: 'SIMPLE_LOOP', id: loopId },
      ]),
      k.editor,
      folder.id,
    );
    const res = await list(`select=firstItem&search=${encodeURIComponent(`id∈${loop.id}%2C${slideId}`)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.content).toEqual([
      { id: slideId, firstItem: null },
      { id: loop.id, firstItem: { key: 'a', type: 'CONTENT', id: slideId, durationMs: 5_000 } },
    ]);
    await t.request('DELETE', `/api/simpleLoop/${loop.id}`, { token: k.editor });
  });
});

describe('tags', () => {
  it("setTags replaces one item's tags; the bulk verbs act on a search", async () => {
    const set = await t.request('POST', `/api/deviceContent/${loopId}/setTags`, { token: k.editor, json: ['menu', 'food'] });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.tags).toEqual(['menu', 'food']);
    expect((await t.request('POST', `/api/deviceContent/${loopId}/setTags`, { token: k.editor, json: ['-bad'] })).status).toBe(400);
    const add = await t.request('POST', `/api/v2/deviceContent/tags/add?search=${encodeURIComponent('deviceContentType=simpleLoop')}`, {
      token: k.editor,
      json: ['extra'],
    });
    expect(add.body).toEqual({ updated: 1 });
    expect(await names(`search=${encodeURIComponent('tags:extra')}`)).toEqual(['B playlist']);
    const remove = await t.request('POST', '/api/v2/deviceContent/tags/remove', { token: k.editor, json: ['extra', 'lobby'] });
    expect(remove.body).toEqual({ updated: 2 });
    const tagList = await t.request('GET', '/api/tag?tagTypes=CONTENT', { token: k.viewer });
    expect(JSON.stringify(tagList.body)).toContain('menu');
  });
});

describe('templates', () => {
  it('every starter template is a valid slide', () => {
    for (const template of starterTemplates)
      expect(SlideDocument.safeParse(slideDocumentOf(template.data)).success, template.name).toBe(true);
  });

  it('lists the starter templates, searchable by tag, documents only when selected', async () => {
    const res = await t.request('GET', '/api/template', { token: k.viewer });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.content.map((x: { name: string }) => x.name)).toEqual(starterTemplates.map((x) => x.name));
    expect(res.body.content[0].data).toBeUndefined();
    const menu = await t.request('GET', `/api/template?search=${encodeURIComponent('tags:menu')}&select=name,data`, { token: k.viewer });
    // Keyed by page name, as every answer carries a slide (DECISIONS §2).
    expect(menu.body.content).toEqual(
      starterTemplates
        .filter((x) => x.tags.includes('menu'))
        .map((x) => ({ id: x.id, name: x.name, data: JSON.parse(JSON.stringify(slideDocumentOf(x.data))) })),
    );
    expect(menu.body.content.map((x: { name: string }) => x.name)).toEqual(['Menu board', 'Menu board from a table']);
    expect(Object.keys(menu.body.content[0].data)).toEqual(['Default']);
  });

  it("creates a slide from a starter template or from a tenant's own slide", async () => {
    const starter = starterTemplates[0]!;
    const res = await t.request('POST', `/api/content/fromTemplate/${starter.id}?contentGroupId=${folder.id}`, {
      token: k.editor,
      json: { name: 'My welcome' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ name: 'My welcome', structureType: 'SLIDE', contentGroupId: folder.id });
    expect(res.body.data).toEqual(JSON.parse(JSON.stringify(slideDocumentOf(starter.data))));
    const own = await t.request('POST', `/api/content/fromTemplate/${slideId}`, { token: k.editor, json: { name: 'From own' } });
    expect(own.status).toBe(201);
    expect(own.body.data).toEqual((await t.request('GET', `/api/v2/deviceContent/${slideId}`, { token: k.viewer })).body.data);
    expect((await t.request('POST', `/api/content/fromTemplate/${loopId}`, { token: k.editor, json: { name: 'x' } })).status).toBe(404);
    const otherSlide = await k.createSlide('Theirs', undefined, k.otherEditor).catch(() => undefined);
    expect(otherSlide).toBeUndefined();
  });
});

describe('files used by content', () => {
  it('a file in a playlist or on a slide shows its usage and cannot be deleted while used', async () => {
    const image = await k.file();
    const loop = await k.createPlaylist('Uses image', k.playlist([{ key: 'a', type: 'FILE', id: image.id }]));
    const res = await t.request('GET', `/api/v2/file/${image.id}?select=usageDetails`, { token: k.viewer });
    expect(res.body.usageDetails.contentUsage).toEqual([{ id: loop.id, name: 'Uses image', deviceContentType: 'simpleLoop' }]);
    const blocked = await t.request('DELETE', `/api/file/${image.id}`, { token: k.editor });
    expect(blocked.status).toBe(409);
  });

  it('removeFromPlaylists=true deletes the file and takes it out of the playlist in the same transaction', async () => {
    const image = await k.file();
    const keep = await k.file();
    const loop = await k.createPlaylist(
      'Loses image',
      k.playlist([
        { key: 'a', type: 'FILE', id: image.id },
        { key: 'b', type: 'FILE', id: keep.id },
        { key: 'c', type: 'FILE', id: image.id },
      ]),
    );
    const res = await t.request('DELETE', `/api/file/${image.id}?removeFromPlaylists=true`, { token: k.editor });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect((await dataOf(loop.id)).slides.map((s) => s.id)).toEqual([keep.id]);
    const left = await t.db.select().from(contentReferences).where(eq(contentReferences.contentId, loop.id));
    expect(left.map((r) => r.targetId)).toEqual([keep.id]);
  });

  it('a slide that shows the file still blocks removeFromPlaylists (409)', async () => {
    const image = await k.file();
    await k.createSlide(
      'Shows image',
      k.slide([{ id: 'i', type: 'image', x: 0, y: 0, width: 10, height: 10, zIndex: 0, fileId: image.id }]),
    );
    expect((await t.request('DELETE', `/api/file/${image.id}?removeFromPlaylists=true`, { token: k.editor })).status).toBe(409);
    expect((await t.db.select().from(files).where(eq(files.id, image.id))).length).toBe(1);
  });

  it('replaceFileReference points every document at the new file', async () => {
    const old = await k.file();
    const next = await k.file();
    const loop = await k.createPlaylist('Replaced', k.playlist([{ key: 'a', type: 'FILE', id: old.id }]));
    const slide = await k.createSlide(
      'Replaced slide',
      k.slide([{ id: 'i', type: 'image', x: 0, y: 0, width: 10, height: 10, zIndex: 0, fileId: old.id }]),
    );
    const res = await t.request(
      'PUT',
      `/api/file/replaceFileReference?fileIdToReplace=${old.id}&sourceFileId=${next.id}&removeOldFile=true`,
      { token: k.approver },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await dataOf(loop.id)).slides[0]!.id).toBe(next.id);
    const slideData = (await t.db.select({ data: deviceContents.data }).from(deviceContents).where(eq(deviceContents.id, slide.id)))[0]!
      .data as { pages: { widgets: { fileId: string }[] }[] };
    expect(slideData.pages[0]!.widgets[0]!.fileId).toBe(next.id);
    expect((await t.db.select().from(files).where(eq(files.id, old.id))).length).toBe(0);
    const refRows = await t.db.select().from(contentReferences).where(eq(contentReferences.targetId, next.id));
    expect(refRows.map((r) => r.contentId).sort()).toEqual([loop.id, slide.id].sort());
  });
});

describe('file folders played by playlists', () => {
  it('a playlist playing a folder shows in its usage and keeps it (and its parent) from being deleted, until removeFromPlaylists', async () => {
    const parent = (await t.request('POST', `/api/fileFolder/?parentId=${k.fileRoot.id}&name=Parent`, { token: k.editor })).body;
    const shown = (await t.request('POST', `/api/fileFolder/?parentId=${parent.id}&name=Shown`, { token: k.editor })).body;
    const keep = await k.file();
    const loop = await k.createPlaylist(
      'Plays a folder',
      k.playlist([
        { key: 'f', type: 'FILE_FOLDER', id: shown.id },
        { key: 'k', type: 'FILE', id: keep.id },
      ]),
    );
    const usage = await t.request('GET', `/api/v2/fileFolder/${shown.id}?select=usageDetails`, { token: k.viewer });
    expect(usage.body.usageDetails.contentUsage).toEqual([{ id: loop.id, name: 'Plays a folder', deviceContentType: 'simpleLoop' }]);
    const blocked = await t.request('DELETE', `/api/fileFolder/${parent.id}`, { token: k.editor });
    expect(blocked.status).toBe(409);
    expect(blocked.body.key).toBe('fileFolder.error.inUse');
    expect((await dataOf(loop.id)).slides).toHaveLength(2);
    const removed = await t.request('DELETE', `/api/fileFolder/${parent.id}?removeFromPlaylists=true`, { token: k.editor });
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);
    expect((await dataOf(loop.id)).slides.map((s) => s.id)).toEqual([keep.id]);
    expect((await t.db.select().from(contentReferences).where(eq(contentReferences.contentId, loop.id))).map((r) => r.targetType)).toEqual([
      'file',
    ]);
  });
});

describe('content folders and the content they hold', () => {
  it('a folder whose content is embedded outside it keeps its content (409), and moving it to the root is fine', async () => {
    const box = (await t.request('POST', '/api/contentGroup', { token: k.editor, json: { name: 'Box' } })).body;
    const inner = await k.createPlaylist('Boxed', k.playlist(), k.editor, box.id);
    await k.createPlaylist('Outside user', k.playlist([{ key: 'x', type: 'SIMPLE_LOOP', id: inner.id }]));
    const res = await t.request('DELETE', `/api/contentGroup/${box.id}?removeContents=true`, { token: k.editor });
    expect(res.status).toBe(409);
    expect(res.body.key).toBe('content.error.inUse');
    expect((await t.request('DELETE', `/api/contentGroup/${box.id}`, { token: k.editor })).status).toBe(204);
    expect((await t.db.select().from(deviceContents).where(eq(deviceContents.id, inner.id)))[0]!.contentGroupId).toBe(k.root.id);
  });
});
