/** The PostgreSQL error (code, constraint) inside `err`, possibly wrapped by drizzle, if there is one. */
function postgresError(err: unknown): { code: string; constraint?: string } | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const e = current as { code?: string; constraint?: string; cause?: unknown };
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return { code: e.code, constraint: e.constraint };
    current = e.cause;
  }

  return undefined;
}

function isViolation(err: unknown, code: string, constraint: string | undefined): boolean {
  const found = postgresError(err);

  return found?.code === code && (constraint === undefined || found.constraint === constraint);
}

/** True when `err` is a unique violation, optionally of one constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  return isViolation(err, '23505', constraint);
}

/** True when `err` is a foreign-key violation, optionally of one constraint. */
export function isForeignKeyViolation(err: unknown, constraint?: string): boolean {
  return isViolation(err, '23503', constraint);
}
