import { describe, expect, it } from 'vitest';
import { notificationHref } from './notification-link';

describe('notificationHref', () => {
  it('leads a device alert to its screen', () => {
    expect(notificationHref({ device: { id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', name: 'Lobby' } })).toBe(
      '/screens/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
    );
  });

  it('leads a datasource alert to its datasource', () => {
    expect(notificationHref({ device: null, datasource: { id: 'ds/1', name: 'Weather' } })).toBe('/datasources/ds%2F1');
  });

  it('leads a test or a malformed payload nowhere', () => {
    expect(notificationHref({ test: true })).toBeNull();
    expect(notificationHref({ device: { name: 'no id' }, datasource: 'x' })).toBeNull();
  });
});
