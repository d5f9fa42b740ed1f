import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { documentHash } from './document-hash';

describe('documentHash', () => {
  it('is the SHA-256 of the canonical JSON: keys sorted, no whitespace', () => {
    const canonical = '{"a":[1,"x",null,true],"b":{"c":2,"d":"é"}}';
    expect(documentHash({ b: { d: 'é', c: 2 }, a: [1, 'x', null, true] })).toBe(createHash('sha256').update(canonical).digest('hex'));
  });

  it('does not depend on key order, and changes with the data', () => {
    const one = { rooms: [{ id: 'A', free: true }], updated: 1 };
    const same = { updated: 1, rooms: [{ free: true, id: 'A' }] };
    expect(documentHash(one)).toBe(documentHash(same));
    expect(documentHash(one)).not.toBe(documentHash({ ...one, updated: 2 }));
    expect(documentHash([1, 2])).not.toBe(documentHash([2, 1]));
    expect(documentHash({ a: '1' })).not.toBe(documentHash({ a: 1 }));
  });

  it('leaves out undefined members, as JSON does', () => {
    expect(documentHash({ a: 1, b: undefined })).toBe(documentHash({ a: 1 }));
    expect(documentHash(null)).toBe(createHash('sha256').update('null').digest('hex'));
  });
});
