import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Locator, type Page, type Route } from '@playwright/test';
import { collectConsoleErrors, createCustomer, passwordGrant, signIn } from './fixtures';

/*
 * The media library end to end: real PNG and WebM files (e2e/fixtures/, made with ffmpeg) go through
 * Uppy and the chunked upload sessions; thumbnails are made in the browser.
 */

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));
const PNG = join(FIXTURES, 'poster.png');
const PORTRAIT = join(FIXTURES, 'portrait.png');
const VIDEO = join(FIXTURES, 'clip.webm');
const SHOTS = process.env.E2E_SHOTS_DIR ?? 'test-results/screens';

function shot(page: Page, name: string) {
  return page.screenshot({ path: join(SHOTS, `media-${name}.png`), fullPage: true });
}

type Seeded = { email: string; password: string; customerId: number; token: string };

async function seedTenant(request: APIRequestContext, label: string): Promise<Seeded> {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Media ${label} ${suffix}`);
  const email = `media-owner-${suffix}@example.com`;
  const password = `Media-owner-${suffix}`;
  const res = await request.post(`/api/user/?customerId=${customer.id}`, {
    headers: { Authorization: `Bearer ${admin.access_token}` },
    data: { email, name: 'Mia Media', role: 'OWNER', password },
  });
  expect(res.status(), await res.text()).toBe(201);

  return { email, password, customerId: customer.id, token: admin.access_token };
}

async function apiFiles(request: APIRequestContext, seeded: Seeded, search?: string) {
  const params = new URLSearchParams({
    customerId: String(seeded.customerId),
    size: '100',
    select: 'name,fileFolderId,tags,thumbnail,size,width,height',
  });
  if (search) params.set('search', search);
  const res = await request.get(`/api/v2/file?${params}`, { headers: { Authorization: `Bearer ${seeded.token}` } });
  expect(res.status()).toBe(200);

  return (
    (await res.json()) as {
      content: Array<{
        id: string;
        name: string;
        fileFolderId: string;
        tags?: string[];
        thumbnail?: string;
        width?: number;
        height?: number;
      }>;
    }
  ).content;
}

function uppyInput(page: Page): Locator {
  return page.getByTestId('upload-panel').locator('input[type=file]:not([webkitdirectory])').first();
}

async function openMedia(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Media' }).click();
  await expect(page.getByRole('heading', { name: 'Media', level: 1 })).toBeVisible();
}

async function createFolder(page: Page, name: string) {
  await page.getByRole('button', { name: 'New folder' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New folder' });
  await dialog.getByLabel('Folder name').fill(name);
  await dialog.getByRole('button', { name: 'Create folder' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('tree', { name: 'Folders' }).getByRole('button', { name: name, exact: true })).toBeVisible();
}

function card(page: Page, name: string): Locator {
  return page.getByTestId('file-card').filter({ has: page.getByRole('button', { name: `Open ${name}`, exact: true }) });
}

test('a tenant administrator organises, uploads, previews, tags, moves and deletes media', async ({ page, request }) => {
  test.setTimeout(240_000);
  mkdirSync(SHOTS, { recursive: true });
  const errors = collectConsoleErrors(page);
  // Names the resource behind a "Failed to load resource: 404" console error, should one appear.
  page.on('response', (res) => {
    if (res.status() === 404) console.log(`404 ${res.request().method()} ${res.url()}`);
  });
  const seeded = await seedTenant(request, 'Library');

  await signIn(page, seeded.email, seeded.password);
  await openMedia(page);
  await expect(page.getByTestId('media-empty')).toContainText('No media yet');
  await shot(page, 'empty');

  // Folders.
  await createFolder(page, 'Campaign assets');
  await createFolder(page, 'Archive');
  const tree = page.getByRole('tree', { name: 'Folders' });
  await tree.getByRole('button', { name: 'Campaign assets', exact: true }).click();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Campaign assets');
  await expect(page).toHaveURL(/folder=/);

  // Upload a PNG, a portrait PNG and a WebM video through Uppy and the chunked sessions.
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByTestId('upload-panel')).toBeVisible();
  const sessions: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/api/v2/file/upload/init')) sessions.push(req.url());
  });
  await uppyInput(page).setInputFiles([PNG, PORTRAIT, VIDEO]);
  await expect(page.getByTestId('upload-summary')).toContainText('Uploaded 3 files', { timeout: 60_000 });
  expect(sessions).toHaveLength(3);
  await shot(page, 'uploaded');
  await page.getByTestId('upload-panel').getByRole('button', { name: 'Close' }).click();

  // Thumbnails made in the browser are served back (the cookie authenticates <img>).
  for (const name of ['poster.png', 'portrait.png', 'clip.webm']) {
    const img = card(page, name).locator('img');
    await expect(img).toHaveAttribute('src', /\.tmb/);
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  }
  const stored = await apiFiles(request, seeded);
  expect(stored.map((f) => f.name).sort()).toEqual(['clip.webm', 'portrait.png', 'poster.png']);
  expect(stored.find((f) => f.name === 'clip.webm')).toMatchObject({ width: 320, height: 180 });
  expect(stored.find((f) => f.name === 'poster.png')).toMatchObject({ width: 640, height: 360 });
  await shot(page, 'grid');

  // Filters: orientation and type go to the server as search terms.
  await page.getByLabel('Orientation').selectOption('portrait');
  await expect(page.getByTestId('file-card')).toHaveCount(1);
  await expect(card(page, 'portrait.png')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(page.getByTestId('file-card')).toHaveCount(3);
  await page.getByLabel('Type').selectOption('video');
  await expect(page.getByTestId('file-card')).toHaveCount(1);
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(page.getByTestId('file-card')).toHaveCount(3);

  // Detail panel: the video plays and seeks.
  await page.getByRole('button', { name: 'Open clip.webm', exact: true }).click();
  const panel = page.getByRole('complementary', { name: 'File details' });
  await expect(panel.getByRole('heading', { name: 'clip.webm' })).toBeVisible();
  const video = panel.locator('video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 1 && v.duration)).toBeGreaterThan(2.5);
  const seekedTo = await video.evaluate(
    (v: HTMLVideoElement) =>
      new Promise<number>((resolve) => {
        v.addEventListener('seeked', () => resolve(v.currentTime), { once: true });
        v.currentTime = 2;
      }),
  );
  expect(seekedTo).toBeCloseTo(2, 0);
  await video.evaluate(async (v: HTMLVideoElement) => {
    v.muted = true;
    await v.play();
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 2)).toBe(true);
  await video.evaluate((v: HTMLVideoElement) => v.pause());
  await expect(panel).toContainText('320×180');
  await expect(panel).toContainText('Not used by any content');

  // Tags.
  const tagBox = panel.getByLabel('File tags');
  await tagBox.fill('lobby');
  await tagBox.press('Enter');
  await tagBox.fill('summer');
  await tagBox.press('Enter');
  await panel.getByRole('button', { name: 'Save tags' }).click();
  await expect(panel.getByText('Tags saved.')).toBeVisible();
  await expect
    .poll(async () => (await apiFiles(request, seeded)).find((f) => f.name === 'clip.webm')?.tags?.sort())
    .toEqual(['lobby', 'summer']);
  await shot(page, 'detail-video');
  await panel.getByRole('button', { name: 'Close details' }).click();

  // Plain words search names and tags; the view is saved as a quick filter.
  await page.getByLabel('Search files by name or tag').fill('lobby');
  await expect(page.getByTestId('file-card')).toHaveCount(1);
  await expect(page).toHaveURL(/q=lobby/);
  await page.getByRole('button', { name: 'Save as quick filter' }).click();
  const qfDialog = page.getByRole('dialog', { name: 'Save as quick filter' });
  await qfDialog.getByLabel('Quick filter name').fill('Lobby media');
  await qfDialog.getByRole('button', { name: 'Save quick filter' }).click();
  await expect(qfDialog).toBeHidden();
  const quickFilters = page.getByRole('list', { name: 'Quick filters' });
  await expect(quickFilters.getByRole('button', { name: 'Lobby media' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('file-card')).toHaveCount(1);
  await expect(card(page, 'clip.webm')).toBeVisible();
  await shot(page, 'quick-filter');

  // The same quick filter as a filtered folder (created through the API) shows in the tree and opens its files.
  const auth = { Authorization: `Bearer ${seeded.token}` };
  const qfRes = await request.get(`/api/v2/quickFilter?customerId=${seeded.customerId}&search=${encodeURIComponent('name=Lobby media')}`, {
    headers: auth,
  });
  const quickFilterId = ((await qfRes.json()) as { content: Array<{ id: string }> }).content[0]!.id;
  const rootRes = await request.get(`/api/v2/fileFolder?customerId=${seeded.customerId}&search=${encodeURIComponent('parentId=NULL')}`, {
    headers: auth,
  });
  const rootId = ((await rootRes.json()) as { content: Array<{ id: string }> }).content[0]!.id;
  const filtered = await request.post(
    `/api/fileFolder/addFilteredFileFolder?customerId=${seeded.customerId}&parentId=${rootId}&name=Lobby%20screens&quickFilterId=${quickFilterId}`,
    { headers: auth },
  );
  expect(filtered.status(), await filtered.text()).toBe(201);
  await quickFilters.getByRole('button', { name: 'Lobby media' }).click();
  await page.reload();
  await tree.getByRole('button', { name: 'Lobby screens', exact: true }).click();
  await expect(quickFilters.getByRole('button', { name: 'Lobby media' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('file-card')).toHaveCount(1);
  await expect(card(page, 'clip.webm')).toBeVisible();
  await shot(page, 'filtered-folder');
  await tree.getByRole('button', { name: 'Campaign assets', exact: true }).click();
  await expect(page.getByTestId('file-card')).toHaveCount(3);

  // Drag a card onto a folder in the tree: moveBatchToFolder.
  const archive = await request.get(`/api/v2/fileFolder?customerId=${seeded.customerId}&search=${encodeURIComponent('name=Archive')}`, {
    headers: { Authorization: `Bearer ${seeded.token}` },
  });
  const archiveId = ((await archive.json()) as { content: Array<{ id: string }> }).content[0]!.id;
  await card(page, 'poster.png').dragTo(tree.getByTestId('folder-node-Archive'));
  await expect(page.getByRole('status').filter({ hasText: 'Moved 1 item to Archive' })).toBeVisible();
  await expect(page.getByTestId('file-card')).toHaveCount(2);
  await expect.poll(async () => (await apiFiles(request, seeded)).find((f) => f.name === 'poster.png')?.fileFolderId).toBe(archiveId);

  // The same bytes again: a duplicate notice (matched by CRC32).
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await uppyInput(page).setInputFiles([PNG]);
  await expect(page.getByTestId('duplicate-notice')).toContainText('poster.png has the same content as “poster.png”');
  await expect(page.getByTestId('upload-summary')).toContainText('Uploaded poster.png');
  await shot(page, 'duplicate');
  await page.getByTestId('upload-panel').getByRole('button', { name: 'Close' }).click();

  // Bulk: table view, select everything on the page, add a tag, then delete with the preflight.
  await page.getByRole('button', { name: 'Table' }).click();
  await expect(page).toHaveURL(/view=table/);
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(4);
  await page.getByLabel('Select all files on this page').check();
  await expect(page.getByTestId('selection-count')).toHaveText('3 files selected');
  await page.getByRole('toolbar', { name: 'Selected files' }).getByRole('button', { name: 'Add tags' }).click();
  const tagDialog = page.getByRole('alertdialog', { name: 'Add tags to 3 files' });
  await tagDialog.getByLabel('Tags to add').fill('spring');
  await tagDialog.getByLabel('Tags to add').press('Enter');
  await tagDialog.getByRole('button', { name: 'Add tags' }).click();
  await expect(tagDialog).toBeHidden();
  await expect(table.getByText('spring')).toHaveCount(3);
  await shot(page, 'table-bulk');
  await page.getByLabel('Select all files on this page').check();
  await page.getByRole('toolbar', { name: 'Selected files' }).getByRole('button', { name: 'Delete' }).click();
  const deleteDialog = page.getByRole('alertdialog', { name: 'Delete 3 files?' });
  await expect(deleteDialog).toContainText('None of these files is used anywhere.');
  await shot(page, 'bulk-delete');
  await deleteDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(deleteDialog).toBeHidden();
  await expect(page.getByTestId('media-empty')).toContainText('Campaign assets is empty');
  expect((await apiFiles(request, seeded)).map((f) => f.name)).toEqual(['poster.png']);

  // Rename, then delete a folder with a file in it (recursive, confirmed).
  await page.getByRole('button', { name: 'Grid' }).click();
  await tree.getByRole('button', { name: 'Archive', exact: true }).click();
  await expect(page).not.toHaveURL(/view=table/);
  await expect(card(page, 'poster.png')).toBeVisible();
  await page.getByRole('button', { name: 'Actions for folder Archive' }).click();
  await page.getByRole('menuitem', { name: 'Rename folder' }).click();
  const renameDialog = page.getByRole('dialog', { name: 'Rename folder' });
  await renameDialog.getByLabel('Folder name').fill('Old campaigns');
  await renameDialog.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Old campaigns');
  await page.getByRole('button', { name: 'Actions for folder Old campaigns' }).click();
  await page.getByRole('menuitem', { name: 'Delete folder' }).click();
  const folderDialog = page.getByRole('alertdialog', { name: 'Delete “Old campaigns”?' });
  await expect(folderDialog).toContainText('1 file will be deleted with it.');
  await folderDialog.getByRole('button', { name: 'Delete folder' }).click();
  await expect(folderDialog).toBeHidden();
  await expect(tree.getByRole('button', { name: 'Old campaigns', exact: true })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveText('All media');
  expect(await apiFiles(request, seeded)).toEqual([]);

  expect(errors).toEqual([]);
});

test('a chunked upload interrupted by a reload continues with only the missing parts', async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const seeded = await seedTenant(request, 'Resume');
  // 20 MiB of JSON: three parts (the console aims at 8 MiB parts; the server makes them equal, ceil(size / 3)).
  // A file on disk keeps its lastModified across the reload.
  const big = testInfo.outputPath('big-data.json');
  const size = 20 * 1024 * 1024;
  writeFileSync(big, `{"data":"${'x'.repeat(size - 12)}"}`);

  await signIn(page, seeded.email, seeded.password);
  await openMedia(page);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();

  // Hold back every part but the first, so the page is reloaded mid-upload.
  const partUrl = /\/api\/v2\/file\/upload\/[^/]+\/part\/(\d+)/;
  const firstPart = page.waitForResponse((res) => partUrl.test(res.url()) && res.url().match(partUrl)![1] === '1' && res.status() === 200);
  const heldParts: Route[] = [];
  await page.route(partUrl, async (route) => {
    if (route.request().url().match(partUrl)![1] === '1') await route.continue();
    // Others hang until the reload; then they are aborted (their page is gone), not left paused in the browser.
    else heldParts.push(route);
  });
  await uppyInput(page).setInputFiles(big);
  await firstPart;
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          Object.values(JSON.parse(localStorage.getItem('signage.media.uploads') ?? '{}') as Record<string, { uploadedBytes: number }>)[0]
            ?.uploadedBytes ?? 0,
      ),
    )
    .toBe(Math.ceil(size / 3));
  await shot(page, 'resume-before-reload');

  // Reload while the held parts still hang (unrouting first would let them through).
  await page.reload();
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await Promise.all(heldParts.map((route) => route.abort().catch(() => undefined)));
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByTestId('unfinished-uploads')).toContainText('big-data.json');
  await shot(page, 'resume-unfinished');

  const partsAfterReload: string[] = [];
  page.on('request', (req) => {
    const match = req.url().match(partUrl);
    if (match && req.method() === 'PUT') partsAfterReload.push(match[1]!);
  });
  // Hold the parts again to pause mid-way: pause aborts them, resume sends them again.
  await page.route(partUrl, () => undefined);
  const recovered = page.waitForResponse((res) => res.url().includes('/recover') && res.status() === 200);
  const held = page.waitForRequest((req) => partUrl.test(req.url()));
  await uppyInput(page).setInputFiles(big);
  const recovery = (await (await recovered).json()) as { uploadedChunks: number[]; missingChunks: number[] };
  expect(recovery.uploadedChunks).toEqual([1]);
  expect(recovery.missingChunks).toEqual([2, 3]);
  await held;
  const panel = page.getByTestId('upload-panel');
  await panel.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(panel.getByRole('button', { name: 'Resume', exact: true })).toBeVisible();
  await shot(page, 'resume-paused');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await panel.getByRole('button', { name: 'Resume', exact: true }).click();
  await expect(page.getByTestId('upload-summary')).toContainText('Uploaded big-data.json', { timeout: 60_000 });
  // Only the missing parts went up after the reload (sent again after the pause).
  expect([...new Set(partsAfterReload)].sort()).toEqual(['2', '3']);
  await expect(page.getByTestId('unfinished-uploads')).toBeHidden();
  const files = await apiFiles(request, seeded);
  expect(files).toHaveLength(1);
  expect(files[0]).toMatchObject({ name: 'big-data.json' });
  await shot(page, 'resume-done');
});

test('a viewer browses the library without upload or edit controls', async ({ page, request }) => {
  const seeded = await seedTenant(request, 'Viewer');
  const email = `media-viewer-${Date.now().toString(36)}@example.com`;
  const res = await request.post(`/api/user/?customerId=${seeded.customerId}`, {
    headers: { Authorization: `Bearer ${seeded.token}` },
    data: { email, name: 'Vic Viewer', role: 'VIEWER', password: 'Viewer-pass-123' },
  });
  expect(res.status(), await res.text()).toBe(201);
  const upload = await request.post(`/api/file?customerId=${seeded.customerId}`, {
    headers: { Authorization: `Bearer ${seeded.token}` },
    multipart: { files: { name: 'poster.png', mimeType: 'image/png', buffer: readFileSync(PNG) } },
  });
  expect(upload.status(), await upload.text()).toBe(200);

  await signIn(page, email, 'Viewer-pass-123');
  await openMedia(page);
  await expect(card(page, 'poster.png')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New folder' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Open poster.png', exact: true }).click();
  const panel = page.getByRole('complementary', { name: 'File details' });
  await expect(panel.getByRole('img', { name: 'poster.png' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Rename' })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Save tags' })).toHaveCount(0);
  await shot(page, 'viewer');
});
