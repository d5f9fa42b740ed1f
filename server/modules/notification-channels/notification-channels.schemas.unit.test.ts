import { describe, expect, it } from 'vitest';
import { NotificationChannelCreateSchema, notifyIssues } from './notification-channels.schemas';

describe('notifyIssues', () => {
  it('accepts e-mail addresses on EMAIL and E.164 numbers on SMS', () => {
    expect(notifyIssues('EMAIL', ['ops@example.com', 'lead@example.org'])).toEqual([]);
    expect(notifyIssues('SMS', ['+4915112345678', '+12025550123'])).toEqual([]);
    expect(notifyIssues('WEBHOOK', ['https://hooks.example.com/a?b=c'])).toEqual([]);
    expect(notifyIssues('WEBHOOK', ['http://10.0.0.5:8080/hook'])).toEqual([]);
    expect(notifyIssues('USER_NOTIFICATION', ['0190a6a2-0000-7000-8000-000000000001', '0190A6A2-0000-7000-8000-000000000002'])).toEqual([]);
  });

  it('takes exactly one URL on WEBHOOK', () => {
    expect(notifyIssues('WEBHOOK', ['https://a.example.com/', 'https://b.example.com/'])).toEqual([
      { path: ['notify', 1], reason: 'one', message: 'A WEBHOOK channel has exactly one URL' },
    ]);
  });

  it.each([
    ['EMAIL', ['+4915112345678']],
    ['EMAIL', ['not an address']],
    ['SMS', ['ops@example.com']],
    ['SMS', ['015112345678']],
    ['SMS', ['+0151123456']],
    ['SMS', ['+1234567890123456']],
    ['SMS', ['+49 151 12345678']],
    ['WEBHOOK', ['ftp://example.com/hook']],
    ['WEBHOOK', ['example.com/hook']],
    ['WEBHOOK', ['https://user:pw@example.com/hook']],
    ['USER_NOTIFICATION', ['ops@example.com']],
    ['USER_NOTIFICATION', ['0190a6a2-0000-7000-8000']],
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
