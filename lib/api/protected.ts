import { ApiError } from '@/lib/api/client';

/** Headers that prove a protected operation (DECISIONS §3): the caller's one-time code. */
export type ProofHeaders = Record<string, string>;

export const TOTP_REQUIRED = 'auth.error.totpRequired';
export const TOTP_INVALID = 'auth.error.totpInvalid';

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
