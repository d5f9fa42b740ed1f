import { describe, expect, it } from 'vitest';
import { auditLogCsvUrl, auditLogQuery, dayEnd, dayStart } from '@/lib/api/audit-log';

describe('audit log query', () => {
  it('turns local days into an inclusive epoch-ms range', () => {
    const start = dayStart('2026-03-01')!;
    const end = dayEnd('2026-03-01')!;
    expect(new Date(start).getHours()).toBe(0);
    expect(new Date(end).getHours()).toBe(23);
    expect(new Date(end).getMinutes()).toBe(59);
    expect(new Date(end + 1).getDate()).toBe(2);
    expect(dayStart('')).toBeUndefined();
    expect(dayEnd('not a day')).toBeUndefined();
  });

  it('leaves out empty filters and pages only the list', () => {
    expect(auditLogQuery({ text: ' ', from: '', to: '', order: 'DESC' }, 5, { page: 2, size: 20 })).toEqual({
      customerId: 5,
      page: 2,
      size: 20,
      search: undefined,
      order: 'DESC',
      from: undefined,
      to: undefined,
    });
  });

  it('builds the CSV link with the same filters and tenant', () => {
    const url = auditLogCsvUrl({ text: 'signed in', from: '', to: '', order: 'ASC' }, 7);
    expect(url).toBe('/api/v2/log/csv?customerId=7&search=signed%20in&order=ASC');
  });
});
