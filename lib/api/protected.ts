import { ApiError } from '@/lib/api/client';

/** Headers that prove a protected operation (DECISIONS §3): the caller's one-time code. */
export type ProofHeaders = Record<string, string>;

export const TOTP_REQUIRED = 'auth.error.totpRequired';
export const TOTP_INVALID = 'auth.error.totpInvalid';
export const CAPTCHA_REQUIRED = 'auth.error.captchaRequired';

export function isTotpError(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 403 && (error.key === TOTP_REQUIRED || error.key === TOTP_INVALID);
}

/** Thrown when the user closes the one-time-code prompt; callers show nothing for it. */
export class ProofCancelledError extends Error {
  constructor() {
    super('Cancelled');
    this.name = 'ProofCancelledError';
  }
}

export function isCancelled(error: unknown): boolean {
  return error instanceof ProofCancelledError;
}

/** Asks the user for a one-time code; `retry` is true after a wrong one. Resolves null when cancelled. */
export type AskTotp = (options: { retry: boolean }) => Promise<string | null>;

/**
 * Runs a protected operation: first without proof; when the API asks for the caller's one-time code
 * (403 totpRequired / totpInvalid), prompts for it and retries with `x-totp`, up to `maxAttempts` codes.
 */
export async function withTotp<T>(run: (headers: ProofHeaders) => Promise<T>, ask: AskTotp, maxAttempts = 3): Promise<T> {
  try {
    return await run({});
  } catch (error) {
    if (!isTotpError(error)) throw error;
    let retry = error.key === TOTP_INVALID;
    for (let attempt = 1; ; attempt++) {
      const code = await ask({ retry });
      if (code === null) throw new ProofCancelledError();
      try {
        return await run({ 'x-totp': code.replace(/\s+/g, '') });
      } catch (next) {
        if (!isTotpError(next) || attempt >= maxAttempts) throw next;
        retry = true;
      }
    }
  }
}

/** A message for an API error shown in a form; the one-time-code and CAPTCHA cases get plain words. */
/** English only: a converted component uses `useErrorMessage()` (lib/i18n/errors.ts), which words these keys in the console's language. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.key === TOTP_INVALID) return 'The one-time code was not accepted. Try again with a new code.';
    if (error.key === TOTP_REQUIRED) return 'This change needs the one-time code from your authenticator app.';
    if (error.key === CAPTCHA_REQUIRED) return 'This change needs a CAPTCHA check, which this console cannot show. Use the API.';

    return error.message;
  }

  return error instanceof Error ? error.message : 'Something went wrong.';
}
