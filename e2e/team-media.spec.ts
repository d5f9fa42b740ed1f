import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  createCustomer,
  createFolder,
  createUser,
  passwordGrant,
  rootFolderId,
  screenshot,
  signIn,
  uniqueSuffix,
  uploadFile,
} from './fixtures';

/*
 * Teams and media (issue 10, console points 2 and 3): a team's folders and files are assigned from the
 * team page and from the media library, and a team member's library shows what the tenant lets it use.
 */

const PNG = {
  name: 'poster.png',
  mimeType: 'image/png',
  buffer: readFileSync(fileURLToPath(new URL('./fixtures/poster.png', import.meta.url))),
};

type Access = { id: string; readOnly: boolean };

async function teamTenant(request: APIRequestContext, label: string) {
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, admin, `${label} ${suffix}`);
  const owner = await createUser(request, admin, customer.id, 'OWNER', 'Olive Owner', suffix);
  const member = await createUser(request, admin, customer.id, 'EDITOR', 'Mick Member', suffix);
  const team = await api<{ id: string; name: string }>(request, admin, 'POST', `/api/team?customerId=${customer.id}`, {
    name: `Crew ${suffix}`,
  });
  await api(request, admin, 'PUT', `/api/team/updateUserAssignments?teamId=${team.id}&customerId=${customer.id}`, {
    resourcesToAdd: [{ id: member.id, readOnly: false }],
  });
  const root = await rootFolderId(request, admin, customer.id);

  return { admin, customer, owner, member, team, root };
}

test('an OWNER assigns folders to a team on its page, and a folder and a file to teams in the media library', async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const t = await teamTenant(request, 'Team media');
  const north = await createFolder(request, t.admin, t.customer.id, t.root, 'North stores');
  const south = await createFolder(request, t.admin, t.customer.id, t.root, 'South stores');
  await createFolder(request, t.admin, t.customer.id, north, 'North winter');
  const file = await uploadFile(request, t.admin, t.customer.id, PNG, { parentId: south });
  const folderAssignments = () =>
    api<Access[]>(request, t.admin, 'GET', `/api/team/fileFolderAssignments?teamId=${t.team.id}&customerId=${t.customer.id}`);
  const teamsOf = (type: string, id: string) =>
    api<{ teams: Access[] }>(request, t.admin, 'GET', `/api/team/${type}/${id}/assignments?customerId=${t.customer.id}`).then(
      (l) => l.teams,
    );

  await signIn(page, t.owner.email, t.owner.password);

  // The team page: assign a folder read-only from the folder tree (the top level is not offered).
  await page.goto(`/teams/${t.team.id}`);
  const folders = page.getByTestId('team-resources-fileFolder');
  await expect(folders).toContainText('None assigned');
  await page.getByRole('button', { name: 'Assign folders' }).click();
  const dialog = page.getByRole('dialog', { name: 'Assign folders' });
  const tree = dialog.getByRole('tree', { name: 'Folders' });
  await expect(tree.getByRole('checkbox', { name: 'All media' })).toHaveCount(0);
  await tree.getByRole('checkbox', { name: 'North stores' }).check();
  await dialog.getByLabel('Read-only').check();
  await screenshot(page, 'team-assign-folders');
  await dialog.getByRole('button', { name: 'Assign folder' }).click();
  await expect(dialog).toBeHidden();
  await expect(folders.getByRole('link', { name: 'North stores' })).toBeVisible();
  await expect(folders.getByRole('checkbox', { name: 'Read-only: North stores' })).toBeChecked();
  expect(await folderAssignments()).toEqual([{ id: north, readOnly: true }]);

  // The read-only flag changes in place.
  // (The box follows the saved state, so it is clicked rather than unchecked.)
  await folders.getByRole('checkbox', { name: 'Read-only: North stores' }).click();
  await expect(folders.getByRole('checkbox', { name: 'Read-only: North stores' })).not.toBeChecked();
  await expect.poll(folderAssignments).toEqual([{ id: north, readOnly: false }]);
  await screenshot(page, 'team-folders');

  // The media library: a folder's teams (from the folder's actions) …
  await page.goto(`/media?folder=${south}`);
  await page.getByRole('button', { name: 'Actions for folder South stores' }).click();
  await page.getByRole('menuitem', { name: 'Teams…' }).click();
  const folderTeams = page.getByRole('dialog', { name: 'Folder teams' });
  await expect(folderTeams).toContainText('In no team');
  await folderTeams.getByLabel('Add the folder to a team').selectOption({ label: t.team.name });
  await folderTeams.getByRole('button', { name: 'Add' }).click();
  await expect(folderTeams.getByRole('link', { name: t.team.name })).toBeVisible();
  expect(await teamsOf('fileFolder', south)).toMatchObject([{ id: t.team.id, readOnly: false }]);
  await screenshot(page, 'media-folder-teams');
  await page.keyboard.press('Escape');

  // … and a file's teams (in its details), read-only, then removed again.
  await page.getByRole('button', { name: 'Open poster.png', exact: true }).click();
  const panel = page.getByRole('complementary', { name: 'File details' });
  const fileTeams = panel.getByTestId('file-teams');
  await fileTeams.getByLabel('Add the file to a team').selectOption({ label: t.team.name });
  await fileTeams.getByLabel('Read-only', { exact: true }).check();
  await fileTeams.getByRole('button', { name: 'Add' }).click();
  await expect(fileTeams.getByRole('checkbox', { name: `Read-only for ${t.team.name}` })).toBeChecked();
  expect(await teamsOf('file', file.id)).toMatchObject([{ id: t.team.id, readOnly: true }]);
  await screenshot(page, 'media-file-teams');

  // The team page lists the file and the second folder too.
  await page.goto(`/teams/${t.team.id}`);
  await expect(folders.getByRole('link', { name: 'South stores' })).toBeVisible();
  await expect(page.getByTestId('team-resources-file').getByRole('link', { name: 'poster.png' })).toBeVisible();

  await page.goto(`/media?folder=${south}&file=${file.id}`);
  await fileTeams.getByRole('button', { name: `Remove from ${t.team.name}` }).click();
  await expect(fileTeams).toContainText('In no team');
  // The panel may update before the write commits: wait on the server's answer.
  await expect.poll(() => teamsOf('file', file.id)).toEqual([]);

  // Unassigning a folder on the team page asks first.
  await page.goto(`/teams/${t.team.id}`);
  await folders.getByRole('button', { name: 'Remove North stores' }).click();
  await page.getByRole('alertdialog', { name: 'Remove the folder from the team?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(folders.getByRole('link', { name: 'North stores' })).toHaveCount(0);
  await expect.poll(async () => (await folderAssignments()).map((a) => a.id)).toEqual([south]);
  expect(errors).toEqual([]);
});

test("a team member sees the media without a team that the tenant lets it use, and only its team's when not", async ({ page, request }) => {
  test.setTimeout(180_000);
  const errors = collectConsoleErrors(page);
  const t = await teamTenant(request, 'Team reads');
  const teamFolder = await createFolder(request, t.admin, t.customer.id, t.root, 'Crew folder');
  await createFolder(request, t.admin, t.customer.id, t.root, 'Shared folder');
  await uploadFile(request, t.admin, t.customer.id, PNG, { parentId: t.root });
  await api(request, t.admin, 'PUT', `/api/team/updateFileFolderAssignments?teamId=${t.team.id}&customerId=${t.customer.id}`, {
    resourcesToAdd: [{ id: teamFolder, readOnly: false }],
  });
  const fileLists: string[] = [];
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === '/api/v2/file') fileLists.push(req.url());
  });

  // The tenant lets team members use resources without a team (the default): the member sees them.
  await signIn(page, t.member.email, t.member.password);
  await page.goto('/media');
  const tree = page.getByRole('tree', { name: 'Folders' });
  await expect(tree.getByRole('button', { name: 'Crew folder', exact: true })).toBeVisible();
  await expect(tree.getByRole('button', { name: 'Shared folder', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open poster.png', exact: true })).toBeVisible();
  expect(fileLists.every((url) => new URL(url).searchParams.get('includeResourcesWithoutTeam') === 'true')).toBe(true);
  await screenshot(page, 'member-media-with-shared');

  // The OWNER turns it off: the member's library holds its team's folder only.
  await api(request, t.admin, 'PUT', `/api/customer/settings/teams?customerId=${t.customer.id}`, {
    userFullAccessIfNotInTeam: true,
    accessResourcesWithoutTeam: false,
    isDeviceAndGroupCreationEnabledInRootForTeamUsers: true,
    isContentAndGroupCreationEnabledInRootForTeamUsers: true,
    isFileAndFolderCreationEnabledInRootForTeamUsers: true,
  });
  // A new session reads the setting afresh.
  await page.context().clearCookies();
  fileLists.length = 0;
  await signIn(page, t.member.email, t.member.password);
  await page.goto('/media');
  await expect(tree.getByRole('button', { name: 'Crew folder', exact: true })).toBeVisible();
  await expect(tree.getByRole('button', { name: 'Shared folder', exact: true })).toHaveCount(0);
  await expect(page.getByTestId('folder-card')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Open poster.png', exact: true })).toHaveCount(0);
  expect(fileLists.length).toBeGreaterThan(0);
  expect(fileLists.some((url) => new URL(url).searchParams.has('includeResourcesWithoutTeam'))).toBe(false);
  expect(errors).toEqual([]);
});
