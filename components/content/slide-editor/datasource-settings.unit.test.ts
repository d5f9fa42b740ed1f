import { describe, expect, it } from 'vitest';
import { Widget } from '@/server/modules/content/content-data.schemas';
import { areColumnsValid, columnsOf, currencyOf, nextFormat } from './datasource-settings';

const base = { id: 'w', x: 0, y: 0, width: 100, height: 50, zIndex: 0, type: 'datasource' } as const;

describe('the datasource widget settings the panel writes', () => {
  it('writes a format only when it is more than the plain value', () => {
    expect(nextFormat(undefined, { kind: 'text' })).toBeUndefined();
    expect(nextFormat(undefined, { prefix: '€ ' })).toEqual({ kind: 'text', prefix: '€ ' });
    expect(nextFormat({ kind: 'number', decimals: 2 }, { kind: 'currency', currency: 'EUR' })).toEqual({
      kind: 'currency',
      decimals: 2,
      currency: 'EUR',
    });
    expect(nextFormat({ kind: 'text', suffix: ' °C' }, { suffix: undefined })).toBeUndefined();
  });

  it('reads columns and currency codes as typed', () => {
    expect(columnsOf(' name, price ,, stock ')).toEqual(['name', 'price', 'stock']);
    expect(columnsOf(' , ')).toBeUndefined();
    expect(areColumnsValid('a, b')).toBe(true);
    expect(areColumnsValid(Array.from({ length: 51 }, (_, i) => `c${i}`).join(','))).toBe(false);
    expect(areColumnsValid('x'.repeat(256))).toBe(false);
    expect(currencyOf('eur')).toBe('EUR');
    expect(currencyOf('euro')).toBeUndefined();
  });

  it('writes only what the slide schema accepts, and documents of before still pass', () => {
    const written = {
      ...base,
      mode: 'table',
      datasourceId: 'ds-1',
      columns: columnsOf('name, price'),
      rowsPerPage: 5,
      pageSeconds: 8,
      headerStyle: { fontWeight: 'normal', color: '#ff0000' },
      format: nextFormat(undefined, { kind: 'currency', currency: currencyOf('usd'), decimals: 2 }),
    };
    expect(Widget.safeParse(written).success).toBe(true);
    expect(Widget.safeParse({ ...base, mode: 'text', field: 'price', placeholder: '…', datasourceId: 'x'.repeat(64) }).success).toBe(true);
    expect(Widget.safeParse({ ...base, mode: 'list', itemSeconds: 1 }).success).toBe(false);
    expect(Widget.safeParse({ ...base, mode: 'text', format: { kind: 'currency', currency: 'eur' } }).success).toBe(false);
    expect(Widget.safeParse({ ...base, mode: 'chart' }).success).toBe(false);
  });
});
