import { and, eq, isNull } from 'drizzle-orm';
import { expect } from 'vitest';
import { insertFile, rootFolderOf } from '@/server/modules/files/files.test-kit';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { createTestContext } from '@/server/test/harness';
import type { PlaylistData, SlideDocument, Widget } from './content-data.schemas';

/** One tenant with a user per role, another tenant, their content roots and helpers for documents. */
export async function contentTestKit() {
  const t = await createTestContext();
  const customerId = (await t.factories.customer()).id;
  const other = (await t.factories.customer()).id;
  const contentRoot = async (customer: number) =>
    (
      await t.db
        .select()
        .from(contentGroups)
        .where(and(eq(contentGroups.customerId, customer), isNull(contentGroups.parentId)))
        .limit(1)
    )[0]!;
  const root = await contentRoot(customerId);
  const fileRoot = await rootFolderOf(t.db, customerId);
  const editor = (await t.actor('EDITOR', { customerId })).token;
  const playlist = (slides: PlaylistData['slides'] = [], loopData: Partial<PlaylistData['loopData']> = {}): PlaylistData => ({
    loopData: {
      resolution: { width: 1920, height: 1080 },
      defaultImageFit: 'contain',
      defaultVideoFit: 'contain',
      defaultDurationMs: 10_000,
      ...loopData,
    },
    slides,
  });
  /** A one-page slide as clients send it (keyed by page name, DECISIONS §2): the spec's `Default` page with widgets. */
  const slide = (widgets: Widget[] = [], screenSize = { width: 1920, height: 1080 }): SlideDocument => ({
    Default: { tags: [], pageStyle: {}, pageData: { screenSize }, widgets },
  });
  const text = (id: string, value = 'Hello'): Widget => ({
    id,
    type: 'text',
    x: 10,
    y: 10,
    width: 400,
    height: 100,
    zIndex: 1,
    text: value,
  });
  const kit = {
    t,
    customerId,
    otherCustomerId: other,
    owner: (await t.actor('OWNER', { customerId })).token,
    editor,
    approver: (await t.actor('APPROVER', { customerId })).token,
    viewer: (await t.actor('VIEWER', { customerId })).token,
    otherEditor: (await t.actor('EDITOR', { customerId: other })).token,
    root,
    otherRoot: await contentRoot(other),
    fileRoot,
    otherFileRoot: await rootFolderOf(t.db, other),

    file(folder: Parameters<typeof insertFile>[1] = fileRoot, values: Parameters<typeof insertFile>[2] = {}) {
      return insertFile(t.db, folder, values);
    },

    playlist,
    slide,
    text,

    async createPlaylist(
      name: string,
      data: PlaylistData = playlist(),
      token = editor,
      groupId = root.id,
    ): Promise<{ id: string; name: string }> {
      const res = await t.request('POST', `/api/simpleLoop?contentGroupId=${groupId}`, {
        token,
        json: { name, simpleLoopType: 'NORMAL', version: '2.0', data },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);

      return res.body as { id: string; name: string };
    },

    async createSlide(
      name: string,
      data: SlideDocument = slide([text('t1')]),
      token = editor,
      structureType: 'SLIDE' | 'COMPLEX' = 'SLIDE',
    ): Promise<{ id: string; name: string }> {
      const res = await t.request('POST', `/api/content?contentGroupId=${root.id}`, { token, json: { name, structureType, data } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);

      return res.body as { id: string; name: string };
    },
  };

  return kit;
}

export type ContentTestKit = Awaited<ReturnType<typeof contentTestKit>>;
