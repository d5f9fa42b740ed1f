import { storableText } from './storable';

/**
 * A document that cannot be turned into datasource data. The message is shown to the tenant as the datasource's
 * `lastError` or as a "Test" refusal, so it is one readable sentence and never a library's stack or internals.
 */
export class FormatError extends Error {
  constructor(message: string) {
    // The message is stored in a text column (PostgreSQL refuses NUL there too) and shown in a form.
    const text = storableText(message);
    super(text.length > 500 ? `${text.slice(0, 499)}…` : text);
    this.name = 'FormatError';
  }
}

/** A library's error message cut to something a sentence can carry (first line, at most 200 characters). */
export function shortReason(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const firstLine = raw.split('\n')[0]?.trim() ?? '';

  return firstLine.length > 200 ? `${firstLine.slice(0, 199)}…` : firstLine;
}
