import { describe, expect, it } from 'vitest';
import { NotificationChannelCreateSchema, notifyIssues } from './notification-channels.schemas';

describe('notifyIssues', () => {
  it('accepts e-mail addresses on EMAIL and E.164 numbers on SMS', () => {
    expect(notifyIssues('EMAIL', ['ops@example.com', 'lead@example.org'])).toEqual([]);
    expect(notifyIssues('SMS', ['+4915112345678', '+12025550123'])).toEqual([]);
  });

  it.each([
    ['EMAIL', ['+4915112345678']],
    ['EMAIL', ['not an address']],
    ['SMS', ['ops@example.com']],
    ['SMS', ['015112345678']],
    ['SMS', ['+0151123456']],
    ['SMS', ['+1234567890123456']],
    ['SMS', ['+49 151 12345678']],
  ] as const)('refuses on %s: %j', (type, notify) => {
    expect(notifyIssues(type, notify)).toEqual([{ path: ['notify', 0], reason: 'form', message: expect.any(String) }]);
  });

  it('names an entry listed twice (e-mail addresses ignoring case)', () => {
    expect(notifyIssues('EMAIL', ['a@example.com', 'b@example.com', 'A@example.com'])).toEqual([
      { path: ['notify', 2], reason: 'twice', message: 'Listed twice' },
    ]);
  });
});

describe('NotificationChannelCreateSchema', () => {
  it('requires a comment, which may be empty, and trims the entries', () => {
    const base = { name: 'On call', channelType: 'EMAIL', notify: [' ops@example.com '] };
    expect(NotificationChannelCreateSchema.safeParse(base).success).toBe(false);
    expect(NotificationChannelCreateSchema.parse({ ...base, comment: '' })).toMatchObject({ comment: '', notify: ['ops@example.com'] });
  });
});
