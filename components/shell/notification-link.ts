/** Where a notification leads: the screen of a device alert, the datasource of a datasource alert, nowhere for a test. */
export function notificationHref(data: Readonly<Record<string, unknown>>): string | null {
  const idOf = (value: unknown) => {
    if (typeof value !== 'object' || value === null || !('id' in value)) return null;
    const { id } = value;

    return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
  };
  const deviceId = idOf(data.device);
  if (deviceId) return `/screens/${encodeURIComponent(deviceId)}`;
  const datasourceId = idOf(data.datasource);

  return datasourceId ? `/datasources/${encodeURIComponent(datasourceId)}` : null;
}

/** The text under a notification's title, on one line: the default text starts with the title again, and blank lines. */
export function notificationSummary({ title, text }: { title: string; text: string }): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines[0] === title.trim()) lines.shift();

  return lines.join(' · ');
}
