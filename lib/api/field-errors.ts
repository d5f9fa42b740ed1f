import { ApiError } from '@/lib/api/client';

/**
 * The issues of a 400 validation error (DECISIONS: `details.issues`, each `{ path, message }`) that name
 * one of a form's fields, so a form can show each message under its field. A nested path counts for its
 * first segment when that is a field (`slides.0.duration` → `slides`).
 */
export function apiFieldErrors(error: unknown, fieldNames: readonly string[]): Array<{ field: string; message: string }> {
  if (!(error instanceof ApiError) || error.status !== 400) return [];
  const issues = error.details?.issues;
  if (!Array.isArray(issues)) return [];
  const found = new Map<string, string>();
  for (const issue of issues as Array<{ path?: unknown; message?: unknown }>) {
    if (typeof issue?.path !== 'string' || typeof issue.message !== 'string') continue;
    const field = fieldNames.includes(issue.path) ? issue.path : issue.path.split('.')[0];
    if (field && fieldNames.includes(field) && !found.has(field)) found.set(field, issue.message);
  }

  return [...found].map(([field, message]) => ({ field, message }));
}
