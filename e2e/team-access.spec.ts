import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  collectFailedResponses,
  createCustomer,
  createFolder,
  createUser,
  passwordGrant,
  rootFolderId,
  screenshot,
  signInFromLoginPage,
  uniqueSuffix,
  uploadFile,
} from './fixtures';

/*
 * Issue 28 items 7 and 12: the restriction to a team is set where users are created and teams are
 * managed, and a restricted member's pages show only its team's folder, with no broken thumbnail and
 * empty states that say why they are empty.
 */

const PNG = {
  name: 'poster.png',
  mimeType: 'image/png',
  buffer: readFileSync(fileURLToPath(new URL('./fixtures/poster.png', import.meta.url))),
};

/** Signs in and waits for the console's navigation, not the overview's load event (slow on a shared machine). */
async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await signInFromLoginPage(page, email, password);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 60_000 });
}

async function look(page: Page, name: string) {
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `${name}-${width}`);
  }
}

test("New user with Restricted and a team: the member sees only the team's folder, with working thumbnails and access-worded empty pages", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const errors = collectConsoleErrors(page);
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, admin, `Team access ${suffix}`);
  const owner = await createUser(request, admin, customer.id, 'OWNER', 'Olga Owner', suffix);
  const team = await api<{ id: string; name: string }>(request, admin, 'POST', `/api/team?customerId=${customer.id}`, {
    name: `North crew ${suffix}`,
  });
  const root = await rootFolderId(request, admin, customer.id);
  const north = await createFolder(request, admin, customer.id, root, 'North stores');
  await createFolder(request, admin, customer.id, root, 'South stores');
  // In the team's folder the first file by name is not the team's: the folder's own preview would show it.
  await uploadFile(request, admin, customer.id, { ...PNG, name: 'a-not-shared.png' }, { parentId: north, withPreview: true });
  const shared = await uploadFile(request, admin, customer.id, { ...PNG, name: 'b-shared.png' }, { parentId: north, withPreview: true });
  await api(request, admin, 'PUT', `/api/team/updateFileFolderAssignments?teamId=${team.id}&customerId=${customer.id}`, {
    resourcesToAdd: [{ id: north, readOnly: false }],
  });
  await api(request, admin, 'PUT', `/api/team/updateFileAssignments?teamId=${team.id}&customerId=${customer.id}`, {
    resourcesToAdd: [{ id: shared.id, readOnly: false }],
  });

  // The OWNER creates the member: team and restriction in the New user dialog.
  await signIn(page, owner.email, owner.password);
  await page.goto('/users');
  await page.getByRole('button', { name: 'New user' }).click();
  const create = page.getByRole('dialog', { name: 'New user' });
  const email = `mira-member-${suffix}@example.com`;
  const password = `Mira-pass-${suffix}`;
  await create.getByLabel('E-mail').fill(email);
  await create.getByLabel('Name').fill('Mira Member');
  await create.getByLabel('Role').selectOption('EDITOR');
  await create.getByLabel('Password').fill(password);
  await expect(create.getByTestId('team-choice')).toContainText(team.name);
  await create.getByRole('checkbox', { name: team.name }).check();
  await create.getByLabel('Restricted').check();
  await expect(create).toContainText('A restricted user sees only what is assigned to their teams');
  await look(page, 'users-new-restricted');
  await create.getByRole('button', { name: 'Create user' }).click();
  await expect(create).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Restricted');
  await look(page, 'users-list-restricted');

  // The team page lists the member as restricted and says what that means.
  await page.goto(`/teams/${team.id}`);
  await expect(page.getByRole('checkbox', { name: 'Restricted: Mira Member' })).toBeChecked();
  await expect(page.getByText('A restricted user sees only what is assigned to their teams').first()).toBeVisible();
  await look(page, 'team-members-restricted');

  // The member: the team's folder only, its thumbnail loads, nothing answers 404.
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  const memberErrors = collectConsoleErrors(member);
  const failed = collectFailedResponses(member);
  await signIn(member, email, password);
  await member.goto('/media');
  const card = member.getByTestId('folder-card').filter({ hasText: 'North stores' });
  await expect(card).toContainText('1 file');
  await expect(member.getByText('South stores')).toHaveCount(0);
  const thumb = card.locator(`img[src*="/files/${shared.id}.tmb"]`);
  await expect(thumb).toBeVisible();
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await look(member, 'restricted-media');

  // Empty pages say the list is narrowed to the member's team, not that nothing exists.
  for (const [path, title] of [
    ['/screens', 'No screens you may see here'],
    ['/content', 'No content you may see here'],
    ['/channels', 'No channels you may see'],
  ] as const) {
    await member.goto(path);
    await expect(member.getByText(title)).toBeVisible();
    await expect(member.getByText(`of your teams (${team.name}); ask an administrator for access.`)).toBeVisible();
    await expect(member.getByText('A player shows a 4-digit code')).toHaveCount(0);
  }
  await look(member, 'restricted-screens-empty');
  expect(failed).toEqual([]);
  expect(memberErrors).toEqual([]);
  await memberContext.close();
  expect(errors).toEqual([]);
});
