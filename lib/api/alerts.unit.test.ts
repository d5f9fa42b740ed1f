import { describe, expect, it } from 'vitest';
import { newestAlerts, type DatasourceAlert, type DeviceAlert } from '@/lib/api/alerts';

const device = (id: number, createdAtDate: string): DeviceAlert => ({ id, createdAtDate, deviceName: `screen ${id}` });
const datasource = (id: number, createdAtDate: string): DatasourceAlert => ({ id, createdAtDate, datasourceName: `feed ${id}` });

describe('newestAlerts', () => {
  it('merges both kinds by opening time, newest first, and keeps the first `limit`', () => {
    const merged = newestAlerts(
      [device(3, '2026-11-30T09:00:00.000Z'), device(1, '2026-11-29T09:00:00.000Z')],
      [datasource(7, '2026-11-30T10:00:00.000Z'), datasource(2, '2026-11-28T09:00:00.000Z')],
      3,
    );
    expect(merged.map((item) => `${item.kind} ${item.alert.id}`)).toEqual(['datasource 7', 'device 3', 'device 1']);
  });

  it('orders alerts of the same instant by id, and answers none for none', () => {
    const at = '2026-11-30T09:00:00.000Z';
    expect(newestAlerts([device(1, at)], [datasource(2, at)], 5).map((item) => item.alert.id)).toEqual([2, 1]);
    expect(newestAlerts([], [], 5)).toEqual([]);
  });
});
