import { expect, test, type APIRequestContext } from '@playwright/test';
import { collectConsoleErrors, createCustomer, passwordGrant, screenshot, signIn } from './fixtures';

type Seeded = { id: string; email: string; password: string };

async function createUser(
  request: APIRequestContext,
  token: string,
  customerId: number,
  role: string,
  name: string,
  suffix: string,
): Promise<Seeded> {
  const email = `${name.toLowerCase()}-${suffix}@example.com`;
  const password = `${name}-pass-123`;
  const res = await request.post(`/api/user/?customerId=${customerId}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { email, name, role, password },
  });
  expect(res.status(), await res.text()).toBe(201);

  return { id: ((await res.json()) as { id: string }).id, email, password };
}

test('an OWNER manages teams, team access, limits and a UI profile that hides Teams from a user', async ({ page, browser, request }) => {
  // A long story across two browsers (owner and editor): about two minutes on a busy machine.
  test.setTimeout(240_000);
  const errors = collectConsoleErrors(page);

  // A tenant with its OWNER and two users, through the API as ADMIN.
  const suffix = Date.now().toString(36);
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Teams Tenant ${suffix}`);
  const owner = await createUser(request, admin.access_token, customer.id, 'OWNER', 'Olivia', suffix);
  await createUser(request, admin.access_token, customer.id, 'VIEWER', 'Vera', suffix);
  const editor = await createUser(request, admin.access_token, customer.id, 'EDITOR', 'Eddie', suffix);

  await signIn(page, owner.email, owner.password);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText([
    'Overview',
    'Media',
    'Content',
    'Channels',
    'Sub-channels',
    'Datasources',
    'Schedules',
    'Proof of play',
    'Screens',
    'Advertisers',
    'Alerts',
    'Alert rules',
    'Notification channels',
    'Integrations',
    'Users',
    'Teams',
    'Licences',
    'Audit log',
    'Settings',
  ]);

  // Teams: empty, then a new team.
  await nav.getByRole('link', { name: 'Teams' }).click();
  await expect(page.getByRole('heading', { name: 'Teams', level: 1 })).toBeVisible();
  await expect(page.getByTestId('teams-empty')).toBeVisible();
  await screenshot(page, 'teams-empty');
  await page.getByRole('button', { name: 'New team' }).first().click();
  const teamDialog = page.getByRole('dialog', { name: 'New team' });
  await teamDialog.getByLabel('Name').fill('Screens North');
  await teamDialog.getByLabel('Comment').fill('Stores in the north region');
  await teamDialog.getByRole('button', { name: 'Create team' }).click();
  await expect(page.getByRole('heading', { name: 'Screens North', level: 1 })).toBeVisible();
  await expect(page.getByTestId('members-empty')).toBeVisible();

  // Add Vera as a read-only member; OWNERs are not offered.
  await page.getByRole('button', { name: 'Add members' }).click();
  const addDialog = page.getByRole('dialog', { name: 'Add members' });
  await expect(addDialog.getByText('Vera', { exact: true })).toBeVisible();
  await expect(addDialog.getByText('Olivia', { exact: true })).toHaveCount(0);
  await addDialog.getByLabel('Vera', { exact: true }).check();
  await addDialog.getByLabel('Read-only').check();
  await screenshot(page, 'team-add-members');
  await addDialog.getByRole('button', { name: 'Add member' }).click();
  await expect(addDialog).toBeHidden();
  const members = page.getByRole('table', { name: 'Members' });
  const veraRow = members.getByRole('row').filter({ hasText: 'Vera' });
  await expect(veraRow).toBeVisible();
  await expect(veraRow.getByRole('checkbox', { name: /Read-only/ })).toBeChecked();
  await expect(veraRow.getByText('Read-only', { exact: true })).toBeVisible();

  // A media folder assigned to the team read-only (through the API) shows by name.
  const teamId = page.url().split('/').pop()!;
  const auth = { Authorization: `Bearer ${admin.access_token}` };
  const rootRes = await request.get(`/api/v2/fileFolder?customerId=${customer.id}&search=${encodeURIComponent('parentId=NULL')}`, {
    headers: auth,
  });
  const rootId = ((await rootRes.json()) as { content: { id: string }[] }).content[0]!.id;
  const folderRes = await request.post(`/api/fileFolder/?customerId=${customer.id}&parentId=${rootId}&name=North%20promotions`, {
    headers: auth,
  });
  expect(folderRes.status(), await folderRes.text()).toBe(201);
  const folderId = ((await folderRes.json()) as { id: string }).id;
  const assigned = await request.put(`/api/team/updateFileFolderAssignments?teamId=${teamId}&customerId=${customer.id}`, {
    headers: auth,
    data: { resourcesToAdd: [{ id: folderId, readOnly: true }] },
  });
  expect(assigned.status(), await assigned.text()).toBe(200);
  await page.reload();
  const folders = page.getByTestId('team-resources-fileFolder');
  await expect(folders.getByText('North promotions')).toBeVisible();
  await expect(folders.getByText('Read-only')).toBeVisible();
  await screenshot(page, 'team-detail');

  // The list counts the member.
  await page.getByRole('link', { name: 'Teams' }).first().click();
  const teamRow = page.getByRole('row').filter({ hasText: 'Screens North' });
  await expect(teamRow.getByRole('cell').nth(1)).toHaveText('1');
  await screenshot(page, 'teams-list');

  // Settings: team access, limits.
  await nav.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  const fullAccess = page.getByLabel('Full access for users outside any team');
  await expect(fullAccess).toBeChecked();
  await fullAccess.uncheck();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  const stored = await request.get(`/api/customer/${customer.id}`, { headers: { Authorization: `Bearer ${admin.access_token}` } });
  expect(((await stored.json()) as { userFullAccessIfNotInTeam: boolean }).userFullAccessIfNotInTeam).toBe(false);
  const limits = page.getByRole('table', { name: 'Resource limits' });
  await expect(limits.locator('tr[data-resource="TEAM"]')).toContainText(/1\s*\/\s*\d+/);
  await expect(limits.locator('tr[data-resource="USER"]')).toContainText(/3\s*\/\s*\d+/);

  // A UI profile that hides the Teams entry and media uploads, assigned to Eddie.
  await expect(page.getByTestId('ui-profiles-empty')).toBeVisible();
  await page.getByRole('button', { name: 'New profile' }).click();
  const profileDialog = page.getByRole('dialog', { name: 'New UI profile' });
  await profileDialog.getByLabel('Name').fill('No teams');
  await profileDialog.getByLabel('Comment').fill('For content editors');
  await profileDialog.getByRole('radiogroup', { name: 'newUi.navigation.teams' }).getByText('Hide').click();
  await profileDialog.getByRole('radiogroup', { name: 'newUi.media.upload' }).getByText('Hide').click();
  await profileDialog.getByRole('tab', { name: 'JSON' }).click();
  await expect(profileDialog.getByLabel('Rules as JSON')).toHaveValue(/"navigation.teams": false/);
  await screenshot(page, 'ui-profile-editor');
  await profileDialog.getByRole('button', { name: 'Create profile' }).click();
  await expect(profileDialog).toBeHidden();
  const profileRow = page.getByRole('table', { name: 'UI profiles' }).getByRole('row').filter({ hasText: 'No teams' });
  await expect(profileRow).toContainText('2 hidden');
  await profileRow.getByRole('button', { name: 'Actions for No teams' }).click();
  await page.getByRole('menuitem', { name: 'Assign to users' }).click();
  const assignDialog = page.getByRole('dialog', { name: 'Assign UI profile' });
  await assignDialog.getByLabel('Eddie', { exact: true }).check();
  await assignDialog.getByRole('button', { name: 'Save assignments' }).click();
  await expect(assignDialog).toBeHidden();
  await expect(limits.locator('tr[data-resource="UI_PROFILE"]')).toContainText(/1\s*\/\s*\d+/);
  await screenshot(page, 'settings');
  expect(errors).toEqual([]);

  // Eddie signs in: no Teams entry (the profile), no Settings entry (the role).
  const eddieContext = await browser.newContext();
  const eddie = await eddieContext.newPage();
  await signIn(eddie, editor.email, editor.password);
  const eddieNav = eddie.getByRole('navigation', { name: 'Main' });
  await expect(eddieNav.getByRole('link')).toHaveText([
    'Overview',
    'Media',
    'Content',
    'Channels',
    'Sub-channels',
    'Datasources',
    'Schedules',
    'Proof of play',
    'Screens',
    'Advertisers',
    'Alerts',
    'Users',
  ]);
  await expect(eddieNav.getByRole('link', { name: 'Teams' })).toHaveCount(0);
  await screenshot(eddie, 'profile-hides-teams');
  // Inside a page too: the media library offers Eddie (an EDITOR) new folders but no upload.
  await eddieNav.getByRole('link', { name: 'Media' }).click();
  await expect(eddie.getByRole('button', { name: 'New folder' }).first()).toBeVisible();
  await expect(eddie.getByRole('button', { name: /^Upload/ })).toHaveCount(0);
  await eddieContext.close();
});
