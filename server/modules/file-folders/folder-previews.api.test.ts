import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderTestKit, type Folder, type FolderTestKit } from './file-folders.test-kit';

/**
 * Issue 28 item 12: a restricted member's folder card showed the thumbnail of a file it may not read
 * (the `.tmb` answered 404) and counted files it never lists.
 */
let k: FolderTestKit;
let member: string;
let shared: Folder;
let visible: { id: string };
let hidden: { id: string };

beforeAll(async () => {
  k = await folderTestKit();
  const { t, owner, customerId } = k;
  const team = (await t.request('POST', '/api/team', { token: owner, json: { name: 'Store A' } })).body.id as string;
  const restricted = await t.actor('EDITOR', { customerId, restricted: true });
  member = restricted.token;
  shared = await k.createOk(k.rootId, 'Shared');
  // By name, the hidden file comes first: the folder's own preview would pick it.
  hidden = await k.insertFile(shared, { name: 'a-hidden.png', lastPreviewUploadTime: new Date() });
  visible = await k.insertFile(shared, { name: 'b-visible.png', lastPreviewUploadTime: new Date() });
  const assign = (type: string, id: string) =>
    t.request('PUT', `/api/team/update${type}Assignments?teamId=${team}`, { token: owner, json: { resourcesToAdd: [{ id }] } });
  for (const res of [await assign('User', restricted.user.id), await assign('FileFolder', shared.id), await assign('File', visible.id)])
    expect(res.status, JSON.stringify(res.body)).toBe(200);
});
afterAll(() => k.t.close());

describe("a team user's folder previews", () => {
  it('show a file the member may read, and count only those files', async () => {
    const { t } = k;
    const list = await t.request('GET', `/api/v2/fileFolder?select=name,fileCount,firstFileThumbnail&search=id=${shared.id}`, {
      token: member,
    });
    expect(list.body.content).toEqual([
      expect.objectContaining({ id: shared.id, fileCount: 1, firstFileThumbnail: expect.stringContaining(`/files/${visible.id}.tmb`) }),
    ]);
    const one = await t.request('GET', `/api/v2/fileFolder/${shared.id}?select=fileCount,firstFileThumbnail`, { token: member });
    expect(one.body).toMatchObject({ fileCount: 1, firstFileThumbnail: expect.stringContaining(`/files/${visible.id}.tmb`) });
    const summary = await t.request(
      'GET',
      `/api/v2/file/view/summary?folderSearch=id=${shared.id}&folderSelect=fileCount,firstFileThumbnail`,
      { token: member },
    );
    expect(summary.body.fileFolders[0]).toMatchObject({
      fileCount: 1,
      firstFileThumbnail: expect.stringContaining(`/files/${visible.id}.tmb`),
    });
    // What the card links to is readable; the other file is not.
    expect((await t.request('GET', `/api/v2/file/${visible.id}`, { token: member })).status).toBe(200);
    expect((await t.request('GET', `/api/v2/file/${hidden.id}`, { token: member })).status).toBe(404);
  });

  it('stay whole for the OWNER', async () => {
    const res = await k.t.request('GET', `/api/v2/fileFolder/${shared.id}?select=fileCount,firstFileThumbnail`, { token: k.owner });
    expect(res.body).toMatchObject({ fileCount: 2, firstFileThumbnail: expect.stringContaining(`/files/${hidden.id}.tmb`) });
  });
});
