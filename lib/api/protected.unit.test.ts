import { createTranslator } from 'next-intl';
import errors from '@/messages/en/errors.json';
import { localizedError } from '@/lib/i18n/errors';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api/client';
import { ProofCancelledError, TOTP_INVALID, TOTP_REQUIRED, isTotpError, withTotp } from '@/lib/api/protected';

const required = () => new ApiError({ status: 403, key: TOTP_REQUIRED, message: 'code needed' });
const invalid = () => new ApiError({ status: 403, key: TOTP_INVALID, message: 'bad code' });

describe('withTotp', () => {
  it('runs once without proof when none is needed', async () => {
    const run = vi.fn(async () => 'ok');
    const ask = vi.fn();
    await expect(withTotp(run, ask)).resolves.toBe('ok');
    expect(run).toHaveBeenCalledWith({});
    expect(ask).not.toHaveBeenCalled();
  });

  it('asks for a code on totpRequired and retries with x-totp', async () => {
    const run = vi.fn().mockRejectedValueOnce(required()).mockResolvedValueOnce('done');
    const ask = vi.fn(async () => ' 123 456 ');
    await expect(withTotp(run, ask)).resolves.toBe('done');
    expect(ask).toHaveBeenCalledWith({ retry: false });
    expect(run).toHaveBeenLastCalledWith({ 'x-totp': '123456' });
  });

  it('asks again after a wrong code, then gives up after the last attempt', async () => {
    const run = vi.fn().mockRejectedValueOnce(required()).mockRejectedValue(invalid());
    const ask = vi.fn(async () => '000000');
    const error = await withTotp(run, ask, 2).catch((e: unknown) => e);
    expect((error as ApiError).key).toBe(TOTP_INVALID);
    expect(ask.mock.calls).toEqual([[{ retry: false }], [{ retry: true }]]);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('stops when the prompt is cancelled', async () => {
    const run = vi.fn().mockRejectedValue(required());
    await expect(withTotp(run, async () => null)).rejects.toBeInstanceOf(ProofCancelledError);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('passes other errors through untouched', async () => {
    const conflict = new ApiError({ status: 409, key: 'user.error.exists', message: 'exists' });
    const ask = vi.fn();
    await expect(withTotp(async () => Promise.reject(conflict), ask)).rejects.toBe(conflict);
    expect(ask).not.toHaveBeenCalled();
  });
});

describe('isTotpError', () => {
  it('recognises only the 403 second-factor keys', () => {
    expect(isTotpError(required())).toBe(true);
    expect(isTotpError(new ApiError({ status: 400, key: TOTP_REQUIRED, message: '' }))).toBe(false);
    expect(isTotpError(new Error('x'))).toBe(false);
  });

  it('words proof errors from the errors catalogue, other errors by the API message', () => {
    const english = createTranslator({ locale: 'en', messages: { errors }, namespace: 'errors' });
    const word = (key: string) =>
      english.has(key as never) && typeof english.raw(key as never) === 'string' ? english(key as never) : null;
    expect(localizedError(new ApiError({ status: 409, key: 'x', message: 'The e-mail exists' }), word)).toBe('The e-mail exists');
    expect(localizedError(invalid(), word)).toMatch(/not accepted/);
  });
});
