import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { api, collectConsoleErrors, createCustomer, createUser, passwordGrant, screenshot, signIn, uniqueSuffix, uploadFile } from './fixtures';

/*
 * Content (issue 12): the content library with its folders, a playlist built in the editor from uploaded
 * images and a video by drag and drop, reordered, previewed, saved automatically and unchanged after a
 * reload; a slide from a starter template drawn by the renderer; locking as an approver makes the editor
 * read-only for an editor.
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
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText("'Lobby loop' is embedded in 'Outer loop'")).toBeVisible();
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
