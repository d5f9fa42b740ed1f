import { expect, type APIRequestContext, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { decode } from 'next-auth/jwt';

export const admin = {
  email: process.env.E2E_ADMIN_EMAIL ?? 'admin@example.com',
  password: process.env.E2E_ADMIN_PASSWORD ?? '',
};

const clientSecret = process.env.E2E_CLIENT_SECRET ?? '';
const authSecret = process.env.E2E_AUTH_SECRET ?? '';

export type Tokens = { access_token: string; refresh_token: string; expires_in: number };

function basic(): string {
  return `Basic ${Buffer.from(`default-client:${clientSecret}`).toString('base64')}`;
}

export async function tokenGrant(request: APIRequestContext, form: Record<string, string>) {
  return request.post('/oauth/token', { headers: { Authorization: basic() }, form });
}

export async function passwordGrant(request: APIRequestContext, username = admin.email, password = admin.password): Promise<Tokens> {
  const res = await tokenGrant(request, { grant_type: 'password', username, password });
  expect(res.status(), await res.text()).toBe(200);

  return (await res.json()) as Tokens;
}

/** A customer created by the super admin; `fields` adds ADMIN-only settings (`freeLicenses`, …). */
export async function createCustomer(
  request: APIRequestContext,
  accessToken: string,
  name: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: number; name: string }> {
  const res = await request.post('/api/customer', { headers: { Authorization: `Bearer ${accessToken}` }, data: { name, ...fields } });
  expect(res.status(), await res.text()).toBe(201);

  return (await res.json()) as { id: number; name: string };
}

export async function signInFromLoginPage(page: Page, email = admin.email, password = admin.password) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Signs in as the login form does (next-auth's credentials callback, with its CSRF token), without rendering the
 * login page: the form has its own tests (shell.spec.ts, signInFromLoginPage). Ends on the overview.
 */
export async function signIn(page: Page, email = admin.email, password = admin.password) {
  const { csrfToken } = (await (await page.request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const res = await page.request.post('/api/auth/callback/credentials', { form: { csrfToken, email, password, totp: '', json: 'true' } });
  // next-auth answers { url }, with ?error=… when the credentials were refused.
  const { url } = (await res.json()) as { url?: string };
  expect(res.ok() && !!url && !new URL(url, 'http://x').searchParams.has('error'), `sign-in of ${email}: ${res.status()} ${url}`).toBe(
    true,
  );
  // A first page on a fresh server on a busy machine (CI runs beside other work) takes longer than one expect's default.
  await page.goto('/', { timeout: 60_000 });
  await expect(page).toHaveURL((url) => url.pathname === '/', { timeout: 60_000 });
}

/**
 * Waits until React has hydrated the page (app/providers.tsx marks it): a select changed or a field typed into
 * before that keeps its value on screen, but no handler ran, so the page's state never learns of it.
 */
export async function waitForHydration(page: Page) {
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}

export const SESSION_COOKIE = /^(__Secure-)?next-auth\.session-token$/;

/** Decrypts the console's session cookie, as the API does, to reach the tokens the browser never sees. */
export async function sessionTokens(context: BrowserContext) {
  const cookie = (await context.cookies()).find((c) => SESSION_COOKIE.test(c.name));
  if (!cookie) return null;
  const token = await decode({ token: cookie.value, secret: authSecret });

  return { cookie, accessToken: token?.accessToken as string | undefined, refreshToken: token?.refreshToken as string | undefined };
}

/** Fails the test on any console error or uncaught exception in the page. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));

  return errors;
}

/**
 * A full-page screenshot in test-results/screens/ to look at. Not in CI (`CI` set, `E2E_SCREENSHOTS` unset): nobody
 * looks there, and each costs the browser a full repaint (Playwright still keeps one of every failure).
 */
export async function screenshot(page: Page, name: string) {
  if (process.env.CI && !process.env.E2E_SCREENSHOTS) return;
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}

/**
 * The page at both widths the console is made for (1440 × 900, and 1024 × 768, the smallest), each shot once `ready`
 * holds (by default: the main heading is visible); the window ends at 1440 × 900 again.
 */
export async function screenshotAtBothWidths(page: Page, name: string, ready?: () => Promise<void>) {
  for (const [width, height] of [
    [1440, 900],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    if (ready) await ready();
    else await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** A run-unique suffix for names and e-mail addresses. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export type SeededUser = { id: string; email: string; password: string };

/** A user of `customerId`, created through the API by `token` (an ADMIN's). */
export async function createUser(
  request: APIRequestContext,
  token: string,
  customerId: number,
  role: string,
  name: string,
  suffix = uniqueSuffix(),
  extra: Record<string, unknown> = {},
): Promise<SeededUser> {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${suffix}@example.com`;
  const password = `${name.replace(/\W+/g, '')}-pass-${suffix}`;
  const res = await request.post(`/api/user/?customerId=${customerId}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { email, name, role, password, ...extra },
  });
  expect(res.status(), await res.text()).toBe(201);

  return { id: ((await res.json()) as { id: string }).id, email, password };
}

/** A browser screen registered (spec 4 §1) and claimed by `customerId` with its code, as a tenant would add it; its id. */
export async function registerAndClaim(
  request: APIRequestContext,
  token: string,
  customerId: number,
  deviceName: string,
  timeZone = 'UTC',
): Promise<string> {
  const reg = await request.post('/public-api/display/register', {
    data: { type: 'SCREEN', platform: 'BROWSER', version: 'e2e-1.0', timeZone },
  });
  expect(reg.status(), await reg.text()).toBe(201);
  const { activationCode } = (await reg.json()) as { activationCode: string };
  const device = await api<{ id: string }>(request, token, 'POST', `/api/v2/device/assignToCustomer?customerId=${customerId}`, {
    activationCode,
    deviceName,
    timeZone,
    licenseStatus: 'UN_LICENSED',
  });

  return device.id;
}

/** Calls the API as `token` and expects a 2xx; answers the JSON body (undefined for 204). */
export async function api<T = unknown>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  data?: unknown,
): Promise<T> {
  const res = await request.fetch(path, { method, headers: { Authorization: `Bearer ${token}` }, data });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);

  return (res.status() === 204 ? undefined : await res.json()) as T;
}

export async function rootFolderId(request: APIRequestContext, token: string, customerId: number): Promise<string> {
  const page = await api<{ content: { id: string }[] }>(
    request,
    token,
    'GET',
    `/api/v2/fileFolder?customerId=${customerId}&search=${encodeURIComponent('parentId=NULL')}`,
  );

  return page.content[0]!.id;
}

/** The id of the caller's tenant's root folder of a kind: `contentGroup` (content) or `deviceGroup` (screens). */
export async function rootGroupId(request: APIRequestContext, token: string, kind: 'contentGroup' | 'deviceGroup'): Promise<string> {
  return (await api<{ content: { id: string }[] }>(request, token, 'GET', `/api/v2/${kind}?search=${encodeURIComponent('parentId=NULL')}`))
    .content[0]!.id;
}

/** A channel (campaign) that plays one playlist or content, serially, on the screens of one folder. */
export function contentChannel(name: string, contentId: string, deviceGroupId: string, enabled = true) {
  return {
    name,
    enabled,
    level: 'WIDGET',
    type: 'CONTENT',
    version: '2.0',
    contentShuffleMode: 'SERIAL',
    contentAssignment: { assignments: [{ contentId, weight: 1 }] },
    deviceGroupAssignment: { assignments: [{ deviceGroupId }] },
  };
}

export async function createFolder(
  request: APIRequestContext,
  token: string,
  customerId: number,
  parentId: string,
  name: string,
): Promise<string> {
  const folder = await api<{ id: string }>(
    request,
    token,
    'POST',
    `/api/fileFolder/?customerId=${customerId}&parentId=${parentId}&name=${encodeURIComponent(name)}`,
  );

  return folder.id;
}

/** Uploads one file (simple multipart upload), with the same bytes as its thumbnail when `withPreview`. */
export async function uploadFile(
  request: APIRequestContext,
  token: string,
  customerId: number,
  file: { name: string; mimeType: string; buffer: Buffer },
  { parentId, tags, validTo, withPreview = false }: { parentId?: string; tags?: string[]; validTo?: number; withPreview?: boolean } = {},
): Promise<{ id: string; thumbnail?: string }> {
  const query = new URLSearchParams({ customerId: String(customerId) });
  if (parentId) query.set('parentId', parentId);
  if (tags?.length) query.set('tags', tags.join(','));
  if (validTo) query.set('validTo', String(validTo));
  const res = await request.post(`/api/file?${query}`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { files: file, ...(withPreview ? { previews: file } : {}) },
  });
  expect(res.status(), await res.text()).toBe(200);

  return ((await res.json()) as Array<{ id: string; thumbnail?: string }>)[0]!;
}

/** Picks a tenant in the ADMIN's (or network owner's) tenant switcher. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Waits until a search's list shows exactly one option, the one named `name`. A count of one alone is not enough:
 * before the typed search applies (debounced, then fetched) the list can hold only "All tenants", or the previous
 * results, so Enter or a click would meet the wrong list on a busy machine.
 */
export async function expectOnlyOption(options: Locator, name: string) {
  await expect(options).toHaveText([new RegExp(escapeRegExp(name))]);
}

export async function switchTenant(page: Page, name: string | null) {
  await page.getByRole('button', { name: /Switch tenant/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch tenant' });
  if (name === null) {
    await dialog.getByRole('option', { name: /All tenants/ }).click();
  } else {
    await dialog.getByRole('combobox', { name: 'Search tenants' }).fill(name);
    await expectOnlyOption(dialog.getByRole('option'), name);
    await dialog.getByRole('option', { name: new RegExp(escapeRegExp(name)) }).click();
  }
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('current-tenant')).toHaveText(name ?? 'All tenants');
}

/** Records failed API and page responses (4xx/5xx) of a page, by method and path. */
export function collectFailedResponses(page: Page): string[] {
  const failures: string[] = [];
  page.on('response', (res) => {
    if (res.status() >= 400) failures.push(`${res.status()} ${res.request().method()} ${new URL(res.url()).pathname}`);
  });

  return failures;
}
