import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  createCustomer,
  createUser,
  passwordGrant,
  rootGroupId,
  screenshot,
  signIn,
  uniqueSuffix,
  uploadFile,
} from './fixtures';

/*
 * Content (issue 12): the content library with its folders, a playlist built in the editor from uploaded
 * images and a video by drag and drop, reordered, previewed, saved automatically and unchanged after a
 * reload; a slide from a starter template drawn by the renderer; locking as an approver makes the editor
 * read-only for an editor; a slide built in the visual editor (text, image, clock), its widgets moved and
 * resized with the mouse and the keyboard, unchanged after a reload; interactive content with pages; several
 * items selected, moved by drag and by the bulk action (a locked one refused), tagged, seen as cards with
 * previews and deleted together; a playlist item's validity.
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

/** Creates a slide from the content library's "New slide" dialog and answers its id once its editor is open. */
async function newSlide(page: Page, name: string, startFrom: string): Promise<string> {
  await page.goto('/content');
  await page.getByRole('button', { name: 'New slide' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill(name);
  await page.getByRole('dialog').getByLabel('Start from').selectOption({ label: startFrom });
  await page.getByRole('button', { name: 'Create slide' }).click();
  await expect(page).toHaveURL(/\/content\/[0-9a-f-]{36}$/);

  return page.url().split('/').at(-1)!;
}

async function itemNames(page: Page): Promise<string[]> {
  return page
    .getByTestId('playlist-items')
    .locator('li[data-name]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name') ?? ''));
}

test('an editor builds a playlist by drag and drop, reorders it, previews it, and finds it unchanged after a reload', async ({
  page,
  request,
}) => {
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
  await page
    .getByTestId('playlist-item-2')
    .dragTo(page.getByTestId('playlist-item-0'), { sourcePosition: { x: 10, y: 20 }, targetPosition: { x: 10, y: 10 } });
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

  // Undo while the removal is still being saved (a slow network): the undo is saved after it, not lost.
  await page.route(`**/api/simpleLoop/${loopId}*`, async (route) => {
    if (route.request().method() === 'PUT') await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  const removalSent = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes(loopId));
  await page.getByRole('button', { name: 'Remove portrait.png' }).click();
  await expect.poll(() => itemNames(page)).toEqual(['clip.webm', 'poster.png']);
  await removalSent;
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => itemNames(page)).toEqual(['clip.webm', 'poster.png', 'portrait.png']);
  await expect
    .poll(
      async () =>
        (
          (await api(request, t.admin, 'GET', `/api/v2/deviceContent/${loopId}?customerId=${t.customer.id}&select=data`)) as {
            data: { slides: unknown[] };
          }
        ).data.slides.length,
      { timeout: 20_000 },
    )
    .toBe(3);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved', { timeout: 15_000 });
  await page.unroute(`**/api/simpleLoop/${loopId}*`);

  await page.reload();
  await expect.poll(() => itemNames(page)).toEqual(['clip.webm', 'poster.png', 'portrait.png']);
  await expect(page.getByLabel('Seconds for poster.png')).toHaveValue('4');

  // The library lists it in its folder.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Content', exact: true }).click();
  await page
    .getByTestId('content-folder-Lobby')
    .getByRole('button', { name: /^Lobby/ })
    .click();
  await expect(page.getByRole('link', { name: 'Lobby loop' })).toBeVisible();
  await screenshot(page, 'content-library');
  expect(errors).toEqual([]);

  // Where it is embedded shows before deleting it (the refused delete below logs its 409 in the console).
  const editorToken = (await passwordGrant(request, t.editor.email, t.editor.password)).access_token;
  const root = await rootGroupId(request, editorToken, 'contentGroup');
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

test('a slide from a starter template is drawn by the renderer; an approver locks it and an editor then only reads it', async ({
  page,
  request,
  browser,
}) => {
  // Two sign-ins and a dozen pages: over a minute on a busy machine.
  test.setTimeout(120_000);
  const t = await contentTenant(request);
  await signIn(page, t.editor.email, t.editor.password);
  const id = await newSlide(page, 'Welcome', 'Template: Welcome screen');
  const slide = page.getByTestId('slide-canvas');
  await expect(slide.locator('[data-widget="text"]').first()).toHaveText('Welcome');
  await expect(slide.locator('[data-widget="clock"]')).toHaveText(/^\d{2}:\d{2}$/);
  await screenshot(page, 'content-slide-preview');

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
  await expect(page.getByRole('toolbar', { name: 'Add a widget' })).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Page properties' }).getByLabel('Colour')).toBeDisabled();
  // And the API refuses the editor's change.
  const editorToken = (await passwordGrant(request, t.editor.email, t.editor.password)).access_token;
  const res = await request.fetch(`/api/content/${id}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${editorToken}` },
    data: { name: 'Changed' },
  });
  expect(res.status()).toBe(409);
  expect(await api(request, t.admin, 'GET', `/api/v2/deviceContent/${id}?customerId=${t.customer.id}&select=name,locked`)).toMatchObject({
    id,
    name: 'Welcome',
    locked: true,
  });
});

/** A widget's box as the properties panel shows it. */
async function boxOf(page: Page) {
  const panel = page.getByRole('group', { name: /properties$/ });
  const value = async (label: string) => Number(await panel.getByLabel(label, { exact: true }).inputValue());

  return { x: await value('X'), y: await value('Y'), width: await value('Width'), height: await value('Height') };
}

/** Drags `locator` by (dx, dy) screen pixels, in steps as a hand does; grabbed at its centre or `at` from its left. */
async function dragBy(page: Page, locator: ReturnType<Page['locator']>, dx: number, dy: number, at?: number) {
  await locator.scrollIntoViewIfNeeded();
  const b = (await locator.boundingBox())!;
  const x = b.x + (at ?? b.width / 2);
  const y = b.y + b.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(x + (dx * i) / 8, y + (dy * i) / 8);
  await page.mouse.up();
}

test('new widgets do not land on top of the last one: each goes a step down and right, inside the slide', async ({ page, request }) => {
  test.setTimeout(180_000);
  const t = await contentTenant(request);
  await signIn(page, t.editor.email, t.editor.password);
  await newSlide(page, 'Stacked board', 'Blank, landscape (1920 × 1080)');
  const canvas = page.getByTestId('slide-canvas');
  const addBar = page.getByRole('toolbar', { name: 'Add a widget' });
  const boxes: Array<Awaited<ReturnType<typeof boxOf>>> = [];
  for (let i = 1; i <= 3; i++) {
    await addBar.getByRole('button', { name: 'Add text' }).click();
    await expect(canvas.locator('[data-widget="text"]')).toHaveCount(i);
    boxes.push(await boxOf(page));
  }
  const [first, second, third] = boxes as [(typeof boxes)[number], (typeof boxes)[number], (typeof boxes)[number]];
  expect(second.x).toBeGreaterThan(first.x);
  expect(second.y).toBeGreaterThan(first.y);
  expect(third.x - second.x).toBe(second.x - first.x);
  expect(third.y - second.y).toBe(second.y - first.y);
  for (const box of boxes) {
    expect(box.x + box.width).toBeLessThanOrEqual(1920);
    expect(box.y + box.height).toBeLessThanOrEqual(1080);
  }
  // On the canvas too: three text widgets, none drawn exactly over another.
  const drawn = await canvas
    .locator('[data-widget="text"]')
    .evaluateAll((nodes) => nodes.map((n) => `${n.getBoundingClientRect().left},${n.getBoundingClientRect().top}`));
  expect(new Set(drawn).size).toBe(3);
  await screenshot(page, 'slide-new-widgets-offset');
});

test('an editor builds a slide with text, an image and a clock, moves and resizes a widget, and finds it unchanged after a reload', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const t = await contentTenant(request);
  await signIn(page, t.editor.email, t.editor.password);
  const id = await newSlide(page, 'Lobby board', 'Blank, landscape (1920 × 1080)');
  const canvas = page.getByTestId('slide-canvas');
  const addBar = page.getByRole('toolbar', { name: 'Add a widget' });

  // Text: added, selected, its words typed in the properties panel and drawn by the renderer.
  await addBar.getByRole('button', { name: 'Add text' }).click();
  await page
    .getByRole('group', { name: /properties$/ })
    .getByLabel('Text', { exact: true })
    .fill('Hello lobby');
  await expect(canvas.locator('[data-widget="text"]')).toHaveText('Hello lobby');
  // An image chosen from the media library.
  await addBar.getByRole('button', { name: 'Add image' }).click();
  await page
    .getByRole('dialog', { name: 'Choose an image' })
    .getByRole('button', { name: /poster\.png/ })
    .click();
  await expect(canvas.locator('[data-widget="image"] img')).toHaveAttribute('src', new RegExp(t.files.poster.id));
  await expect(page.getByRole('group', { name: /properties$/ })).toContainText('poster.png');
  // A clock, ticking.
  await addBar.getByRole('button', { name: 'Add clock' }).click();
  await expect(canvas.locator('[data-widget="clock"]')).toHaveText(/^\d{2}:\d{2}$/);
  // The image and the clock cover the middle of the text: the layers list selects it, front to back.
  const layers = page.getByRole('list', { name: 'Layers' });
  await expect(layers.getByRole('button')).toHaveText([/^Clock/, /^Image/, /^Text “Hello lobby”/]);
  await layers.getByRole('button', { name: /Hello lobby/ }).click();
  const text = canvas.getByRole('button', { name: 'Text “Hello lobby”' });
  await expect(text).toHaveAttribute('aria-pressed', 'true');

  // A small drag snaps back onto the page's centre lines, showing the guides while the mouse is down.
  const before = await boxOf(page);
  const scale = Number(await canvas.getAttribute('data-scale'));
  await text.scrollIntoViewIfNeeded();
  const grab = (await text.boundingBox())!;
  await page.mouse.move(grab.x + 15, grab.y + grab.height / 2);
  await page.mouse.down();
  await page.mouse.move(grab.x + 17, grab.y + grab.height / 2 + 1);
  await page.mouse.move(grab.x + 19, grab.y + grab.height / 2 + 2);
  await expect(canvas.getByTestId('guide')).toHaveCount(2);
  await page.mouse.up();
  await expect(canvas.getByTestId('guide')).toHaveCount(0);
  expect(await boxOf(page)).toEqual(before);

  // Move the text with the mouse, grabbed by its uncovered left end.
  await dragBy(page, text, -150, -120, 15);
  await expect.poll(async () => (await boxOf(page)).x).not.toBe(before.x);
  const moved = await boxOf(page);
  expect(Math.abs(moved.x - (before.x - 150 / scale))).toBeLessThanOrEqual(6 / scale + 1);
  expect(Math.abs(moved.y - (before.y - 120 / scale))).toBeLessThanOrEqual(6 / scale + 1);
  expect(moved.width).toBe(before.width);
  // Resize it from its bottom-right handle: the top-left corner stays.
  await dragBy(page, canvas.getByTestId('selection').locator('[data-handle="se"]'), 80, 40);
  await expect.poll(async () => (await boxOf(page)).width).not.toBe(moved.width);
  const resized = await boxOf(page);
  expect(resized).toMatchObject({ x: moved.x, y: moved.y });
  expect(Math.abs(resized.width - (moved.width + 80 / scale))).toBeLessThanOrEqual(6 / scale + 1);
  expect(Math.abs(resized.height - (moved.height + 40 / scale))).toBeLessThanOrEqual(6 / scale + 1);
  // The keyboard: arrows move it, Shift by 10, Alt resizes; a run of nudges is one undo step.
  await text.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Alt+ArrowRight');
  const nudged = { x: resized.x + 1, y: resized.y + 10, width: resized.width + 1, height: resized.height };
  await expect.poll(() => boxOf(page)).toEqual(nudged);
  await page.keyboard.press('Control+z');
  await expect.poll(() => boxOf(page)).toEqual(resized);
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(() => boxOf(page)).toEqual(nudged);
  // The rendered text is where the box is.
  await expect(canvas.locator('[data-widget="text"]')).toHaveCSS('left', `${nudged.x}px`);
  await screenshot(page, 'content-slide-editor');

  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved', { timeout: 15_000 });
  await page.reload();
  await expect(canvas.locator('[data-widget="clock"]')).toHaveText(/^\d{2}:\d{2}$/);
  await page
    .getByRole('list', { name: 'Layers' })
    .getByRole('button', { name: /Hello lobby/ })
    .click();
  await expect.poll(() => boxOf(page)).toEqual(nudged);
  // The API answers a slide keyed by page name (DECISIONS §2); the editor saved it so.
  const saved = (await api(request, t.admin, 'GET', `/api/v2/deviceContent/${id}?customerId=${t.customer.id}`)) as {
    data: Record<string, { widgets: unknown[] }>;
  };
  expect(Object.keys(saved.data)).toEqual(['Default']);
  const widgets = saved.data.Default!.widgets as Array<{
    type: string;
    x: number;
    y: number;
    width: number;
    height: number;
    text?: string;
    fileId?: string;
  }>;
  expect(widgets.map((w) => w.type).sort()).toEqual(['clock', 'image', 'text']);
  expect(widgets.find((w) => w.type === 'text')).toMatchObject({ text: 'Hello lobby', ...nudged });
  expect(widgets.find((w) => w.type === 'image')).toMatchObject({ fileId: t.files.poster.id });
  // The image is a reference of the slide: the file knows where it is used.
  const usage = (await api(
    request,
    t.admin,
    'GET',
    `/api/v2/file/${t.files.poster.id}?customerId=${t.customer.id}&select=usageDetails`,
  )) as { usageDetails: unknown };
  expect(JSON.stringify(usage.usageDetails)).toContain(id);
  expect(errors).toEqual([]);
});

test('interactive content: pages added and renamed, a tap goes from page to page in the preview', async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const t = await contentTenant(request);
  await signIn(page, t.editor.email, t.editor.password);
  const id = await newSlide(page, 'Kiosk', 'Interactive, portrait: pages viewers tap through');
  const pages = page.getByRole('tablist', { name: 'Pages' });
  await expect(pages.getByRole('tab')).toHaveText(['Home']);

  // A second page, renamed "Menu", with a text that goes back home.
  await page.getByRole('button', { name: 'Page', exact: true }).click();
  await expect(pages.getByRole('tab', { name: 'Page 2' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('group', { name: 'Page properties' }).getByLabel('Page name').fill('Menu');
  await expect(pages.getByRole('tab')).toHaveText(['Home', 'Menu']);
  const addBar = page.getByRole('toolbar', { name: 'Add a widget' });
  const panel = page.getByRole('group', { name: /properties$/ });
  await addBar.getByRole('button', { name: 'Add text' }).click();
  await panel.getByLabel('Text', { exact: true }).fill('Back home');
  await panel.getByLabel('Action').selectOption({ label: 'Go to page “Home”' });
  // Home: a text that opens the menu.
  await pages.getByRole('tab', { name: 'Home' }).click();
  await addBar.getByRole('button', { name: 'Add text' }).click();
  await panel.getByLabel('Text', { exact: true }).fill('Open menu');
  await panel.getByLabel('Action').selectOption({ label: 'Go to page “Menu”' });
  await screenshot(page, 'content-interactive-editor');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved', { timeout: 15_000 });

  const saved = (await api(
    request,
    t.admin,
    'GET',
    `/api/v2/deviceContent/${id}?customerId=${t.customer.id}&select=structureType,data`,
  )) as {
    structureType: string;
    data: Record<string, { pageData: { screenSize: unknown }; widgets: Array<{ text?: string; action?: unknown }> }>;
  };
  expect(saved.structureType).toBe('COMPLEX');
  expect(Object.entries(saved.data).map(([name, p]) => [name, p.pageData.screenSize, p.widgets.map((w) => [w.text, w.action])])).toEqual([
    ['Home', { width: 1080, height: 1920 }, [['Open menu', { type: 'GO_TO_PAGE', page: 'Menu' }]]],
    ['Menu', { width: 1080, height: 1920 }, [['Back home', { type: 'GO_TO_PAGE', page: 'Home' }]]],
  ]);

  // The preview plays it as a screen does: taps go from page to page.
  await page.getByRole('link', { name: 'Full preview' }).click();
  const preview = page.getByTestId('slide-preview');
  await preview.getByText('Open menu').click();
  await expect(preview.getByText('Back home')).toBeVisible();
  await expect(preview.getByText('Open menu')).toHaveCount(0);
  await preview.getByText('Back home').click();
  await expect(preview.getByText('Open menu')).toBeVisible();
  expect(errors).toEqual([]);
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

test('an editor selects several items, moves them by drag and by the bulk action, tags them, and sees them as cards with previews', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const t = await contentTenant(request);
  const token = (await passwordGrant(request, t.editor.email, t.editor.password)).access_token;
  const approverToken = (await passwordGrant(request, t.approver.email, t.approver.password)).access_token;
  const root = await rootGroupId(request, token, 'contentGroup');
  for (const name of ['Archive', 'Shelf']) await api(request, token, 'POST', '/api/contentGroup', { name });
  const templates = await api<{ content: { id: string; name: string }[] }>(request, token, 'GET', '/api/template?size=100');
  const welcome = templates.content.find((tpl) => tpl.name === 'Welcome screen')!;
  const slide = await api<{ id: string }>(request, token, 'POST', `/api/content/fromTemplate/${welcome.id}?contentGroupId=${root}`, {
    name: 'Gamma slide',
  });
  const loop = (name: string, slides: unknown[]) =>
    api<{ id: string }>(request, token, 'POST', `/api/simpleLoop?contentGroupId=${root}`, {
      name,
      simpleLoopType: 'NORMAL',
      version: '2.0',
      data: { loopData: { resolution: { width: 1920, height: 1080 } }, slides },
    });
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
  await page
    .getByRole('row', { name: /Alpha loop/ })
    .getByRole('cell')
    .nth(1)
    .dragTo(tree.getByTestId('content-folder-Archive'), { sourcePosition: { x: 24, y: 24 } });
  await expect(page.getByRole('status').filter({ hasText: 'Moved 3 items to Archive.' })).toContainText(
    '“Delta loop” is locked and stays where it is',
  );
  await expect.poll(() => tableNames(page)).toEqual(['Delta loop']);
  const archive = (
    await api<{ content: { id: string }[] }>(request, token, 'GET', `/api/v2/contentGroup?search=${encodeURIComponent('name=Archive')}`)
  ).content[0]!.id;
  const afterDrag = await listed(request, token);
  expect(['Alpha loop', 'Beta loop', 'Gamma slide'].map((n) => afterDrag.get(n)!.contentGroupId)).toEqual([archive, archive, archive]);
  expect(afterDrag.get('Delta loop')!.contentGroupId).toBe(root);

  // The locked playlist alone: refused, and it says why.
  await page
    .getByRole('row', { name: /Delta loop/ })
    .getByRole('cell')
    .nth(1)
    .dragTo(tree.getByTestId('content-folder-Shelf'), { sourcePosition: { x: 24, y: 24 } });
  await expect(
    page.getByRole('alert').filter({ hasText: '“Delta loop” is locked and stays where it is; an approver unlocks it to move it.' }),
  ).toBeVisible();

  // In Archive: every item on the page, tagged in one go.
  await tree
    .getByTestId('content-folder-Archive')
    .getByRole('button', { name: /^Archive/ })
    .click();
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
  await tree
    .getByTestId('content-folder-Shelf')
    .getByRole('button', { name: /^Shelf/ })
    .click();
  await page.getByRole('button', { name: 'Grid' }).click();
  await expect(page).toHaveURL(/view=grid/);
  const card = (name: string) => page.getByTestId('content-card').filter({ has: page.getByText(name, { exact: true }) });
  await expect(page.getByTestId('content-card')).toHaveCount(2);
  await expect(card('Alpha loop').locator('img')).toHaveAttribute('src', /\/files\/[0-9a-f-]+\.tmb/);
  await expect(card('Beta loop').getByTestId('slide-preview').locator('[data-widget="text"]').first()).toHaveText('Welcome');
  await page.reload();
  await expect(page.getByTestId('content-card')).toHaveCount(2);
  await tree
    .getByTestId('content-folder-Archive')
    .getByRole('button', { name: /^Archive/ })
    .click();
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
  await tree
    .getByTestId('content-folder-Shelf')
    .getByRole('button', { name: /^Shelf/ })
    .click();
  await expect(page.getByTestId('content-card')).toHaveCount(2);
  await screenshot(page, 'content-library-grid');

  // Selected cards dragged onto a folder; then deleted together, the embedder first.
  await card('Alpha loop').getByLabel('Select Alpha loop').check({ force: true });
  await card('Beta loop').getByRole('button', { name: 'Open Beta loop' }).click();
  await expect(page.getByTestId('selection-count')).toHaveText('2 items selected');
  await card('Beta loop').dragTo(tree.getByTestId('content-folder-Archive'));
  await expect(page.getByRole('status').filter({ hasText: 'Moved 2 items to Archive.' })).toBeVisible();
  await tree
    .getByTestId('content-folder-Archive')
    .getByRole('button', { name: /^Archive/ })
    .click();
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
  const root = await rootGroupId(request, token, 'contentGroup');
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
  const slides = async () =>
    (
      await api<{ data: { slides: Array<{ key: string; validFrom?: number; validTo?: number }> } }>(
        request,
        token,
        'GET',
        `/api/v2/deviceContent/${loop.id}`,
      )
    ).data.slides;
  await expect
    .poll(async () => (await slides())[0], { timeout: 15_000 })
    .toMatchObject({ key: 'p', validFrom: new Date('2024-01-01T08:00').getTime(), validTo: new Date('2024-06-30T18:00').getTime() });
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
