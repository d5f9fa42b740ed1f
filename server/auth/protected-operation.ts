import type { ServiceContext } from '@/server/context/service-context';
import { ForbiddenError, TooManyRequestsError } from '@/server/errors';
import { claimAttempt } from './failure-limit';
import { consumeTotp, secondFactorStore } from './totp';

/**
 * Spec 1 item 9 / DECISIONS §3 and §5: protected operations (user create/update/delete, password
 * and second-factor changes, customer delete, configuration changes) demand a CAPTCHA response when
 * CAPTCHA_SECRET is configured, and the caller's one-time code when the caller uses a second factor.
 * The proof comes from the `g-recaptcha-response` and `x-totp` headers (see ServiceContext.proof).
 */
export async function requireProtectedOperation(ctx: ServiceContext): Promise<void> {
  const { captcha } = ctx.config;
  if (captcha) {
    const response = ctx.proof.captchaResponse;
    if (!response) throw new ForbiddenError('This operation requires a CAPTCHA response', 'auth.error.captchaRequired');
    if (!(await verifyCaptcha(captcha.verifyUrl, captcha.secret, response))) {
      throw new ForbiddenError('The CAPTCHA response is invalid', 'auth.error.captchaRequired');
    }
  }
  const caller = await secondFactorStore().secondFactorOf(ctx.db, ctx.actor.userId);
  if (caller?.use2FA && caller.totpSecret) {
    if (!ctx.proof.totp) throw new ForbiddenError('This operation requires your one-time code (x-totp)', 'auth.error.totpRequired');
    // Counted like failed sign-ins, before the check: a stolen session must not be able to guess codes.
    const subject = `totp:${ctx.actor.userId}`;
    const claim = await claimAttempt(ctx.db, ctx.config, [subject]);
    if (!claim.allowed) throw new TooManyRequestsError(claim.retryAfterSeconds, 'Too many wrong one-time codes; try again later');
    if (!(await consumeTotp(ctx.db, ctx.actor.userId, caller.totpSecret, ctx.proof.totp)))
      throw new ForbiddenError('The one-time code is invalid', 'auth.error.totpInvalid');
    await claim.attempt.release(ctx.db, { clear: [subject] });
  }
}

async function verifyCaptcha(verifyUrl: string, secret: string, response: string): Promise<boolean> {
  try {
    const res = await fetch(verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret, response }).toString(),
      signal: AbortSignal.timeout(5_000),
    });
    if (!res.ok) return false;
    const body = (await res.json()) as { success?: boolean };

    return body.success === true;
  } catch {
    return false;
  }
}
