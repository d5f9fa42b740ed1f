import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { collectConsoleErrors, passwordGrant, screenshot, signIn, signInFromLoginPage } from './fixtures';

const mailDir = process.env.E2E_MAIL_DIR ?? '';
const suffix = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

type Mail = { to: string[]; subject: string; text: string };

/** The messages the run's SMTP sink received for `email`, oldest first (scripts/e2e-mail-sink.mjs). */
function mailsTo(email: string): Mail[] {
  return readdirSync(mailDir)
    .sort()
    .map((name) => JSON.parse(readFileSync(join(mailDir, name), 'utf8')) as Mail)
    .filter((m) => m.to.includes(email));
}

function linkOf(mail: Mail): string {
  const match = /https?:\/\/\S+\/set-password\?token=[\w%-]+/.exec(mail.text);
  expect(match, mail.text).not.toBeNull();

  return new URL(match![0]).pathname + new URL(match![0]).search;
}

test('an invited user chooses a password from the e-mailed link; a resent invitation replaces the old link', async ({
  page,
  browser,
  request,
}) => {
  // Two browsers, two sign-ins, mail through the SMTP sink and the outbox: more than the default on a busy machine.
  test.setTimeout(150_000);
  // Never skipped: npm run test:e2e (scripts/e2e.mjs) always starts the SMTP sink this test reads.
  expect(mailDir, 'run through npm run test:e2e, which starts the SMTP sink (E2E_MAIL_DIR)').toBeTruthy();
  const errors = collectConsoleErrors(page);
  const email = `e2e-invitee-${suffix()}@example.com`;
  const { access_token } = await passwordGrant(request);
  const created = await request.post('/api/user', {
    headers: { Authorization: `Bearer ${access_token}` },
    data: { email, name: 'Ivy Invitee', role: 'EDITOR', password: `Initial-${suffix()}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  await expect.poll(() => mailsTo(email).length, { timeout: 20_000 }).toBe(1);
  expect(mailsTo(email)[0]!.subject).toMatch(/^Your Signage Console account in /);
  const firstLink = linkOf(mailsTo(email)[0]!);

  // The administrator resends the invitation from the users table.
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await page.getByRole('searchbox', { name: /Search users/ }).fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await row.getByRole('button', { name: /Actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Resend invitation' }).click();
  const confirm = page.getByRole('dialog', { name: 'Resend invitation' });
  await expect(confirm).toContainText(email);
  await screenshot(page, 'users-resend-invitation');
  await confirm.getByRole('button', { name: 'Send new link' }).click();
  // The dialog says what happened (the e2e server has an SMTP server: the mail sink).
  await expect(confirm.getByText('Invitation sent.')).toBeVisible();
  await expect(confirm).toContainText(`A new link is on its way to ${email}`);
  await screenshot(page, 'users-resend-invitation-sent');
  await confirm.getByRole('button', { name: 'Close' }).click();
  await expect(confirm).toBeHidden();
  await expect.poll(() => mailsTo(email).length, { timeout: 20_000 }).toBe(2);
  const link = linkOf(mailsTo(email)[1]!);
  expect(link).not.toBe(firstLink);

  // The invitee has no session: a fresh browser context.
  const invitee = await browser.newContext();
  const invitePage = await invitee.newPage();
  const inviteErrors = collectConsoleErrors(invitePage);
  await invitePage.goto(firstLink);
  await expect(invitePage.getByText('A newer link was sent to you')).toBeVisible();

  await invitePage.goto(link);
  await expect(invitePage.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
  await expect(invitePage.getByLabel('E-mail')).toHaveValue(email);
  const password = `Chosen-${suffix()}`;
  await invitePage.getByLabel('New password').fill(password);
  await invitePage.getByLabel('Repeat the password').fill(`${password}-typo`);
  await invitePage.getByRole('button', { name: 'Set password' }).click();
  await expect(invitePage.getByText('The passwords do not match')).toBeVisible();
  await invitePage.getByLabel('Repeat the password').fill(password);
  await screenshot(invitePage, 'set-password');
  await invitePage.getByRole('button', { name: 'Set password' }).click();
  await expect(invitePage.getByText('Your password is set')).toBeVisible();
  await screenshot(invitePage, 'set-password-done');

  await invitePage.getByRole('link', { name: 'Go to sign in' }).click();
  await expect(invitePage).toHaveURL(/\/login/);
  await signInFromLoginPage(invitePage, email, password);
  await expect(invitePage).toHaveURL((url) => url.pathname === '/');

  // The link works once.
  await invitePage.goto(link);
  await expect(invitePage.getByText('This link was used already')).toBeVisible();
  await invitee.close();

  // The super admin's outbox lists the messages, without their links.
  await page.goto('/users');
  // With an SMTP server the outbox is a delivery log, closed until asked for.
  await page.getByRole('button', { name: 'Show messages' }).click();
  const outbox = page.getByRole('table', { name: 'Mail outbox' });
  await expect(outbox.getByRole('row').filter({ hasText: email }).first()).toBeVisible();
  await expect(outbox).not.toContainText('set-password');

  expect(errors).toEqual([]);
  expect(inviteErrors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
});
