import { Secret, TOTP } from 'otpauth';
import { claimAttempt } from '@/server/auth/failure-limit';
import { hashPassword, verifyPassword } from '@/server/auth/password';
import { requireProtectedOperation } from '@/server/auth/protected-operation';
import { withTransaction } from '@/server/db/transaction';
import {
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  TooManyRequestsError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import { consumeTotp } from '@/server/auth/totp';
import { acceptedImageType, IMAGE_TYPES, isAcceptedImageType } from '@/server/storage/image-types';
import * as q from './users.queries';
import { auditUser, readUser } from './users.service';

const PROFILE_PICTURE_MAX_BYTES = 2 * 1024 * 1024;
const TOTP_ISSUER = 'Digital Signage';

/** A profile picture is any image type the service stores; the declared type must be what its bytes show. */
const PICTURE_TYPES = IMAGE_TYPES;

async function me(ctx: ServiceContext) {
  const user = await q.findOwnUser(ctx.db, ctx.actor);
  if (!user) throw new NotFoundError('user', ctx.actor.userId);

  return user;
}

/** POST /api/user/password: the caller's own password; every session of the caller ends (DECISIONS §5). */
export async function changePassword(ctx: ServiceContext, input: { oldPassword: string; newPassword: string }) {
  const user = await me(ctx);
  if (user.authProvider !== 'LOCAL') {
    throw new ValidationError('user.error.passwordNotLocal', `A ${user.authProvider} user has no local password`, { field: 'newPassword' });
  }
  await requireProtectedOperation(ctx);
  // A stolen session must not become a password-guessing oracle: wrong old passwords are limited
  // like failed sign-ins, counted before the check so that parallel guesses cannot overrun the limit.
  const subject = `password:${user.id}`;
  const claim = await claimAttempt(ctx.db, ctx.config, [subject]);
  if (!claim.allowed) throw new TooManyRequestsError(claim.retryAfterSeconds, 'Too many wrong passwords; try again later');
  if (!(await verifyPassword(user.passwordHash, input.oldPassword))) {
    throw new ValidationError('user.error.oldPasswordInvalid', 'The current password is wrong', { parameter: 'oldPassword' });
  }
  await claim.attempt.release(ctx.db, { clear: [subject] });
  const passwordHash = await hashPassword(input.newPassword);

  return withTransaction(ctx.db, async (tx) => {
    await q.updateUser(tx, user, { passwordHash });
    await q.revokeAllFamiliesOfUser(tx, user.id, 'password_change');
    await auditUser(tx, ctx, user, 'changePassword', `User '${user.email}' changed their password`, { password: 'changed' });

    return (await readUser(tx, user))!;
  });
}

/**
 * POST /api/user/2fa/secret (DECISIONS §6): a new pending secret; nothing changes for sign-in until
 * POST /api/user/2fa confirms it with a code. An active second factor must be disabled first, so a
 * stolen session cannot swap it silently.
 */
export async function createTwoFactorSecret(ctx: ServiceContext) {
  const user = await me(ctx);
  if (user.use2FA) throw new ConflictError('user.error.twoFactorEnabled', 'The second factor is already enabled; disable it first');
  const secret = new Secret({ size: 20 });
  const otpauthUrl = new TOTP({ issuer: TOTP_ISSUER, label: user.email, secret, digits: 6, period: 30, algorithm: 'SHA1' }).toString();
  await withTransaction(ctx.db, async (tx) => {
    await q.updateUser(tx, user, { totpPendingSecret: secret.base32 });
    await auditUser(tx, ctx, user, 'createTwoFactorSecret', `User '${user.email}' started second-factor enrolment`);
  });

  return { secret: secret.base32, otpauthUrl };
}

/**
 * POST /api/user/2fa?totp=&enable=. Enabling confirms the pending secret with a code from it;
 * disabling is a protected operation (the current code, from `x-totp` or `totp`) and is refused
 * while the customer forces a second factor (an OWNER can still reset it through PUT /api/user/).
 */
export async function setTwoFactor(ctx: ServiceContext, input: { totp?: string; enable: boolean }) {
  const user = await me(ctx);
  if (input.enable) {
    if (user.use2FA) throw new ConflictError('user.error.twoFactorEnabled', 'The second factor is already enabled');
    if (!user.totpPendingSecret)
      throw new ConflictError('user.error.noPendingSecret', 'Request a secret with POST /api/user/2fa/secret first');
    if (!input.totp)
      throw new ValidationError('user.error.totpRequired', 'The code from the new secret is required', { parameter: 'totp' });
    await requireProtectedOperation(ctx);
    if (!(await consumeTotp(ctx.db, user.id, user.totpPendingSecret, input.totp)))
      throw new ValidationError('user.error.totpInvalid', 'The code does not match the new secret', { parameter: 'totp' });
    const secret = user.totpPendingSecret;

    return withTransaction(ctx.db, async (tx) => {
      await q.updateUser(tx, user, { use2FA: true, totpSecret: secret, totpPendingSecret: null, forceToSet2FA: false });
      await auditUser(tx, ctx, user, 'enableTwoFactor', `User '${user.email}' enabled the second factor`, {
        use2FA: { from: false, to: true },
      });

      return (await readUser(tx, user))!;
    });
  }
  if (!user.use2FA) return (await readUser(ctx.db, user))!;
  if ((await q.findCustomerFlags(ctx.db, user.customerId))?.force2FA) {
    throw new ConflictError('user.error.twoFactorForced', 'Your customer requires a second factor');
  }
  await requireProtectedOperation({ ...ctx, proof: { ...ctx.proof, totp: ctx.proof.totp ?? input.totp } });

  return withTransaction(ctx.db, async (tx) => {
    await q.updateUser(tx, user, { use2FA: false, totpSecret: null, totpPendingSecret: null });
    await auditUser(tx, ctx, user, 'disableTwoFactor', `User '${user.email}' disabled the second factor`, {
      use2FA: { from: true, to: false },
    });

    return (await readUser(tx, user))!;
  });
}

/** DECISIONS §3: 415 for a type other than PNG, JPEG, WebP or GIF (declared or actual), 413 above 2 MB. */
export async function uploadProfilePicture(ctx: ServiceContext, input: { file: File }) {
  const { file } = input;
  if (!isAcceptedImageType(file.type, PICTURE_TYPES))
    throw new UnsupportedMediaTypeError('A profile picture must be PNG, JPEG, WebP or GIF');
  if (file.size > PROFILE_PICTURE_MAX_BYTES) {
    throw new PayloadTooLargeError('A profile picture is at most 2 MB', 'request.error.payloadTooLarge', {
      maxBytes: PROFILE_PICTURE_MAX_BYTES,
    });
  }
  const data = Buffer.from(await file.arrayBuffer());
  const contentType = acceptedImageType(data, { accepted: PICTURE_TYPES, declared: file.type });
  if (!contentType) throw new UnsupportedMediaTypeError(`The file content is not ${file.type.split(';')[0]}`);
  const user = await me(ctx);

  return withTransaction(ctx.db, async (tx) => {
    await q.upsertProfilePicture(tx, { userId: user.id, contentType, data });
    await auditUser(tx, ctx, user, 'updateProfilePicture', `User '${user.email}' uploaded a profile picture`, {
      contentType,
      size: data.length,
    });

    return (await readUser(tx, user))!;
  });
}

export async function deleteProfilePicture(ctx: ServiceContext) {
  const user = await me(ctx);
  await withTransaction(ctx.db, async (tx) => {
    if (await q.deleteProfilePicture(tx, user.id)) {
      await auditUser(tx, ctx, user, 'deleteProfilePicture', `User '${user.email}' removed their profile picture`);
    }
  });
}

/** The picture bytes of a user the caller can see (the user's `profilePictureApiPath`). */
export async function getProfilePicture(ctx: ServiceContext, input: { id: string }) {
  const picture = await q.findProfilePicture(ctx.db, ctx.scope, input.id);
  if (!picture) throw new NotFoundError('profilePicture', input.id);

  return picture;
}
