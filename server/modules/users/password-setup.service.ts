import { v7 as uuidv7 } from 'uuid';
import { claimAttempt } from '@/server/auth/failure-limit';
import { hashToken, newOpaqueToken } from '@/server/auth/opaque-token';
import { hashPassword } from '@/server/auth/password';
import { homeCustomerOf } from '@/server/context/actor';
import { hasRole } from '@/server/context/roles';
import type { Config } from '@/server/config';
import type { Database, Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, ForbiddenError, NotFoundError, TooManyRequestsError, ValidationError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import { auditChange, writeAudit } from '@/server/modules/audit-log';
import { enqueueMail, mailStatus, nudgeMailDelivery } from '@/server/modules/mail';
import * as setupQ from './password-setup.queries';
import { passwordSetupMessage } from './password-setup.message';
import * as q from './users.queries';

const LINK_VALIDITY_MS = 7 * 24 * 60 * 60 * 1000;
export const linkStates = ['VALID', 'EXPIRED', 'USED', 'SUPERSEDED'] as const;
export type LinkState = (typeof linkStates)[number];

/** What the public endpoints know of their caller: no signed-in user. */
export type PublicContext = { db: Database; config: Config; requestId: string; address: string };

export type LinkRecipient = { id: string; email: string; name: string; customerId: number };

/**
 * Creates a password-setup link for the user and enqueues its e-mail, in the caller's transaction
 * (a rolled-back create sends nothing). Older open links of the user stop working. With `mail: false`
 * (a link copied by an administrator) nothing is e-mailed; the link is answered to the caller only.
 */
export async function issuePasswordSetupLink(
  tx: Executor,
  input: { config: Config; user: LinkRecipient; sender: { name: string; email: string }; reason: 'created' | 'resent'; mail?: boolean },
): Promise<{ link: string; expiresAt: Date }> {
  const now = new Date();
  const token = newOpaqueToken();
  const expiresAt = new Date(now.getTime() + LINK_VALIDITY_MS);
  await setupQ.supersedeOpenLinks(tx, input.user.id, now);
  await setupQ.insertLink(tx, { id: uuidv7(), userId: input.user.id, tokenHash: hashToken(token), createdAt: now, expiresAt });
  const link = `${consoleBaseUrl(input.config)}/set-password?token=${encodeURIComponent(token)}`;
  if (input.mail === false) return { link, expiresAt };
  const customer = await q.findCustomerFlags(tx, input.user.customerId);
  const message = passwordSetupMessage({
    to: input.user.email,
    userName: input.user.name,
    customerId: input.user.customerId,
    customerName: customer?.name ?? '',
    sender: input.sender,
    link,
    expiresAt,
    reason: input.reason,
  });
  await enqueueMail(tx, message);

  return { link, expiresAt };
}

/** How a resent link travels: by e-mail through the configured SMTP server, or it waits in the outbox (none configured). */
export type LinkDelivery = 'MAIL' | 'OUTBOX';

/** A LOCAL user the caller may manage (the user-update reach), for the link verbs. */
async function linkTarget(ctx: ServiceContext, email: string) {
  const target = await q.findUserByEmail(ctx.db, ctx.scope, email);
  if (!target) throw new NotFoundError('user', email);
  if (!hasRole(ctx.actor.role, target.role))
    throw new ForbiddenError(`You cannot manage a user with role ${target.role}`, 'user.error.roleAboveOwn');
  if (target.authProvider !== 'LOCAL') {
    throw new ValidationError('user.error.passwordNotLocal', `A ${target.authProvider} user has no local password`, { parameter: 'email' });
  }

  return target;
}

/** POST /api/user/resendPasswordSetup?email=: a fresh link; the same reach as updating the user. */
export async function resendPasswordSetup(
  ctx: ServiceContext,
  input: { email: string },
): Promise<{ email: string; delivery: LinkDelivery }> {
  const target = await linkTarget(ctx, input.email);
  await withTransaction(ctx.db, async (tx) => {
    await issuePasswordSetupLink(tx, { config: ctx.config, user: target, sender: ctx.actor, reason: 'resent' });
    await auditChange(tx, ctx, {
      action: 'resendPasswordSetup',
      entityType: 'user',
      entityId: target.id,
      entityName: target.email,
      customerId: target.customerId,
      message: `Password-setup link sent again to '${target.email}'`,
    });
  });
  nudgeMailDelivery();

  return { email: target.email, delivery: mailStatus(ctx.config).smtpConfigured ? 'MAIL' : 'OUTBOX' };
}

/**
 * POST /api/user/passwordSetupLink?email=: a fresh link answered to the caller, not e-mailed (for a
 * service without SMTP). Only a super admin, or an OWNER of the user's own tenant (not of its network
 * owner); earlier links stop working. Audited without the token.
 */
export async function copyPasswordSetupLink(
  ctx: ServiceContext,
  input: { email: string },
): Promise<{ email: string; link: string; expiresAt: string }> {
  const target = await linkTarget(ctx, input.email);
  if (ctx.actor.role !== 'ADMIN' && homeCustomerOf(ctx.actor) !== target.customerId) {
    throw new ForbiddenError(
      "Only a super admin or an administrator of the user's own tenant may copy a password-setup link",
      'passwordSetup.error.notOwnTenant',
    );
  }
  const issued = await withTransaction(ctx.db, async (tx) => {
    const link = await issuePasswordSetupLink(tx, { config: ctx.config, user: target, sender: ctx.actor, reason: 'resent', mail: false });
    await auditChange(tx, ctx, {
      action: 'copyPasswordSetupLink',
      entityType: 'user',
      entityId: target.id,
      entityName: target.email,
      customerId: target.customerId,
      message: `Password-setup link for '${target.email}' issued to be copied (earlier links stop working)`,
    });

    return link;
  });

  return { email: target.email, link: issued.link, expiresAt: issued.expiresAt.toISOString() };
}

/** GET /public-api/user/passwordSetup?token=: whether the link can still be used, and for whom. */
export async function readPasswordSetupLink(ctx: PublicContext, input: { token: string }) {
  const link = await findLink(ctx, input.token);

  return { state: stateOf(link), email: link.user.email, expiresAt: link.expiresAt.toISOString() };
}

/**
 * POST /public-api/user/passwordSetup: sets the password with a valid link, once. Every session of
 * the user ends, as with a password change (DECISIONS §5).
 */
export async function completePasswordSetup(ctx: PublicContext, input: { token: string; password: string }) {
  const link = await findLink(ctx, input.token);
  assertUsable(stateOf(link));
  if (link.customerRestricted) throw new ForbiddenError('Your customer is restricted', 'passwordSetup.error.customerRestricted');
  if (link.user.authProvider !== 'LOCAL') {
    throw new ValidationError('user.error.passwordNotLocal', `A ${link.user.authProvider} user has no local password`, {
      field: 'password',
    });
  }
  const passwordHash = await hashPassword(input.password);
  await withTransaction(ctx.db, async (tx) => {
    // Two requests with one link: only the first consumes it.
    if (!(await setupQ.consumeLink(tx, link.id))) assertUsable('USED');
    await q.updateUser(tx, link.user, { passwordHash });
    await q.revokeAllFamiliesOfUser(tx, link.user.id, 'password_setup');
    await writeAudit(
      tx,
      { kind: 'user', userId: link.user.id, email: link.user.email, requestId: ctx.requestId },
      {
        action: 'setPasswordWithLink',
        entityType: 'user',
        entityId: link.user.id,
        entityName: link.user.email,
        customerId: link.user.customerId,
        message: `User '${link.user.email}' set their password with a password-setup link`,
        changes: { password: 'set' },
      },
    );
  });

  return { email: link.user.email };
}

/** Wrong tokens count as failed secret checks per address, like failed sign-ins. */
async function findLink(ctx: PublicContext, token: string) {
  const claim = await claimAttempt(ctx.db, ctx.config, [`passwordSetup:${ctx.address}`]);
  if (!claim.allowed) throw new TooManyRequestsError(claim.retryAfterSeconds, 'Too many unknown links; try again later');
  const link = await setupQ.findLinkByHash(ctx.db, hashToken(token));
  // An unknown token keeps the claimed slot (a counted failure); a known one gives it back.
  if (!link) throw new NotFoundError('passwordSetup');
  await claim.attempt.release(ctx.db);

  return link;
}

function stateOf(link: { expiresAt: Date; usedAt: Date | null; supersededAt: Date | null }): LinkState {
  if (link.usedAt) return 'USED';
  if (link.supersededAt) return 'SUPERSEDED';

  return link.expiresAt.getTime() <= Date.now() ? 'EXPIRED' : 'VALID';
}

function assertUsable(state: LinkState): void {
  if (state === 'USED') throw new ConflictError('passwordSetup.error.used', 'This link was used already');
  if (state === 'SUPERSEDED') throw new ConflictError('passwordSetup.error.superseded', 'A newer link was sent; use that one');
  if (state === 'EXPIRED') throw new ConflictError('passwordSetup.error.expired', 'This link has expired');
}

function consoleBaseUrl(config: Config): string {
  return (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
}
