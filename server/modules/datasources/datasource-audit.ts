import type { DatasourceRow } from './datasources.table';

/*
 * What the audit log keeps of a datasource's settings (README "Secrets"): request header values and a URL's user and
 * password never reach it.
 */

/** The audit entry's view of a datasource's settings: request header values never reach the log (they carry credentials). */
export function auditedFields(row: DatasourceRow): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of [
    'name',
    'comment',
    'sourceType',
    'structureType',
    'type',
    'systemDatasourceType',
    'remoteUrl',
    'refreshFrequency',
    'fileFolderId',
  ] as const) {
    if (row[key] !== null && row[key] !== '') fields[key] = row[key];
  }

  return redacted(fields);
}

export function redacted(changes: Record<string, unknown>): Record<string, unknown> {
  const hide = (settings: unknown) =>
    settings && typeof settings === 'object' && 'headers' in settings
      ? {
          ...settings,
          headers: Object.fromEntries(Object.keys((settings as { headers?: object }).headers ?? {}).map((h) => [h, '[redacted]'])),
        }
      : settings;
  const out = { ...changes };
  const change = out.requestSettings;
  if (change && typeof change === 'object' && 'from' in change && 'to' in change)
    out.requestSettings = { from: hide(change.from), to: hide(change.to) };
  else if ('requestSettings' in out) out.requestSettings = hide(change);
  if (typeof out.remoteUrl === 'string') out.remoteUrl = withoutCredentials(out.remoteUrl);

  return out;
}

/** A URL without its user and password (they are credentials). */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';

    return parsed.toString();
  } catch {
    return url;
  }
}
