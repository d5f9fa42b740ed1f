/** True when `err` (possibly wrapped by drizzle) is a unique violation, optionally of one constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const e = current as { code?: string; constraint?: string; cause?: unknown };
    if (e.code === '23505') return constraint === undefined || e.constraint === constraint;
    current = e.cause;
  }

  return false;
}
