import { describe, expect, it } from 'vitest';
import { toWireValue } from './convert';
import { folderPathIds, folderPathToWire } from './folder-path';

const R = '0b6a4d1e-7c2f-4a51-9d3e-2f1a6b7c8d90';
const C = '1c7b5e2f-8d30-4b62-ae4f-3a2b7c8d9e01';

describe('folder paths on the wire (spec 2: a string)', () => {
  it('joins the ids from the root with /, from an array or the PostgreSQL text form', () => {
    expect(toWireValue('path', [R, C])).toBe(`${R}/${C}`);
    expect(folderPathToWire([R])).toBe(R);
    expect(folderPathToWire(`{${R},${C}}`)).toBe(`${R}/${C}`);
    expect(folderPathToWire('{}')).toBe('');
    expect(folderPathToWire([])).toBe('');
  });

  it('splits a wire path back into ids', () => {
    expect(folderPathIds(`${R}/${C}`)).toEqual([R, C]);
    expect(folderPathIds('')).toEqual([]);
  });
});
