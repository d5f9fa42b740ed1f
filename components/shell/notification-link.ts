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
