import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { contentTestKit, type ContentTestKit } from './content.test-kit';
import { contentReferences, deviceContents } from './content.table';

let k: ContentTestKit;
let t: ContentTestKit['t'];

beforeAll(async () => {
  k = await contentTestKit();
  t = k.t;
});
afterAll(() => t.close());

const row = async (id: string) => (await t.db.select().from(deviceContents).where(eq(deviceContents.id, id)).limit(1))[0];
const refs = async (id: string) =>
  (await t.db.select().from(contentReferences).where(eq(contentReferences.contentId, id)))
    .map((r) => `${r.targetType}:${r.targetId}`)
    .sort();

describe('POST /api/simpleLoop and /api/content', () => {
  it('creates a playlist of files, a folder and a slide, and records what it references', async () => {
    const image = await k.file();
    const slide = await k.createSlide('Embedded slide');
    const res = await t.request('POST', `/api/simpleLoop?contentGroupId=${k.root.id}`, {
      token: k.editor,
      json: {
        name: 'Lobby loop',
        simpleLoopType: 'NORMAL',
        version: '2.0',
        comment: 'For the lobby',
        data: k.playlist([
          { key: 'a', type: 'FILE', id: image.id, durationMs: 8000, fit: 'cover' },
          { key: 'b', type: 'FILE_FOLDER', id: k.fileRoot.id },
          { key: 'c', type: 'CONTENT', id: slide.id, transition: { type: 'FADE', durationMs: 500 } },
        ]),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Lobby loop',
      deviceContentType: 'simpleLoop',
      simpleLoopType: 'NORMAL',
      version: '2.0',
      comment: 'For the lobby',
      locked: false,
      contentGroupId: k.root.id,
      contentGroupPath: k.root.id,
      orientation: 'landscape',
      previewPath: `/content/${res.body.id}/preview`,
      lastSavedBy: { email: expect.stringContaining('@') },
    });
    expect(res.body.data.slides).toHaveLength(3);
    expect(await refs(res.body.id)).toEqual([`content:${slide.id}`, `file:${image.id}`, `fileFolder:${k.fileRoot.id}`].sort());
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, res.body.id), eq(auditLog.action, 'create')));
    expect(entry?.message).toBe("Playlist 'Lobby loop' created");
  });

  it('creates a slide with text, an image and a clock, and interactive content with pages', async () => {
    const image = await k.file();
    const res = await t.request('POST', `/api/content?contentGroupId=${k.root.id}`, {
      token: k.editor,
      json: {
        name: 'Portrait slide',
        structureType: 'SLIDE',
        data: k.slide(
          [
            k.text('title', 'Hi'),
            { id: 'img', type: 'image', x: 0, y: 200, width: 1080, height: 600, zIndex: 2, fileId: image.id, fit: 'cover' },
            { id: 'clock', type: 'clock', x: 0, y: 0, width: 300, height: 100, zIndex: 3, format: 'HH:mm' },
          ],
          { width: 1080, height: 1920 },
        ),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ deviceContentType: 'content', structureType: 'SLIDE', version: '1.0', orientation: 'portrait' });
    const complex = await t.request('POST', `/api/content?contentGroupId=${k.root.id}`, {
      token: k.editor,
      json: {
        name: 'Kiosk',
        structureType: 'COMPLEX',
        data: {
          Home: {
            pageData: { screenSize: { width: 1920, height: 1080 } },
            widgets: [{ ...k.text('go'), action: { type: 'GO_TO_PAGE', page: 'Info' } }],
          },
          Info: {
            pageData: { screenSize: { width: 1920, height: 1080 } },
            widgets: [{ id: 'slide', type: 'content', x: 0, y: 0, width: 10, height: 10, zIndex: 0, contentId: res.body.id }],
          },
        },
      },
    });
    expect(complex.status, JSON.stringify(complex.body)).toBe(201);
    expect(complex.body.structureType).toBe('COMPLEX');
  });

  it('validates the document and names the path (400)', async () => {
    const cases: [string, unknown][] = [
      ['/api/simpleLoop', { name: 'v', simpleLoopType: 'NORMAL', version: '1.0', data: k.playlist() }],
      ['/api/simpleLoop', { name: 'v', simpleLoopType: 'NORMAL', version: '2.0', data: { loopData: {}, slides: [] } }],
      [
        '/api/simpleLoop',
        { name: 'v', simpleLoopType: 'NORMAL', version: '2.0', data: k.playlist([{ key: 'a', type: 'FILE', id: 'not-a-uuid' } as never]) },
      ],
      [
        '/api/simpleLoop',
        { name: 'v', simpleLoopType: 'NORMAL', version: '2.0', data: k.playlist([{ key: 'a', type: 'VIDEO', id: k.root.id } as never]) },
      ],
      ['/api/content', { name: 's', structureType: 'SLIDE', data: {} }],
      ['/api/content', { name: 's', structureType: 'SLIDE', data: { ...k.slide(), Two: k.slide().Default } }],
      ['/api/content', { name: 's', structureType: 'SLIDE', data: k.slide([{ ...k.text('x'), width: 0 }]) }],
      [
        '/api/content',
        {
          name: 's',
          structureType: 'SLIDE',
          data: k.slide([{ id: 'w', type: 'webPage', x: 0, y: 0, width: 1, height: 1, zIndex: 0, url: 'javascript:alert(1)' }]),
        },
      ],
      ['/api/content', { name: 's', structureType: 'SLIDE', data: k.slide([k.text('dup'), k.text('dup')]) }],
    ];
    for (const [path, body] of cases) {
      const res = await t.request('POST', `${path}?contentGroupId=${k.root.id}`, { token: k.editor, json: body });
      expect(res.status, `${path} ${JSON.stringify(body).slice(0, 120)}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(JSON.stringify(res.body.details ?? res.body)).toMatch(/data|version|pages/);
    }
  });

  it('refuses a document over 4 MiB (413)', async () => {
    const res = await t.request('POST', `/api/content?contentGroupId=${k.root.id}`, {
      token: k.editor,
      json: {
        name: 'big',
        structureType: 'SLIDE',
        data: k.slide([k.text('t', 'x'.repeat(19_000))].concat(Array.from({ length: 230 }, (_, i) => k.text(`t${i}`, 'y'.repeat(19_000))))),
      },
    });
    expect(res.status).toBe(413);
  });

  it("refuses another tenant's folder, files and content anywhere in the document (404)", async () => {
    const theirs = await t.request('POST', `/api/simpleLoop?contentGroupId=${k.otherRoot.id}`, {
      token: k.editor,
      json: { name: 'x', simpleLoopType: 'NORMAL', version: '2.0', data: k.playlist() },
    });
    expect(theirs.status).toBe(404);
    const otherFile = await k.file(k.otherFileRoot);
    const otherLoop = await k.createPlaylist('Theirs', k.playlist(), k.otherEditor, k.otherRoot.id);
    for (const item of [
      { key: 'a', type: 'FILE', id: otherFile.id },
      { key: 'a', type: 'FILE_FOLDER', id: k.otherFileRoot.id },
      { key: 'a', type: 'SIMPLE_LOOP', id: otherLoop.id },
    ] as const) {
      const res = await t.request('POST', `/api/simpleLoop?contentGroupId=${k.root.id}`, {
        token: k.editor,
        json: { name: 'x', simpleLoopType: 'NORMAL', version: '2.0', data: k.playlist([item]) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(404);
    }
  });

  it('enforces the embedding rules (409 content.error.embedding)', async () => {
    const complex = await k.createSlide('Multi', { ...k.slide(), Second: k.slide().Default! }, k.editor, 'COMPLEX');
    const loop = await k.createPlaylist('Inner');
    const slide = await k.createSlide('Plain');
    const attempts: [string, unknown][] = [
      [
        '/api/simpleLoop',
        { name: 'x', simpleLoopType: 'NORMAL', version: '2.0', data: k.playlist([{ key: 'a', type: 'CONTENT', id: complex.id }]) },
      ],
      [
        '/api/simpleLoop',
        { name: 'x', simpleLoopType: 'NORMAL', version: '2.0', data: k.playlist([{ key: 'a', type: 'SIMPLE_LOOP', id: slide.id }]) },
      ],
      [
        '/api/simpleLoop',
        { name: 'x', simpleLoopType: 'NORMAL', version: '2.0', data: k.playlist([{ key: 'a', type: 'CONTENT', id: loop.id }]) },
      ],
      [
        '/api/content',
        {
          name: 'x',
          structureType: 'SLIDE',
          data: k.slide([{ id: 'c', type: 'content', x: 0, y: 0, width: 1, height: 1, zIndex: 0, contentId: complex.id }]),
        },
      ],
      [
        '/api/content',
        {
          name: 'x',
          structureType: 'SLIDE',
          data: k.slide([{ id: 'p', type: 'playlist', x: 0, y: 0, width: 1, height: 1, zIndex: 0, simpleLoopId: slide.id }]),
        },
      ],
    ];
    for (const [path, body] of attempts) {
      const res = await t.request('POST', `${path}?contentGroupId=${k.root.id}`, { token: k.editor, json: body });
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.key).toBe('content.error.embedding');
    }
  });

  it('needs EDITOR (403 for a VIEWER)', async () => {
    const res = await t.request('POST', `/api/simpleLoop?contentGroupId=${k.root.id}`, {
      token: k.viewer,
      json: { name: 'x', simpleLoopType: 'NORMAL', version: '2.0', data: k.playlist() },
    });
    expect(res.status).toBe(403);
  });
});

describe('PUT /api/{content,simpleLoop}/{id}', () => {
  it('saves the name, the document and the comment; resetComment clears it, an empty comment does not', async () => {
    const loop = await k.createPlaylist('Editable');
    const image = await k.file();
    const saved = await t.request('PUT', `/api/simpleLoop/${loop.id}?autoSave=true`, {
      token: k.editor,
      json: { name: 'Edited', comment: 'note', data: k.playlist([{ key: 'a', type: 'FILE', id: image.id }]) },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ name: 'Edited', comment: 'note' });
    expect(await refs(loop.id)).toEqual([`file:${image.id}`]);
    const [auto] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, loop.id), eq(auditLog.action, 'autoSave')));
    expect(auto).toBeDefined();
    expect((await t.request('PUT', `/api/simpleLoop/${loop.id}`, { token: k.editor, json: { comment: '' } })).body.comment).toBe('note');
    const reset = await t.request('PUT', `/api/simpleLoop/${loop.id}`, { token: k.editor, json: { resetComment: true } });
    expect(reset.body.comment).toBeUndefined();
    expect((await row(loop.id))!.comment).toBeNull();
  });

  it('keeps the references in step with the document: kept, dropped and added on each save, whatever the case of an id', async () => {
    const [a, b, c] = [await k.file(), await k.file(), await k.file()];
    const loop = await k.createPlaylist(
      'References',
      k.playlist([
        { key: 'a', type: 'FILE', id: a.id },
        { key: 'b', type: 'FILE', id: b.id },
      ]),
    );
    const save = async (slides: Parameters<ContentTestKit['playlist']>[0]) => {
      const res = await t.request('PUT', `/api/simpleLoop/${loop.id}`, { token: k.editor, json: { data: k.playlist(slides) } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await save([
      { key: 'b', type: 'FILE', id: b.id.toUpperCase(), durationMs: 5000 },
      { key: 'c', type: 'FILE', id: c.id },
      { key: 'c2', type: 'FILE', id: c.id },
      { key: 'f', type: 'FILE_FOLDER', id: k.fileRoot.id },
    ]);
    expect(await refs(loop.id)).toEqual([`file:${b.id}`, `file:${c.id}`, `fileFolder:${k.fileRoot.id}`].sort());
    await save([{ key: 'b', type: 'FILE', id: b.id }]);
    expect(await refs(loop.id)).toEqual([`file:${b.id}`]);
    await save([]);
    expect(await refs(loop.id)).toEqual([]);
  });

  it('refuses a content id on the playlist path and the other way round (404)', async () => {
    const slide = await k.createSlide('Kind check');
    expect((await t.request('PUT', `/api/simpleLoop/${slide.id}`, { token: k.editor, json: { name: 'x' } })).status).toBe(404);
    const loop = await k.createPlaylist('Kind check loop');
    expect((await t.request('PUT', `/api/content/${loop.id}`, { token: k.editor, json: { name: 'x' } })).status).toBe(404);
  });

  it('keeps a slide to one page (400)', async () => {
    const slide = await k.createSlide('One page');
    const two = { ...k.slide(), Two: k.slide().Default };
    expect((await t.request('PUT', `/api/content/${slide.id}`, { token: k.editor, json: { data: two } })).status).toBe(400);
  });

  it('refuses to embed an item in itself, directly or through nested playlists (409 content.error.cycle)', async () => {
    const a = await k.createPlaylist('Cycle A');
    const b = await k.createPlaylist('Cycle B', k.playlist([{ key: 'x', type: 'SIMPLE_LOOP', id: a.id }]));
    const direct = await t.request('PUT', `/api/simpleLoop/${a.id}`, {
      token: k.editor,
      json: { data: k.playlist([{ key: 'x', type: 'SIMPLE_LOOP', id: a.id }]) },
    });
    expect(direct.status).toBe(409);
    expect(direct.body.key).toBe('content.error.cycle');
    const indirect = await t.request('PUT', `/api/simpleLoop/${a.id}`, {
      token: k.editor,
      json: { data: k.playlist([{ key: 'x', type: 'SIMPLE_LOOP', id: b.id }]) },
    });
    expect(indirect.status).toBe(409);
    expect(indirect.body.key).toBe('content.error.cycle');
    const slide = await k.createSlide('Cycle slide');
    const wrapper = await k.createSlide(
      'Cycle wrapper',
      k.slide([{ id: 'p', type: 'playlist', x: 0, y: 0, width: 1, height: 1, zIndex: 0, simpleLoopId: a.id }]),
    );
    expect(wrapper.id).toBeDefined();
    const viaSlide = await t.request('PUT', `/api/simpleLoop/${a.id}`, {
      token: k.editor,
      json: { data: k.playlist([{ key: 'x', type: 'CONTENT', id: wrapper.id }]) },
    });
    expect(viaSlide.status).toBe(409);
    expect(
      (
        await t.request('PUT', `/api/simpleLoop/${a.id}`, {
          token: k.editor,
          json: { data: k.playlist([{ key: 'x', type: 'CONTENT', id: slide.id }]) },
        })
      ).status,
    ).toBe(200);
  });

  it("refuses another tenant's item (404) and a VIEWER (403)", async () => {
    const loop = await k.createPlaylist('Guarded');
    expect((await t.request('PUT', `/api/simpleLoop/${loop.id}`, { token: k.otherEditor, json: { name: 'x' } })).status).toBe(404);
    expect((await t.request('PUT', `/api/simpleLoop/${loop.id}`, { token: k.viewer, json: { name: 'x' } })).status).toBe(403);
  });
});

describe('lock, duplicate, delete', () => {
  it('an approver locks; a locked item refuses every change until unlocked', async () => {
    const loop = await k.createPlaylist('Lockable');
    expect((await t.request('POST', `/api/simpleLoop/lock/${loop.id}/true`, { token: k.editor })).status).toBe(403);
    const locked = await t.request('POST', `/api/simpleLoop/lock/${loop.id}/true`, { token: k.approver });
    expect(locked.status).toBe(200);
    expect(locked.body.locked).toBe(true);
    for (const [method, path, json] of [
      ['PUT', `/api/simpleLoop/${loop.id}`, { name: 'x' }],
      ['DELETE', `/api/simpleLoop/${loop.id}`, undefined],
      ['POST', `/api/deviceContent/${loop.id}/setTags`, ['a']],
    ] as const) {
      const res = await t.request(method, path, { token: k.editor, json });
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body.key).toBe('content.error.locked');
    }
    expect((await t.request('POST', `/api/simpleLoop/lock/${loop.id}/false`, { token: k.approver })).body.locked).toBe(false);
    expect((await t.request('PUT', `/api/simpleLoop/${loop.id}`, { token: k.editor, json: { name: 'Unlocked' } })).status).toBe(200);
  });

  it('duplicates: content answers the copy, a playlist answers nothing', async () => {
    const slide = await k.createSlide('Original slide');
    const copy = await t.request('POST', `/api/content/duplicate/${slide.id}`, { token: k.editor, json: { name: 'Copy of slide' } });
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    expect(copy.body).toMatchObject({ name: 'Copy of slide', structureType: 'SLIDE', contentGroupId: k.root.id });
    expect(copy.body.id).not.toBe(slide.id);
    const loop = await k.createPlaylist('Original loop');
    const loopCopy = await t.request('POST', `/api/simpleLoop/duplicate/${loop.id}`, { token: k.editor, json: { name: 'Copy of loop' } });
    expect(loopCopy.status).toBe(204);
    const list = await t.request('GET', `/api/v2/deviceContent?search=${encodeURIComponent('name=Copy of loop')}`, { token: k.viewer });
    expect(list.body.content).toHaveLength(1);
  });

  it('deletes, but not while other content embeds the item (409 content.error.inUse)', async () => {
    const inner = await k.createPlaylist('Inner used');
    const outer = await k.createPlaylist('Outer user', k.playlist([{ key: 'x', type: 'SIMPLE_LOOP', id: inner.id }]));
    const blocked = await t.request('DELETE', `/api/simpleLoop/${inner.id}`, { token: k.editor });
    expect(blocked.status).toBe(409);
    expect(blocked.body.key).toBe('content.error.inUse');
    expect(blocked.body.details.usedBy).toEqual([expect.objectContaining({ id: outer.id, name: 'Outer user' })]);
    const usage = await t.request('GET', `/api/simpleLoop/usageDetails?search=${encodeURIComponent(`id=${inner.id}`)}`, {
      token: k.viewer,
    });
    expect(usage.status).toBe(200);
    expect(usage.body).toEqual([
      {
        id: inner.id,
        name: 'Inner used',
        deviceContentType: 'simpleLoop',
        usedBy: [{ id: outer.id, name: 'Outer user', deviceContentType: 'simpleLoop' }],
      },
    ]);
    expect((await t.request('DELETE', `/api/simpleLoop/${outer.id}`, { token: k.editor })).status).toBe(204);
    expect((await t.request('DELETE', `/api/simpleLoop/${inner.id}`, { token: k.editor })).status).toBe(204);
    expect(await row(inner.id)).toBeUndefined();
  });

  it('counts the screens that show matching content (none until screens exist)', async () => {
    const res = await t.request('GET', '/api/content/getDeviceOnlineOfflineRatio', { token: k.viewer });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ online: 0, offline: 0, total: 0 });
  });
});

describe('teams', () => {
  it("a team member sees and changes only its teams' content, read-only where the team says so", async () => {
    const team = (await t.request('POST', '/api/team', { token: k.owner, json: { name: 'Content crew' } })).body.id as string;
    const member = await t.actor('EDITOR', { customerId: k.customerId });
    expect(
      (
        await t.request('PUT', `/api/team/updateUserAssignments?teamId=${team}`, {
          token: k.owner,
          json: { resourcesToAdd: [{ id: member.user.id }] },
        })
      ).status,
    ).toBe(200);
    const create = async (name: string, teamIds?: string) => {
      const res = await t.request('POST', `/api/simpleLoop?contentGroupId=${k.root.id}${teamIds ? `&teamIds=${teamIds}` : ''}`, {
        token: k.owner,
        json: { name, simpleLoopType: 'NORMAL', version: '2.0', data: k.playlist() },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);

      return res.body.id as string;
    };
    const mine = await create('Team loop', `${team}:false`);
    const readOnly = await create('Team read-only loop', `${team}:true`);
    // Content of another team (team-less content stays reachable while the tenant allows it, spec 1).
    const otherTeam = (await t.request('POST', '/api/team', { token: k.owner, json: { name: 'Other crew' } })).body.id as string;
    const hidden = await create('Other team loop', `${otherTeam}:false`);
    const list = await t.request('GET', '/api/v2/deviceContent?size=100&includeReadOnlyInfo=true&select=name', { token: member.token });
    const seen = new Map((list.body.content as { id: string; readOnly: boolean }[]).map((c) => [c.id, c.readOnly]));
    expect(seen.get(mine)).toBe(false);
    expect(seen.get(readOnly)).toBe(true);
    expect(seen.has(hidden)).toBe(false);
    expect((await t.request('PUT', `/api/simpleLoop/${mine}`, { token: member.token, json: { name: 'Renamed by member' } })).status).toBe(
      200,
    );
    const ro = await t.request('PUT', `/api/simpleLoop/${readOnly}`, { token: member.token, json: { name: 'x' } });
    expect(ro.status).toBe(403);
    expect(ro.body.key).toBe('team.error.readOnly');
    expect((await t.request('PUT', `/api/simpleLoop/${hidden}`, { token: member.token, json: { name: 'x' } })).status).toBe(404);
    expect((await t.request('GET', `/api/v2/deviceContent/${hidden}`, { token: member.token })).status).toBe(404);
  });
});
