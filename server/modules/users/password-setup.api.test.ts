import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { customers } from '@/server/tenant/customers.table';
import { deliverDueMail } from '@/server/modules/mail/mail.service';
import { mailMessages } from '@/server/modules/mail/mail.table';
import { startSmtpSink, type SmtpSink } from '@/server/modules/mail/smtp-sink.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { passwordSetupTokens } from './password-setup.table';
import { users } from './users.table';

let t: TestContext;
let sink: SmtpSink;
type Signed = Awaited<ReturnType<TestContext['actor']>>;
let customerA: number;
let customerB: number;
let ownerA: Signed;
let ownerB: Signed;
let techA: Signed;
let admin: Signed;

const INITIAL_PASSWORD = 'initial-password-1';
const CHOSEN_PASSWORD = 'my-own-choice-2024';
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestContext({ SMTP_URL: sink.url });
  customerA = (await t.factories.customer({ name: 'Tenant A' })).id;
  customerB = (await t.factories.customer({ name: 'Tenant B' })).id;
  ownerA = await t.actor('OWNER', { customerId: customerA, name: 'Olivia Owner' });
  ownerB = await t.actor('OWNER', { customerId: customerB, name: 'Owner B' });
  techA = await t.actor('TECHNICIAN', { customerId: customerA });
  admin = await t.actor('ADMIN');
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

const newEmail = () => `invitee-${uuidv7().slice(-8)}@example.com`;

async function createUser(
  email = newEmail(),
  token = ownerA.token,
  extra: Record<string, unknown> = {},
  query = `?customerId=${customerA}`,
) {
  const res = await t.request('POST', `/api/user${query}`, {
    token,
    json: { email, name: 'Ivy Invitee', role: 'EDITOR', password: INITIAL_PASSWORD, ...extra },
  });

  return { res, email };
}

const deliver = () => deliverDueMail({ db: t.db, config: t.config, log: silent });

/** Delivers the outbox and answers the token of the newest link e-mailed to `email`. */
async function mailedToken(email: string): Promise<string> {
  await deliver();
  const mail = sink.messages.filter((m) => m.to.includes(email)).at(-1);
  expect(mail, `no message to ${email}`).toBeDefined();
  const link = /http:\/\/console\.test\/set-password\?token=([\w-]+)/.exec(mail!.text);
  expect(link).not.toBeNull();

  return decodeURIComponent(link![1]!);
}

const state = (token: string) => t.request('GET', `/public-api/user/passwordSetup?token=${encodeURIComponent(token)}`);
const complete = (token: string, password = CHOSEN_PASSWORD) =>
  t.request('POST', '/public-api/user/passwordSetup', { json: { token, password } });

async function outboxFor(email: string) {
  return t.db.select().from(mailMessages).where(eq(mailMessages.to, email));
}

describe('POST /api/user sends a password-setup message', () => {
  it('e-mails the new user who created the account, in which tenant, with a single-use link', async () => {
    const { res, email } = await createUser();
    expect(res.status).toBe(201);
    const [queued] = await outboxFor(email);
    expect(queued).toMatchObject({ kind: 'USER_PASSWORD_SETUP', status: 'PENDING', customerId: customerA });

    const token = await mailedToken(email);
    const mail = sink.messages.filter((m) => m.to.includes(email)).at(-1)!;
    expect(mail.to).toEqual([email]);
    expect(mail.subject).toBe('Your Signage Console account in Tenant A');
    expect(mail.text).toContain(`Olivia Owner (${ownerA.user.email}) created an account for you in Tenant A`);
    expect((await outboxFor(email))[0]!.status).toBe('SENT');
    // Only the token's hash is stored.
    const links = await t.db.select().from(passwordSetupTokens).where(eq(passwordSetupTokens.userId, res.body.id));
    expect(links).toHaveLength(1);
    expect(links[0]!.tokenHash).not.toBe(token);
    expect(links[0]!.expiresAt.getTime() - links[0]!.createdAt.getTime()).toBe(7 * 24 * 60 * 60 * 1000);
  });

  it('sends nothing when the create fails: duplicate e-mail (409) and a rolled-back create (unknown team)', async () => {
    const { email } = await createUser();
    const before = (await outboxFor(email)).length;
    const duplicate = await createUser(email);
    expect(duplicate.res.status).toBe(409);
    expect(await outboxFor(email)).toHaveLength(before);

    // The link is enqueued before the team assignment fails: the whole transaction rolls back.
    const rolledBack = await createUser(newEmail(), ownerA.token, {}, `?customerId=${customerA}&teamIds=${uuidv7()}`);
    expect(rolledBack.res.status).toBeGreaterThanOrEqual(400);
    expect(await outboxFor(rolledBack.email)).toHaveLength(0);
    expect(await t.db.select().from(users).where(eq(users.email, rolledBack.email))).toHaveLength(0);
  });

  it('sends nothing to an SSO-only user', async () => {
    const email = newEmail();
    const res = await t.request('POST', `/api/user?customerId=${customerA}`, {
      token: ownerA.token,
      json: { email, name: 'Sam Sso', role: 'EDITOR', authProvider: 'SAML' },
    });
    expect(res.status).toBe(201);
    expect(await outboxFor(email)).toHaveLength(0);
  });
});

describe('the password-setup link', () => {
  it('shows its state, sets the password once, ends the old sessions and is audited without secrets', async () => {
    const { res, email } = await createUser();
    const token = await mailedToken(email);
    const oldSession = await t.signIn(email, INITIAL_PASSWORD);

    const before = await state(token);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ state: 'VALID', email });
    expect(before.headers.get('cache-control')).toBe('no-store');

    const done = await complete(token);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ email });
    expect(await t.signIn(email, CHOSEN_PASSWORD)).toEqual(expect.any(String));
    expect((await t.token({ grant_type: 'password', username: email, password: INITIAL_PASSWORD })).status).toBe(400);
    expect((await t.request('GET', '/api/v2/user/me', { token: oldSession })).status).toBe(401);

    expect((await state(token)).body.state).toBe('USED');
    const again = await complete(token, 'yet-another-password');
    expect(again.status).toBe(409);
    expect(again.body.key).toBe('passwordSetup.error.used');

    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, res.body.id), eq(auditLog.action, 'setPasswordWithLink')));
    expect(entry).toMatchObject({ entityType: 'user', entityName: email, userId: res.body.id, customerId: customerA });
    const auditText = JSON.stringify(await t.db.select().from(auditLog));
    expect(auditText).not.toContain(token);
    expect(auditText).not.toContain(CHOSEN_PASSWORD);
  });

  it('refuses an expired link', async () => {
    const { res, email } = await createUser();
    const token = await mailedToken(email);
    await t.db
      .update(passwordSetupTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordSetupTokens.userId, res.body.id));
    expect((await state(token)).body).toMatchObject({ state: 'EXPIRED', email });
    const used = await complete(token);
    expect(used.status).toBe(409);
    expect(used.body.key).toBe('passwordSetup.error.expired');
    expect(await t.signIn(email, INITIAL_PASSWORD)).toEqual(expect.any(String));
  });

  it('is superseded by a newer link', async () => {
    const { email } = await createUser();
    const older = await mailedToken(email);
    const resend = await t.request('POST', `/api/user/resendPasswordSetup?email=${encodeURIComponent(email)}`, { token: ownerA.token });
    expect(resend.status).toBe(200);
    expect(resend.body).toEqual({ email, delivery: 'MAIL' });
    const newer = await mailedToken(email);
    expect(newer).not.toBe(older);
    const mail = sink.messages.filter((m) => m.to.includes(email)).at(-1)!;
    expect(mail.subject).toBe('Set up your Signage Console password');
    expect(mail.text).toContain('Olivia Owner');

    expect((await state(older)).body.state).toBe('SUPERSEDED');
    const refused = await complete(older);
    expect(refused.status).toBe(409);
    expect(refused.body.key).toBe('passwordSetup.error.superseded');
    expect((await complete(newer)).status).toBe(200);
  });

  it('refuses users whose customer is restricted', async () => {
    const customer = await t.factories.customer();
    const { email } = await createUser(newEmail(), admin.token, {}, `?customerId=${customer.id}`);
    const token = await mailedToken(email);
    await t.db.update(customers).set({ restricted: true }).where(eq(customers.id, customer.id));
    const res = await complete(token);
    expect(res.status).toBe(403);
    expect(res.body.key).toBe('passwordSetup.error.customerRestricted');
  });

  it('answers 404 for an unknown token and 400 for bad input', async () => {
    const unknown = await state('x'.repeat(43));
    expect(unknown.status).toBe(404);
    expect(unknown.body.key).toBe('passwordSetup.error.notFound');
    expect((await complete('y'.repeat(43))).status).toBe(404);
    expect((await state('short')).status).toBe(400);
    const { email } = await createUser();
    const token = await mailedToken(email);
    const weak = await complete(token, 'short');
    expect(weak.status).toBe(400);
    expect((await state(token)).body.state).toBe('VALID');
  });
});

describe('POST /api/user/resendPasswordSetup', () => {
  it('lets the OWNER of the tenant and an ADMIN resend; audits it', async () => {
    const { res, email } = await createUser();
    const path = `/api/user/resendPasswordSetup?email=${encodeURIComponent(email)}`;
    expect((await t.request('POST', path, { token: ownerA.token })).status).toBe(200);
    expect((await t.request('POST', path, { token: admin.token })).body).toEqual({ email, delivery: 'MAIL' });
    expect(await outboxFor(email)).toHaveLength(3);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, res.body.id), eq(auditLog.action, 'resendPasswordSetup')));
    expect(entries).toHaveLength(2);
  });

  it("refuses a role below OWNER, another tenant's user (404), a user above the caller's role and SSO users", async () => {
    const { email } = await createUser();
    const path = (e: string) => `/api/user/resendPasswordSetup?email=${encodeURIComponent(e)}`;
    const tech = await t.request('POST', path(email), { token: techA.token });
    expect(tech.status).toBe(403);
    const otherTenant = await t.request('POST', path(email), { token: ownerB.token });
    expect(otherTenant.status).toBe(404);
    const unknown = await t.request('POST', path('nobody@example.com'), { token: ownerA.token });
    expect(unknown.status).toBe(404);
    const adminInA = await t.factories.user({ role: 'ADMIN', customerId: customerA });
    const above = await t.request('POST', path(adminInA.email), { token: ownerA.token });
    expect(above.status).toBe(403);
    expect(above.body.key).toBe('user.error.roleAboveOwn');
    const sso = await t.factories.user({ customerId: customerA, authProvider: 'SAML', passwordHash: null });
    const ssoRes = await t.request('POST', path(sso.email), { token: ownerA.token });
    expect(ssoRes.status).toBe(400);
    expect(ssoRes.body.key).toBe('user.error.passwordNotLocal');
    expect(await outboxFor(email)).toHaveLength(1);
  });
});

describe('POST /api/user/passwordSetupLink', () => {
  const path = (e: string) => `/api/user/passwordSetupLink?email=${encodeURIComponent(e)}`;

  it('answers a working link to the OWNER of the tenant and to an ADMIN, e-mails nothing, audits it without the link', async () => {
    const { res, email } = await createUser();
    const mailedBefore = await outboxFor(email);
    const copied = await t.request('POST', path(email), { token: ownerA.token });
    expect(copied.status).toBe(200);
    expect(copied.headers.get('cache-control')).toBe('no-store');
    expect(copied.body).toMatchObject({
      email,
      link: expect.stringMatching(/^http:\/\/console\.test\/set-password\?token=[\w-]+$/),
      expiresAt: expect.any(String),
    });
    expect(await outboxFor(email)).toHaveLength(mailedBefore.length);
    const byAdmin = await t.request('POST', path(email), { token: admin.token });
    expect(byAdmin.status).toBe(200);
    // The newer link supersedes the older one; the newest works.
    const older = /token=([\w-]+)/.exec(copied.body.link)![1]!;
    const newer = /token=([\w-]+)/.exec(byAdmin.body.link)![1]!;
    expect((await state(older)).body.state).toBe('SUPERSEDED');
    expect((await complete(newer)).status).toBe(200);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, res.body.id), eq(auditLog.action, 'copyPasswordSetupLink')));
    expect(entries).toHaveLength(2);
    expect(JSON.stringify(entries)).not.toContain(older);
    expect(JSON.stringify(entries)).not.toContain(newer);
  });

  it("refuses a role below OWNER, another tenant's user, a network owner's OWNER for a member's user, and SSO users", async () => {
    const { email } = await createUser();
    expect((await t.request('POST', path(email), { token: techA.token })).status).toBe(403);
    expect((await t.request('POST', path(email), { token: ownerB.token })).status).toBe(404);
    const network = await t.factories.customer({ name: 'Network', isSubreseller: true, subresellerSince: new Date() });
    const member = await t.factories.customer({ name: 'Member', ownerSubresellerId: network.id });
    const networkOwner = await t.actor('OWNER', { customerId: network.id });
    const { email: memberUser } = await createUser(newEmail(), admin.token, {}, `?customerId=${member.id}`);
    const refused = await t.request('POST', `${path(memberUser)}&customerId=${member.id}`, { token: networkOwner.token });
    expect(refused.status).toBe(403);
    expect(refused.body.key).toBe('passwordSetup.error.notOwnTenant');
    const sso = await t.factories.user({ customerId: customerA, authProvider: 'SAML', passwordHash: null });
    expect((await t.request('POST', path(sso.email), { token: ownerA.token })).status).toBe(400);
  });
});

describe('without SMTP', () => {
  let plain: TestContext;
  beforeAll(async () => {
    plain = await createTestContext();
  });
  afterAll(() => plain.close());

  it('the resend says the message waits in the outbox, and the mail status says no SMTP is configured', async () => {
    const customer = await plain.factories.customer();
    const owner = await plain.actor('OWNER', { customerId: customer.id });
    const email = newEmail();
    expect(
      (
        await plain.request('POST', `/api/user?customerId=${customer.id}`, {
          token: owner.token,
          json: { email, name: 'Ivy', role: 'EDITOR', password: INITIAL_PASSWORD },
        })
      ).status,
    ).toBe(201);
    const res = await plain.request('POST', `/api/user/resendPasswordSetup?email=${encodeURIComponent(email)}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ email, delivery: 'OUTBOX' });
    expect((await plain.request('GET', '/api/mail/status', { token: owner.token })).body).toEqual({ smtpConfigured: false });
    expect((await t.request('GET', '/api/mail/status', { token: ownerA.token })).body).toEqual({ smtpConfigured: true });
  });
});

describe('wrong tokens are rate limited', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({ AUTH_MAX_FAILURES: '2' });
  });
  afterAll(() => limited.close());

  it('answers 429 with Retry-After after too many unknown tokens from one address', async () => {
    const path = `/public-api/user/passwordSetup?token=${'z'.repeat(43)}`;
    expect((await limited.request('GET', path)).status).toBe(404);
    expect((await limited.request('GET', path)).status).toBe(404);
    const res = await limited.request('GET', path);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
