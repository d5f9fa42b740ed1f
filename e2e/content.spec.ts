import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { api, collectConsoleErrors, createCustomer, createUser, passwordGrant, screenshot, signIn, uniqueSuffix, uploadFile } from './fixtures';

/*
 * Content (issue 12): the content library with its folders, a playlist built in the editor from uploaded
 * images and a video by drag and drop, reordered, previewed, saved automatically and unchanged after a
 * reload; a slide from a starter template drawn by the renderer; locking as an approver makes the editor
 * read-only for an editor; several items selected, moved by drag and by the bulk action (a locked one
 * refused), tagged, seen as cards with previews and deleted together; a playlist item's validity.
 */

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)));
const PNG = { name: 'poster.png', mimeType: 'image/png', buffer: fixture('poster.png') };
const PORTRAIT = { name: 'portrait.png', mimeType: 'image/png', buffer: fixture('portrait.png') };
const WEBM = { name: 'clip.webm', mimeType: 'video/webm', buffer: fixture('clip.webm') };

async function contentTenant(request: APIRequestContext) {
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, admin, `Content ${suffix}`);
  const editor = await createUser(request, admin, customer.id, 'EDITOR', 'Edda Editor', suffix);
  const approver = await createUser(request, admin, customer.id, 'APPROVER', 'Abe Approver', suffix);
  const files = {
    poster: await uploadFile(request, admin, customer.id, PNG, { withPreview: true }),
    portrait: await uploadFile(request, admin, customer.id, PORTRAIT, { withPreview: true }),
    clip: await uploadFile(request, admin, customer.id, WEBM),
  };

  return { admin, customer, editor, approver, files, suffix };
}

async function itemNames(page: Page): Promise<string[]> {
  return page.getByTestId('playlist-items').locator('li[data-name]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name') ?? ''));
}

test('an editor builds a playlist by drag and drop, reorders it, previews it, and finds it unchanged after a reload', async ({ page, request }) => {
  test.setTimeout(120_000);
  const t = await contentTenant(request);
  const errors = collectConsoleErrors(page);
  await signIn(page, t.editor.email, t.editor.password);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Content', exact: true }).click();
  await expect(page).toHaveURL(/\/content$/);
  await expect(page.getByTestId('content-folder-All content')).toBeVisible();
  await expect(page.getByTestId('content-folder-Templates')).toBeVisible();
  await screenshot(page, 'content-library-empty');

  // A folder, then a playlist in it.
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Lobby');
  await page.getByRole('button', { name: 'Create folder' }).click();
  await expect(page.getByTestId('content-folder-title')).toHaveText('Lobby');
  await page.getByRole('button', { name: 'New playlist' }).first().click();
  await page.getByRole('dialog').getByLabel('Name').fill('Lobby loop');
  await page.getByRole('button', { name: 'Create playlist' }).click();
  await expect(page).toHaveURL(/\/content\/[0-9a-f-]{36}$/);
  const loopId = page.url().split('/').at(-1)!;
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Lobby loop');

  // Drag two images and the video into the playlist.
  const list = page.getByTestId('playlist-items');
  for (const name of ['poster.png', 'portrait.png', 'clip.webm']) await page.getByTestId(`pick-${name}`).dragTo(list);
  await expect.poll(() => itemNames(page)).toEqual(['poster.png', 'portrait.png', 'clip.webm']);

  // Reorder by dragging the last item (by its grip at the left) onto the first.
  await page.getByTestId('playlist-item-2').dragTo(page.getByTestId('playlist-item-0'), { sourcePosition: { x: 10, y: 20 }, targetPosition: { x: 10, y: 10 } });
  await expect.poll(() => itemNames(page)).toEqual(['clip.webm', 'poster.png', 'portrait.png']);
  await page.getByLabel('Seconds for poster.png').fill('4');

  // Saved automatically.
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved', { timeout: 15_000 });
  await expect(page.getByTestId('save-status')).toContainText('Saved');

  // The preview plays the playlist with the renderer screens use.
  const preview = page.getByTestId('playlist-preview');
  await expect(preview.locator('[data-entry-key]').first()).toBeAttached();
  await expect(preview.locator(`[data-file-id]`).first()).toBeAttached();
  await screenshot(page, 'content-playlist-editor');

  // Undo and redo.
  await page.getByRole('button', { name: 'Remove portrait.png' }).click();
  await expect.poll(() => itemNames(page)).toEqual(['clip.webm', 'poster.png']);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => itemNames(page)).toEqual(['clip.webm', 'poster.png', 'portrait.png']);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved', { timeout: 15_000 });

  await page.reload();
  await expect.poll(() => itemNames(page)).toEqual(['clip.webm', 'poster.png', 'portrait.png']);
  await expect(page.getByLabel('Seconds for poster.png')).toHaveValue('4');

  // The library lists it in its folder.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Content', exact: true }).click();
  await page.getByTestId('content-folder-Lobby').getByRole('button', { name: /^Lobby/ }).click();
  await expect(page.getByRole('link', { name: 'Lobby loop' })).toBeVisible();
  await screenshot(page, 'content-library');
  expect(errors).toEqual([]);

  // Where it is embedded shows before deleting it (the refused delete below logs its 409 in the console).
  const editorToken = (await passwordGrant(request, t.editor.email, t.editor.password)).access_token;
  const root = (await api<{ content: { id: string }[] }>(request, editorToken, 'GET', `/api/v2/contentGroup?search=${encodeURIComponent('parentId=NULL')}`)).content[0]!.id;
  await api(request, editorToken, 'POST', `/api/simpleLoop?contentGroupId=${root}`, {
    name: 'Outer loop',
    simpleLoopType: 'NORMAL',
    version: '2.0',
    data: { loopData: { resolution: { width: 1920, height: 1080 } }, slides: [{ key: 'x', type: 'SIMPLE_LOOP', id: loopId }] },
  });
  await page.getByRole('button', { name: 'Actions for Lobby loop' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await expect(page.getByTestId('content-usage')).toContainText('Outer loop');
  await expect(page.getByTestId('content-delete-blocked')).toHaveText('It is embedded in “Outer loop”; remove it there first.');
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('alertdialog').getByText('It is embedded in “Outer loop”; remove it there first.')).toHaveCount(2);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('link', { name: 'Lobby loop' })).toBeVisible();
});

test('a slide from a starter template is drawn by the renderer; an approver locks it and an editor then only reads it', async ({ page, request, browser }) => {
  const t = await contentTenant(request);
  await signIn(page, t.editor.email, t.editor.password);
  await page.goto('/content');
  await page.getByRole('button', { name: 'New slide' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Welcome');
  await page.getByRole('dialog').getByLabel('Start from').selectOption({ label: 'Template: Welcome screen' });
  await page.getByRole('button', { name: 'Create slide' }).click();
  await expect(page).toHaveURL(/\/content\/[0-9a-f-]{36}$/);
  const slide = page.getByTestId('slide-preview');
  await expect(slide.locator('[data-widget="text"]').first()).toHaveText('Welcome');
  await expect(slide.locator('[data-widget="clock"]')).toHaveText(/^\d{2}:\d{2}$/);
  await screenshot(page, 'content-slide-preview');
  const id = page.url().split('/').at(-1)!;

  // The approver locks it in its own session.
  const approverContext = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const approverPage = await approverContext.newPage();
  await signIn(approverPage, t.approver.email, t.approver.password);
  await approverPage.goto(`/content/${id}`);
  await approverPage.getByRole('button', { name: 'Lock', exact: true }).click();
  await expect(approverPage.getByText('This item is locked.')).toBeVisible();
  await approverContext.close();

  await page.reload();
  await expect(page.getByText('This item is locked.')).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  // And the API refuses the editor's change.
  const editorToken = (await passwordGrant(request, t.editor.email, t.editor.password)).access_token;
  const res = await request.fetch(`/api/content/${id}`, { method: 'PUT', headers: { Authorization: `Bearer ${editorToken}` }, data: { name: 'Changed' } });
  expect(res.status()).toBe(409);
  expect(await api(request, t.admin, 'GET', `/api/v2/deviceContent/${id}?customerId=${t.customer.id}&select=name,locked`)).toMatchObject({ id, name: 'Welcome', locked: true });
});

type Listed = { content: Array<{ id: string; name: string; contentGroupId: string; tags?: string[] }> };

/** Content of the tenant as the API lists it, by name. */
async function listed(request: APIRequestContext, token: string): Promise<Map<string, Listed['content'][number]>> {
  const page = await api<Listed>(request, token, 'GET', '/api/v2/deviceContent?size=100&select=name,contentGroupId,tags');

  return new Map(page.content.map((c) => [c.name, c]));
}

async function tableNames(page: Page): Promise<string[]> {
  return page.getByRole('table').getByRole('link').allTextContents();
}

test('an editor selects several items, moves them by drag and by the bulk action, tags them, and sees them as cards with previews', async ({ page, request }) => {
  test.setTimeout(120_000);
  const t = await contentTenant(request);
  const token = (await passwordGrant(request, t.editor.email, t.editor.password)).access_token;
  const approverToken = (await passwordGrant(request, t.approver.email, t.approver.password)).access_token;
  const root = (await api<{ content: { id: string }[] }>(request, token, 'GET', `/api/v2/contentGroup?search=${encodeURIComponent('parentId=NULL')}`)).content[0]!.id;
  for (const name of ['Archive', 'Shelf']) await api(request, token, 'POST', '/api/contentGroup', { name });
  const templates = await api<{ content: { id: string; name: string }[] }>(request, token, 'GET', '/api/template?size=100');
  const welcome = templates.content.find((tpl) => tpl.name === 'Welcome screen')!;
  const slide = await api<{ id: string }>(request, token, 'POST', `/api/content/fromTemplate/${welcome.id}?contentGroupId=${root}`, { name: 'Gamma slide' });
  const loop = (name: string, slides: unknown[]) =>
    api<{ id: string }>(request, token, 'POST', `/api/simpleLoop?contentGroupId=${root}`, { name, simpleLoopType: 'NORMAL', version: '2.0', data: { loopData: { resolution: { width: 1920, height: 1080 } }, slides } });
  await loop('Alpha loop', [{ key: 'a', type: 'FILE', id: t.files.poster.id }]);
  await loop('Beta loop', [{ key: 'b', type: 'CONTENT', id: slide.id }]);
  const delta = await loop('Delta loop', []);
  await api(request, approverToken, 'POST', `/api/simpleLoop/lock/${delta.id}/true`);

  const errors = collectConsoleErrors(page);
  await signIn(page, t.editor.email, t.editor.password);
  await page.goto('/content');
  await expect.poll(() => tableNames(page)).toEqual(['Alpha loop', 'Beta loop', 'Delta loop', 'Gamma slide']);

  // A click and a shift-click select the range, the locked playlist with it.
  await page.getByLabel('Select Alpha loop').check();
  await page.getByLabel('Select Gamma slide').click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('selection-count')).toHaveText('4 items selected');
  await screenshot(page, 'content-library-selection');

  // Dragged onto a folder in the tree: the three move, the locked one is refused with the reason.
  const tree = page.getByRole('navigation', { name: 'Content folders' });
  await page.getByRole('row', { name: /Alpha loop/ }).getByRole('cell').nth(1).dragTo(tree.getByTestId('content-folder-Archive'), { sourcePosition: { x: 24, y: 24 } });
  await expect(page.getByRole('status').filter({ hasText: 'Moved 3 items to Archive.' })).toContainText('“Delta loop” is locked and stays where it is');
  await expect.poll(() => tableNames(page)).toEqual(['Delta loop']);
  const archive = (await api<{ content: { id: string }[] }>(request, token, 'GET', `/api/v2/contentGroup?search=${encodeURIComponent('name=Archive')}`)).content[0]!.id;
  const afterDrag = await listed(request, token);
  expect(['Alpha loop', 'Beta loop', 'Gamma slide'].map((n) => afterDrag.get(n)!.contentGroupId)).toEqual([archive, archive, archive]);
  expect(afterDrag.get('Delta loop')!.contentGroupId).toBe(root);

  // The locked playlist alone: refused, and it says why.
  await page.getByRole('row', { name: /Delta loop/ }).getByRole('cell').nth(1).dragTo(tree.getByTestId('content-folder-Shelf'), { sourcePosition: { x: 24, y: 24 } });
  await expect(page.getByRole('alert').filter({ hasText: '“Delta loop” is locked and stays where it is; an approver unlocks it to move it.' })).toBeVisible();

  // In Archive: every item on the page, tagged in one go.
  await tree.getByTestId('content-folder-Archive').getByRole('button', { name: /^Archive/ }).click();
  await expect.poll(() => tableNames(page)).toEqual(['Alpha loop', 'Beta loop', 'Gamma slide']);
  await page.getByLabel('Select all items on this page').check();
  await expect(page.getByTestId('selection-count')).toHaveText('3 items selected');
  await page.getByRole('toolbar', { name: 'Selected items' }).getByRole('button', { name: 'Add tags' }).click();
  const tagDialog = page.getByRole('alertdialog', { name: 'Add tags to 3 items' });
  await tagDialog.getByLabel('Tags to add').fill('spring');
  await tagDialog.getByLabel('Tags to add').press('Enter');
  await tagDialog.getByRole('button', { name: 'Add tags' }).click();
  await expect(tagDialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Added the tag spring to 3 items.' })).toBeVisible();
  await expect(page.getByRole('table').getByText('spring', { exact: true })).toHaveCount(3);

  // Two of them moved with the bulk action.
  await page.getByLabel('Select all items on this page').uncheck();
  await page.getByLabel('Select Alpha loop').check();
  await page.getByLabel('Select Beta loop').check();
  await page.getByRole('toolbar', { name: 'Selected items' }).getByRole('button', { name: 'Move', exact: true }).click();
  const moveDialog = page.getByRole('alertdialog', { name: 'Move 2 items' });
  await moveDialog.getByRole('button', { name: /^Shelf/ }).click();
  await moveDialog.getByRole('button', { name: 'Move here' }).click();
  await expect(moveDialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Moved 2 items to Shelf.' })).toBeVisible();
  await expect.poll(() => tableNames(page)).toEqual(['Gamma slide']);

  // The grid, kept in the URL: the slide drawn by the renderer, a playlist by its first file's thumbnail or its first slide.
  await tree.getByTestId('content-folder-Shelf').getByRole('button', { name: /^Shelf/ }).click();
  await page.getByRole('button', { name: 'Grid' }).click();
  await expect(page).toHaveURL(/view=grid/);
  const card = (name: string) => page.getByTestId('content-card').filter({ has: page.getByText(name, { exact: true }) });
  await expect(page.getByTestId('content-card')).toHaveCount(2);
  await expect(card('Alpha loop').locator('img')).toHaveAttribute('src', /\/files\/[0-9a-f-]+\.tmb/);
  await expect(card('Beta loop').getByTestId('slide-preview').locator('[data-widget="text"]').first()).toHaveText('Welcome');
  await page.reload();
  await expect(page.getByTestId('content-card')).toHaveCount(2);
  await tree.getByTestId('content-folder-Archive').getByRole('button', { name: /^Archive/ }).click();
  await expect(card('Gamma slide').getByTestId('slide-preview').locator('[data-widget="text"]').first()).toHaveText('Welcome');

  // One item's tags, from its card's menu.
  await card('Gamma slide').getByRole('button', { name: 'Actions for Gamma slide' }).click();
  await page.getByRole('menuitem', { name: 'Tags…' }).click();
  const editTags = page.getByRole('alertdialog', { name: 'Tags of Gamma slide' });
  await expect(editTags.getByText('spring')).toBeVisible();
  await editTags.getByLabel('Tags').fill('lobby');
  await editTags.getByLabel('Tags').press('Enter');
  await editTags.getByRole('button', { name: 'Save tags' }).click();
  await expect(editTags).toBeHidden();
  await expect(card('Gamma slide').getByText('lobby')).toBeVisible();
  expect((await listed(request, token)).get('Gamma slide')!.tags).toEqual(['spring', 'lobby']);
  await tree.getByTestId('content-folder-Shelf').getByRole('button', { name: /^Shelf/ }).click();
  await expect(page.getByTestId('content-card')).toHaveCount(2);
  await screenshot(page, 'content-library-grid');

  // Selected cards dragged onto a folder; then deleted together, the embedder first.
  await card('Alpha loop').getByLabel('Select Alpha loop').check({ force: true });
  await card('Beta loop').getByRole('button', { name: 'Open Beta loop' }).click();
  await expect(page.getByTestId('selection-count')).toHaveText('2 items selected');
  await card('Beta loop').dragTo(tree.getByTestId('content-folder-Archive'));
  await expect(page.getByRole('status').filter({ hasText: 'Moved 2 items to Archive.' })).toBeVisible();
  await tree.getByTestId('content-folder-Archive').getByRole('button', { name: /^Archive/ }).click();
  await expect(page.getByTestId('content-card')).toHaveCount(3);
  await card('Beta loop').getByLabel('Select Beta loop').check({ force: true });
  await card('Gamma slide').getByLabel('Select Gamma slide').check({ force: true });
  await page.getByRole('toolbar', { name: 'Selected items' }).getByRole('button', { name: 'Delete' }).click();
  const deleteDialog = page.getByRole('alertdialog', { name: 'Delete 2 items?' });
  await expect(deleteDialog).toContainText('No other content embeds them.');
  await screenshot(page, 'content-library-bulk-delete');
  await deleteDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(deleteDialog).toBeHidden();
  await expect(page.getByTestId('content-card')).toHaveCount(1);
  expect([...(await listed(request, token)).keys()].sort()).toEqual(['Alpha loop', 'Delta loop']);
  expect(errors).toEqual([]);
});

test('a playlist item gets a validity in its row, part of undo and autosave, and keeps it after a reload', async ({ page, request }) => {
  const t = await contentTenant(request);
  const token = (await passwordGrant(request, t.editor.email, t.editor.password)).access_token;
  const root = (await api<{ content: { id: string }[] }>(request, token, 'GET', `/api/v2/contentGroup?search=${encodeURIComponent('parentId=NULL')}`)).content[0]!.id;
  const loop = await api<{ id: string }>(request, token, 'POST', `/api/simpleLoop?contentGroupId=${root}`, {
    name: 'Timed loop',
    simpleLoopType: 'NORMAL',
    version: '2.0',
    data: {
      loopData: { resolution: { width: 1920, height: 1080 } },
      slides: [
        { key: 'p', type: 'FILE', id: t.files.poster.id },
        { key: 'q', type: 'FILE', id: t.files.portrait.id },
      ],
    },
  });
  await signIn(page, t.editor.email, t.editor.password);
  await page.goto(`/content/${loop.id}`);
  await expect.poll(() => itemNames(page)).toEqual(['poster.png', 'portrait.png']);

  // The poster ended yesterday: the row says it is skipped.
  await page.getByRole('button', { name: 'Validity of poster.png' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Validity of poster.png' });
  await dialog.getByLabel('Valid from').fill('2024-01-01T08:00');
  await dialog.getByLabel('Valid until').fill('2024-06-30T18:00');
  await dialog.getByRole('button', { name: 'Set validity' }).click();
  await expect(dialog).toBeHidden();
  const poster = page.getByTestId('playlist-item-0');
  await expect(poster.getByTestId('item-validity')).toContainText('Expired');
  await expect(poster).toHaveAttribute('data-skipped', 'true');
  await expect(poster).toContainText('Skipped now');

  // Undo and redo take it back and forth like any other edit.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(poster.getByTestId('item-validity')).not.toContainText('Expired');
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect(poster.getByTestId('item-validity')).toContainText('Expired');
  // Saved automatically (the status may still read "Saved" for a moment after the redo, so ask the API).
  const slides = async () => (await api<{ data: { slides: Array<{ key: string; validFrom?: number; validTo?: number }> } }>(request, token, 'GET', `/api/v2/deviceContent/${loop.id}`)).data.slides;
  await expect.poll(async () => (await slides())[0], { timeout: 15_000 }).toMatchObject({ key: 'p', validFrom: new Date('2024-01-01T08:00').getTime(), validTo: new Date('2024-06-30T18:00').getTime() });
  expect((await slides())[1]!.validTo).toBeUndefined();
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved', { timeout: 15_000 });
  await screenshot(page, 'content-playlist-validity');

  await page.reload();
  await expect(page.getByTestId('playlist-item-0').getByTestId('item-validity')).toContainText('Expired');
  await expect(page.getByTestId('playlist-item-1')).not.toHaveAttribute('data-skipped', 'true');

  // The dialog opens with the saved window; clearing it makes the item play again.
  await page.getByRole('button', { name: 'Validity of poster.png' }).click();
  await expect(dialog.getByLabel('Valid until')).toHaveValue('2024-06-30T18:00');
  await dialog.getByRole('button', { name: 'Clear both' }).click();
  await dialog.getByRole('button', { name: 'Set validity' }).click();
  await expect(page.getByTestId('playlist-item-0')).not.toHaveAttribute('data-skipped', 'true');
});
