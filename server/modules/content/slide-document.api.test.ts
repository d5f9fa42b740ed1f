import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTestKit, type ContentTestKit } from './content.test-kit';
import { deviceContents } from './content.table';

/*
 * A slide's `data` on the wire is an object keyed by page name (DECISIONS §2, spec 2 "Content"): a client
 * written from the spec sends it and reads back exactly what it sent, on every endpoint that carries it.
 */

let k: ContentTestKit;
let t: ContentTestKit['t'];

beforeAll(async () => {
  k = await contentTestKit();
  t = k.t;
});
afterAll(() => t.close());

/** The spec's slide, byte for byte. */
const SPEC_SLIDE = { Default: { tags: [], pageStyle: {}, pageData: { screenSize: { width: 1920, height: 1080 } } } };

const screen = { width: 1920, height: 1080 };

/**
 * Interactive content whose pages are not in any order jsonb or a sort would give (names of different lengths,
 * not alphabetical), with keys the server does not know on pages, widgets and nested objects.
 */
function kiosk() {
  return {
    Welcome: {
      tags: ['entry'],
      pageStyle: { backgroundColor: '#112233', vendorPattern: 'dots' },
      pageData: { screenSize: { ...screen, dpi: 96 }, durationMs: 5_000, transitionHint: 'slide' },
      widgets: [
        {
          ...k.text('go', 'Menu'),
          action: { type: 'GO_TO_PAGE', page: 'Menu' },
          analyticsId: 'btn-1',
          textStyle: { fontSize: 40, shadow: '2px' },
        },
      ],
      author: { name: 'Ada', revision: 3 },
    },
    Menu: { pageData: { screenSize: screen }, widgets: [{ ...k.text('back'), action: { type: 'GO_TO_PAGE', page: 'Welcome' } }] },
    A: { pageData: { screenSize: screen }, notes: null, flags: [1, 'two', { three: true }] },
    'Opening hours — 2026': { tags: [], pageStyle: {}, pageData: { screenSize: screen }, widgets: [] },
  };
}

const create = (data: unknown, structureType: 'SLIDE' | 'COMPLEX' = 'SLIDE', name = 'Wire') =>
  t.request('POST', `/api/content/?contentGroupId=${k.root.id}`, { token: k.editor, json: { name, structureType, data } });
const read = (id: string, query = '') => t.request('GET', `/api/v2/deviceContent/${id}${query}`, { token: k.viewer });
const issuesOf = (body: { details?: { issues?: { path: string; message: string }[] } }) => body.details?.issues ?? [];

describe('slide data keyed by page name', () => {
  it("the spec's body: 201, and every read answers exactly what was sent", async () => {
    const res = await create(SPEC_SLIDE);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toEqual(SPEC_SLIDE);
    const one = await read(res.body.id);
    expect(one.body.data).toEqual(SPEC_SLIDE);
    const selected = await read(res.body.id, '?select=data');
    expect(selected.body).toEqual({ id: res.body.id, data: SPEC_SLIDE, readOnly: false });
    const listed = await t.request('GET', `/api/v2/deviceContent?select=name,data&search=${encodeURIComponent(`id=${res.body.id}`)}`, {
      token: k.viewer,
    });
    expect(listed.body.content).toEqual([{ id: res.body.id, name: 'Wire', data: SPEC_SLIDE }]);
    // Stored as the page list (jsonb keeps no key order), nothing filled in.
    const [row] = await t.db.select({ data: deviceContents.data }).from(deviceContents).where(eq(deviceContents.id, res.body.id));
    expect(row!.data).toEqual({ pages: [{ name: 'Default', ...SPEC_SLIDE.Default }] });
  });

  it('interactive content: pages in the order sent, unknown keys kept at every depth, through create, update and list', async () => {
    const sent = kiosk();
    const res = await create(sent, 'COMPLEX', 'Kiosk');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toEqual(sent);
    expect(Object.keys(res.body.data)).toEqual(['Welcome', 'Menu', 'A', 'Opening hours — 2026']);
    const listed = await t.request('GET', `/api/v2/deviceContent?select=data&search=${encodeURIComponent(`id=${res.body.id}`)}`, {
      token: k.viewer,
    });
    expect(Object.keys(listed.body.content[0].data)).toEqual(Object.keys(sent));
    expect(listed.body.content[0].data).toEqual(sent);

    const { Welcome, Menu, A, ...rest } = kiosk();
    const reordered = { A, ...rest, Menu, Welcome };
    const saved = await t.request('PUT', `/api/content/${res.body.id}`, { token: k.editor, json: { data: reordered } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(Object.keys(saved.body.data)).toEqual(['A', 'Opening hours — 2026', 'Menu', 'Welcome']);
    expect((await read(res.body.id)).body.data).toEqual(reordered);
  });

  it('refuses page names that are whole numbers, naming them (400); other numeric-looking names keep their place', async () => {
    const page = SPEC_SLIDE.Default;
    const res = await create({ 2: page, 1: page, Intro: page }, 'COMPLEX');
    expect(res.status).toBe(400);
    expect(res.body.key).toBe('request.error.invalid');
    expect(issuesOf(res.body)).toEqual([expect.objectContaining({ path: 'data', message: expect.stringContaining("'1', '2'") })]);
    expect((await create({ 0: page })).status).toBe(400);
    expect((await create({ 4294967294: page })).status).toBe(400);
    // Not array indices: JavaScript keeps them in the order sent.
    const kept = await create({ Intro: page, '01': page, '-1': page, '1.5': page, '4294967295': page, ' 7': page }, 'COMPLEX');
    expect(kept.status, JSON.stringify(kept.body)).toBe(201);
    expect(Object.keys(kept.body.data)).toEqual(['Intro', '01', '-1', '1.5', '4294967295', ' 7']);
  });

  it('refuses what it could not give back: a `name` inside a page, `__proto__`, the old page list (400 with the path)', async () => {
    const named = await create({ Default: { ...SPEC_SLIDE.Default, name: 'Default' } });
    expect(named.status).toBe(400);
    expect(issuesOf(named.body)).toEqual([expect.objectContaining({ path: 'data.Default.name' })]);
    // JSON.parse makes `__proto__` an own key, and JSON.stringify sends it.
    const proto = await create(
      JSON.parse(`{"Default":${JSON.stringify(SPEC_SLIDE.Default)},"__proto__":${JSON.stringify(SPEC_SLIDE.Default)}}`),
      'COMPLEX',
    );
    expect(proto.status, JSON.stringify(proto.body)).toBe(400);
    expect(issuesOf(proto.body)).toEqual([expect.objectContaining({ path: 'data.__proto__' })]);
    const list = await create({ pages: [{ name: 'Default', ...SPEC_SLIDE.Default }] });
    expect(list.status).toBe(400);
    expect(issuesOf(list.body)[0]!.path).toBe('data.pages');
    const two = await create({ One: SPEC_SLIDE.Default, Two: SPEC_SLIDE.Default });
    expect(two.status).toBe(400);
    expect(issuesOf(two.body)).toEqual([expect.objectContaining({ path: 'data', message: expect.stringContaining('exactly one page') })]);
    const action = await create(
      { Home: { ...SPEC_SLIDE.Default, widgets: [{ ...k.text('go'), action: { type: 'GO_TO_PAGE', page: 'Nowhere' } }] } },
      'COMPLEX',
    );
    expect(issuesOf(action.body)).toEqual([expect.objectContaining({ path: 'data.Home.widgets.0.action.page' })]);
  });

  it('names a page by its key in embedding errors', async () => {
    const kiosk = await create({ Intro: SPEC_SLIDE.Default, Outro: SPEC_SLIDE.Default }, 'COMPLEX', 'Embedded kiosk');
    const res = await create({
      Poster: {
        ...SPEC_SLIDE.Default,
        widgets: [{ id: 'c', type: 'content', x: 0, y: 0, width: 1, height: 1, zIndex: 0, contentId: kiosk.body.id }],
      },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ key: 'content.error.embedding', details: { path: 'data.Poster.widgets.0.contentId' } });
  });

  it('duplicate, fromTemplate of an own slide and replaceFileReference answer the keyed form, unknown keys kept', async () => {
    const old = await k.file();
    const next = await k.file();
    const sent = kiosk();
    sent.Menu.widgets.push({
      id: 'pic',
      type: 'image',
      x: 0,
      y: 0,
      width: 10,
      height: 10,
      zIndex: 2,
      fileId: old.id,
      vendorCrop: [0, 0, 5, 5],
    } as never);
    const original = await create(sent, 'COMPLEX', 'Original');
    expect(original.status, JSON.stringify(original.body)).toBe(201);

    const copy = await t.request('POST', `/api/content/duplicate/${original.body.id}`, { token: k.editor, json: { name: 'Copy' } });
    expect(copy.status).toBe(201);
    expect(copy.body.data).toEqual(sent);
    expect(Object.keys(copy.body.data)).toEqual(Object.keys(sent));
    const fromOwn = await t.request('POST', `/api/content/fromTemplate/${original.body.id}`, {
      token: k.editor,
      json: { name: 'From own' },
    });
    expect(fromOwn.status).toBe(201);
    expect(fromOwn.body.data).toEqual(sent);

    const replaced = await t.request('PUT', `/api/file/replaceFileReference?fileIdToReplace=${old.id}&sourceFileId=${next.id}`, {
      token: k.approver,
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    const after = (await read(original.body.id)).body.data;
    const expected = kiosk();
    expected.Menu.widgets.push({
      id: 'pic',
      type: 'image',
      x: 0,
      y: 0,
      width: 10,
      height: 10,
      zIndex: 2,
      fileId: next.id,
      vendorCrop: [0, 0, 5, 5],
    } as never);
    expect(after).toEqual(expected);
    expect(Object.keys(after)).toEqual(Object.keys(sent));
  });

  it('starter templates and a copy from one answer the keyed form', async () => {
    const list = await t.request('GET', '/api/template?select=name,data', { token: k.viewer });
    expect(list.status).toBe(200);
    for (const template of list.body.content as { data: Record<string, { pageData: unknown }> }[]) {
      expect(Object.keys(template.data)).toEqual(['Default']);
      expect(template.data.Default!.pageData).toEqual({ screenSize: expect.objectContaining({ width: expect.any(Number) }) });
    }
    const first = list.body.content[0] as { id: string; data: unknown };
    const made = await t.request('POST', `/api/content/fromTemplate/${first.id}`, { token: k.editor, json: { name: 'From starter' } });
    expect(made.status).toBe(201);
    expect(made.body.data).toEqual(first.data);
  });
});

describe('migration of stored pages named like array indices (server/db/custom-sql/slide_page_names.sql)', () => {
  it('renames them "Page <n>" (a free name), the taps that went to them follow, and the keyed form keeps their order', async () => {
    const page = (name: string, widgets: unknown[] = []) => ({ name, tags: [], pageStyle: {}, pageData: { screenSize: screen }, widgets });
    const tap = (id: string, target: string) => ({ ...k.text(id), action: { type: 'GO_TO_PAGE', page: target } });
    const res = await create({ Home: SPEC_SLIDE.Default, 'Page 2': SPEC_SLIDE.Default }, 'COMPLEX', 'Numbered');
    const untouched = await create(SPEC_SLIDE, 'SLIDE', 'Untouched');
    // As a document saved before the rule could be stored: pages "2", "Page 2", "1" (in that order), "10", "4294967295".
    const stored = {
      pages: [
        page('2', [tap('a', '1')]),
        page('Page 2', [tap('b', '2'), tap('c', 'Page 2')]),
        page('1'),
        { ...page('10'), widgets: undefined },
        page('4294967295'),
      ],
    };
    await t.db.update(deviceContents).set({ data: stored }).where(eq(deviceContents.id, res.body.id));
    const before = (
      await t.db.select({ data: deviceContents.data }).from(deviceContents).where(eq(deviceContents.id, untouched.body.id))
    )[0]!.data;

    await t.db.execute(sql.raw(readFileSync('server/db/custom-sql/slide_page_names.sql', 'utf8')));

    const after = await read(res.body.id);
    expect(Object.keys(after.body.data)).toEqual(['Page 2 (2)', 'Page 2', 'Page 1', 'Page 10', '4294967295']);
    expect(after.body.data['Page 2 (2)'].widgets[0].action).toEqual({ type: 'GO_TO_PAGE', page: 'Page 1' });
    expect(after.body.data['Page 2'].widgets.map((w: { action: { page: string } }) => w.action.page)).toEqual(['Page 2 (2)', 'Page 2']);
    expect(after.body.data['Page 10']).toEqual({ tags: [], pageStyle: {}, pageData: { screenSize: screen } });
    // The renamed document is one the API takes back as it is.
    expect((await t.request('PUT', `/api/content/${res.body.id}`, { token: k.editor, json: { data: after.body.data } })).status).toBe(200);
    expect(
      (await t.db.select({ data: deviceContents.data }).from(deviceContents).where(eq(deviceContents.id, untouched.body.id)))[0]!.data,
    ).toEqual(before);
  });
});
