import { describe, expect, it } from 'vitest';
import { csvField, csvLine, csvStream } from './csv';

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

describe('CSV streams', () => {
  const read = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

  it('writes the header, then each batch after the previous one, until a short batch', async () => {
    const asked: Array<number | undefined> = [];
    const rows = [1, 2, 3, 4, 5];
    const stream = await csvStream(
      ['n'],
      2,
      async (after: number | undefined) => {
        asked.push(after);
        const from = after === undefined ? 0 : rows.indexOf(after) + 1;

        return rows.slice(from, from + 2);
      },
      (n) => csvLine([n]),
    );
    expect(await read(stream)).toBe('n\r\n1\r\n2\r\n3\r\n4\r\n5\r\n');
    expect(asked).toEqual([undefined, 2, 4]);
  });

  it('fails before the answer starts when the first batch cannot be read', async () => {
    await expect(
      csvStream(
        ['n'],
        2,
        async () => Promise.reject(new Error('bad filter')),
        (n: number) => csvLine([n]),
      ),
    ).rejects.toThrow('bad filter');
  });
});
