import { expect, test } from '@playwright/test';
import { collectConsoleErrors, createCustomer, passwordGrant, signIn } from './fixtures';

/**
 * Every console page loaded directly (server-rendered, then hydrated) logs no error: a mismatch between the
 * server's HTML and the first client render (e.g. an element shown once a query resolved) shows up here.
 */
test('console pages hydrate without errors when loaded directly', async ({ page, request }) => {
  test.setTimeout(90_000);
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Hydration ${suffix}`);
  const email = `hydration-${suffix}@example.com`;
  const password = `Hydration-owner-${suffix}`;
  const created = await request.post(`/api/user/?customerId=${customer.id}`, {
    headers: { Authorization: `Bearer ${admin.access_token}` },
    data: { email, name: 'Hana Hydration', role: 'OWNER', password },
  });
  expect(created.status(), await created.text()).toBe(201);
  const errors = collectConsoleErrors(page);
  await signIn(page, email, password);
  for (const path of ['/', '/media', '/media?view=table', '/users', '/teams', '/settings', '/audit-log', '/account']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(errors, `after loading ${path}`).toEqual([]);
  }
});
