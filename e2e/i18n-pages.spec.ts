import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  admin,
  api,
  collectConsoleErrors,
  contentChannel,
  createCustomer,
  createUser,
  passwordGrant,
  registerAndClaim,
  screenshot,
  signIn,
  uniqueSuffix,
  uploadFile,
  waitForHydration,
} from './fixtures';
import { englishLeft } from './i18n-check';

/*
 * Item 15: every page of the console in German, as a tenant's administrator and as the super admin, with data on
 * it (a screen, an image, a slide, a channel, a team). Each page must show no English: neither a value of the English
 * catalogues nor a common English word (a string that never reached a catalogue). What users typed (names, e-mail
 * addresses) and stored records (audit messages) are marked `translate="no"` and not checked. Nor may a German
 * placeholder be cut off by its field.
 */

const PNG = {
  name: 'plakat.png',
  mimeType: 'image/png',
  buffer: readFileSync(fileURLToPath(new URL('./fixtures/poster.png', import.meta.url))),
};

/** A tenant with a German-speaking administrator, a screen, an image, a slide, a channel and a team. Names are German. */
async function seed(request: APIRequestContext) {
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, admin, `Mandant ${suffix}`);
  const q = `customerId=${customer.id}`;
  const owner = await createUser(request, admin, customer.id, 'OWNER', 'Sprach Inhaberin', suffix, { language: 'de' });
  const rootOf = async (kind: string) =>
    (await api<{ content: { id: string }[] }>(request, admin, 'GET', `/api/v2/${kind}?${q}&search=${encodeURIComponent('parentId=NULL')}`))
      .content[0]!.id;
  const screensRoot = await rootOf('deviceGroup');
  const contentRoot = await rootOf('contentGroup');
  const foyer = await api<{ id: string }>(request, admin, 'POST', `/api/deviceGroup/${screensRoot}?${q}`, {
    name: 'Foyer',
    type: 'NORMAL',
  });
  const deviceId = await registerAndClaim(request, admin, customer.id, 'Eingang', 'Europe/Berlin');
  await api(request, admin, 'POST', `/api/v2/device/move?${q}`, { deviceIds: [deviceId], targetGroupId: foyer.id });
  await uploadFile(request, admin, customer.id, PNG, { withPreview: true });
  const slide = await api<{ id: string }>(request, admin, 'POST', `/api/content?${q}&contentGroupId=${contentRoot}`, {
    name: 'Begrüßung',
    structureType: 'SLIDE',
    data: { Default: { tags: [], pageStyle: {}, pageData: { screenSize: { width: 1920, height: 1080 } } } },
  });
  const channel = await api<{ id: string }>(request, admin, 'POST', `/api/campaign?${q}`, contentChannel('Willkommen', slide.id, foyer.id));
  const team = await api<{ id: string }>(request, admin, 'POST', `/api/team?${q}`, { name: 'Empfang' });
  await api(request, admin, 'POST', `/api/alertRuleNotificationChannel?${q}`, {
    name: 'Haustechnik',
    comment: 'Werktags',
    channelType: 'EMAIL',
    notify: ['haustechnik@example.com'],
  });
  await api(request, admin, 'POST', `/api/datasource?${q}`, { name: 'Tagespreise', sourceType: 'INTERNAL', structureType: 'KEY_VALUE' });
  await api(request, admin, 'POST', `/api/webhooks/apikey?${q}`, { name: 'Brandmeldeanlage' });
  await api(request, admin, 'POST', `/api/webhookEvent/actions?${q}`, {
    name: 'Feueralarm im Foyer',
    eventId: 'feueralarm',
    action: 'ENABLE_EMERGENCY_ON_DEVICE_GROUP',
    targetData: { targetIds: [foyer.id] },
  });
  // A team of an editor (an OWNER belongs to no team).
  const member = await createUser(request, admin, customer.id, 'EDITOR', 'Mia Mitglied', suffix);
  await api(request, admin, 'PUT', `/api/team/updateUserAssignments?teamId=${team.id}&${q}`, {
    resourcesToAdd: [{ id: member.id, readOnly: false }],
  });

  return { owner, customer, deviceId, slideId: slide.id, channelId: channel.id, teamId: team.id };
}

/** The placeholders of empty, visible fields that are wider than their box (German's longer words cut off). */
async function cutPlaceholders(page: Page): Promise<string[]> {
  return page.locator('input[placeholder], textarea[placeholder]').evaluateAll((fields) => {
    const context = document.createElement('canvas').getContext('2d')!;
    return (fields as Array<HTMLInputElement | HTMLTextAreaElement>)
      .filter((field) => field.offsetParent !== null && field.value === '' && field.placeholder !== '')
      .flatMap((field) => {
        const style = getComputedStyle(field);
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const needed = context.measureText(field.placeholder).width;
        const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return needed > room + 1 ? [`placeholder "${field.placeholder}" cut (${Math.ceil(needed)} px in ${Math.floor(room)})`] : [];
      });
  });
}

/**
 * Opens `path`, waits until its data has arrived, and answers the English left on it (`words`: see englishLeft) and
 * the placeholders cut off.
 */
async function visit(page: Page, path: string, words = true): Promise<string[]> {
  await page.goto(path);
  await waitForHydration(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('status', { name: /.+/ })).toHaveCount(0);

  return [...(await englishLeft(page, { words })), ...(await cutPlaceholders(page))].map((text) => `${path}: ${text}`);
}

/** The tenant's pages, in two halves that run side by side. */
const TENANT_PAGES: Array<(ids: Awaited<ReturnType<typeof seed>>) => string[]> = [
  ({ slideId, channelId }) => [
    '/',
    '/media',
    '/content',
    `/content/${slideId}`,
    '/channels',
    '/channels/new',
    `/channels/${channelId}`,
    '/sub-channels',
    '/datasources',
    '/schedules',
  ],
  ({ deviceId, teamId }) => [
    '/proof-of-play',
    '/screens',
    `/screens/${deviceId}`,
    '/advertisers',
    '/notification-channels',
    '/alerts',
    '/alert-rules',
    '/integrations',
    '/integrations?tab=keys',
    '/users',
    '/teams',
    `/teams/${teamId}`,
    '/settings',
    '/account',
  ],
];

for (const [half, pagesOf] of TENANT_PAGES.entries()) {
  // At 1024 wide, where German's longer words fit least: every page must also not scroll sideways.
  test(`a German-speaking administrator's pages speak German and fit 1024 wide (part ${half + 1} of 2)`, async ({ page, request }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: 1024, height: 768 });
    const errors = collectConsoleErrors(page);
    const seeded = await seed(request);
    await signIn(page, seeded.owner.email, seeded.owner.password);
    const left: string[] = [];
    const wide: string[] = [];
    for (const path of pagesOf(seeded)) {
      left.push(...(await visit(page, path)));
      if (!(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth))) wide.push(path);
      // Nor may a table hide a column past its card's edge (it would scroll inside it).
      const cut = await page
        .getByRole('main')
        .locator('table')
        .evaluateAll((tables) => tables.filter((t) => t.parentElement!.scrollWidth > t.parentElement!.clientWidth + 1).length);
      if (cut > 0) wide.push(`${path}: a table wider than its box`);
      await screenshot(page, `de-1024${path.replace(/\//g, '-')}`);
      if (path === '/media') {
        // The upload panel: Uppy's Dashboard speaks German too (its locale pack).
        await page.getByRole('button', { name: 'Hochladen', exact: true }).click();
        await expect(page.getByTestId('upload-panel')).toBeVisible();
        await expect(page.getByTestId('upload-panel').getByRole('button', { name: 'Dateien durchsuchen' })).toBeVisible();
        left.push(...(await englishLeft(page)).map((text) => `/media (upload): ${text}`));
      }
    }
    expect(left).toEqual([]);
    expect(wide, 'pages that scroll sideways at 1024').toEqual([]);
    expect(errors).toEqual([]);
  });
}

test("the super admin's pages speak German to a German browser", async ({ browser }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ locale: 'de-DE', extraHTTPHeaders: { 'Accept-Language': 'de-DE,de;q=0.9' } });
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  try {
    await page.goto('/login');
    await waitForHydration(page);
    await page.getByLabel('E-Mail').fill(admin.email);
    await page.getByLabel('Passwort').fill(admin.password);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/', { timeout: 60_000 });
    const left: string[] = [];
    for (const path of ['/', '/customers', '/screens', '/licences', '/audit-log', '/users']) left.push(...(await visit(page, path, false)));
    expect(left).toEqual([]);
    await screenshot(page, 'de-admin-users-1440');
  } finally {
    await context.close();
  }
  expect(errors).toEqual([]);
});
