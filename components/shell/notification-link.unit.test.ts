import { describe, expect, it } from 'vitest';
import { notificationHref, notificationSummary } from './notification-link';

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

describe('notificationSummary', () => {
  it('leaves out the title repeated as the first line, and blank lines', () => {
    expect(
      notificationSummary({ title: 'Test notification', text: 'Test notification\n\nTime: 2026-11-29T22:35:00Z\n\nThis is a test.' }),
    ).toBe('Time: 2026-11-29T22:35:00Z · This is a test.');
  });

  it('keeps a text of a rule template whole', () => {
    expect(notificationSummary({ title: 'Lobby is dark', text: 'Call the caretaker' })).toBe('Call the caretaker');
  });
});
