import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
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

export async function createCustomer(request: APIRequestContext, accessToken: string, name: string): Promise<{ id: number; name: string }> {
  const res = await request.post('/api/customer', { headers: { Authorization: `Bearer ${accessToken}` }, data: { name } });
  expect(res.status(), await res.text()).toBe(201);

  return (await res.json()) as { id: number; name: string };
}

export async function signInFromLoginPage(page: Page, email = admin.email, password = admin.password) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function signIn(page: Page, email = admin.email, password = admin.password) {
  await page.goto('/login');
  await signInFromLoginPage(page, email, password);
  await expect(page).toHaveURL((url) => url.pathname === '/');
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

export function screenshot(page: Page, name: string) {
  return page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}
