import { describe, expect, it } from 'vitest';
import { csvField, csvLine } from './csv';

describe('CSV fields', () => {
  it('writes text that starts like a formula behind a single quote (OWASP), quoted where RFC 4180 needs it', () => {
    expect(csvField('=HYPERLINK("http://evil.example")x')).toBe(`"'=HYPERLINK(""http://evil.example"")x"`);
    expect(['+1', '-1+2', '@SUM(A1)'].map(csvField)).toEqual(["'+1", "'-1+2", "'@SUM(A1)"]);
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField('\rx')).toBe(`"'\rx"`);
    // Elsewhere in the text those characters are harmless.
    expect(csvField('a=b, c')).toBe('"a=b, c"');
    expect(csvField('2026-11-28 00:00')).toBe('2026-11-28 00:00');
  });

  it('writes numbers as numbers (a negative one too), dates in ISO-8601, nothing for null', () => {
    expect(csvLine([-1, 0.25, 12n, new Date(0), null, undefined, true])).toBe('-1,0.25,12,1970-01-01T00:00:00.000Z,,,true\r\n');
  });
});
