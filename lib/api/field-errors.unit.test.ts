import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/client';
import { apiFieldErrors } from '@/lib/api/field-errors';

const invalid = (issues: unknown, status = 400) =>
  new ApiError({ status, key: 'error.validation', message: 'Invalid body', details: { target: 'json', issues } });

describe('API validation issues on form fields', () => {
  it('maps each issue that names a field, the first message per field', () => {
    const error = invalid([
      { path: 'name', message: 'Too long' },
      { path: 'name', message: 'Second' },
      { path: 'comment', message: 'Bad' },
      { path: 'unknown', message: 'Not a field' },
    ]);
    expect(apiFieldErrors(error, ['name', 'comment'])).toEqual([
      { field: 'name', message: 'Too long' },
      { field: 'comment', message: 'Bad' },
    ]);
  });

  it('counts a nested path for its top field', () => {
    expect(apiFieldErrors(invalid([{ path: 'limits.0.value', message: 'Negative' }]), ['limits'])).toEqual([
      { field: 'limits', message: 'Negative' },
    ]);
  });

  it('ignores other errors and malformed details', () => {
    expect(apiFieldErrors(invalid([{ path: 'name', message: 'x' }], 409), ['name'])).toEqual([]);
    expect(apiFieldErrors(invalid('not a list'), ['name'])).toEqual([]);
    expect(apiFieldErrors(invalid([null, { path: 3, message: 'x' }]), ['name'])).toEqual([]);
    expect(apiFieldErrors(new Error('network'), ['name'])).toEqual([]);
  });
});
