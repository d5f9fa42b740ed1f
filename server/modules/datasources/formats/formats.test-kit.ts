import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { FormatError } from './errors';

/** A file of ./fixtures as the bytes a fetch would hand over. */
export function fixture(name: string): Buffer {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
}

/** The FormatError `run` throws (the test fails when it throws nothing or another error). */
export function formatErrorOf(run: () => unknown): FormatError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FormatError);
    if (error instanceof FormatError) return error;
  }
  throw new Error('expected a FormatError, but nothing was thrown');
}

/** A tenant-readable message: one sentence, no stack, no library internals. */
export function expectReadable(error: FormatError): void {
  expect(error.message).toMatch(/^[A-Z"“].*[.)]$/s);
  expect(error.message).not.toMatch(/\n\s+at /);
  expect(error.message.length).toBeLessThan(400);
}
