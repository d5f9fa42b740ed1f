import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { file } from './fixtures.test-kit';
import { hashSeed, interleaveMessages, messageTurn, mulberry32, orderItems, playItems, saturationTurns, type PlayItem } from './play-order';

const turns = (...saturations: (number | null)[]) =>
  saturationTurns(saturations.map((saturation, i) => ({ campaignId: i + 1, saturation }))).join('');

describe('saturation: smooth weighted round robin', () => {
  it.each([
    [[1, 1], '12'],
    [[2, 1], '121'],
    [[3, 1, 1], '12131'],
    [[1.5, 1], '12121'],
    [[null, 0, 2], '3123'],
    [[4], '1'],
  ] as const)('saturations %j give one cycle %s', (saturations, expected) => {
    expect(turns(...saturations)).toBe(expected);
  });

  it('gives each channel its share of every cycle, the cycle as short as the shares allow', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 5 }), (shares) => {
        const cycle = saturationTurns(shares.map((saturation, i) => ({ campaignId: i, saturation })));
        expect(cycle).toHaveLength(shares.reduce((a, b) => a + b, 0) / shares.reduce((a, b) => (b === 0 ? a : gcd(a, b))));
        const total = cycle.length;
        const sum = shares.reduce((a, b) => a + b, 0);
        shares.forEach((s, i) => expect(cycle.filter((c) => c === i).length).toBe((s * total) / sum));
      }),
    );
  });
});

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

describe('the seeded shuffle', () => {
  it('is deterministic and a permutation', () => {
    const items = Array.from({ length: 20 }, (_, i) => ({ id: `id-${String(i).padStart(2, '0')}`, name: `n${i}`, weight: 0 }));
    const a = orderItems(items, 'RANDOM', 'device|1|2026-06-10');
    expect(orderItems(items, 'RANDOM', 'device|1|2026-06-10')).toEqual(a);
    expect(orderItems(items, 'RANDOM', 'device|1|2026-06-11')).not.toEqual(a);
    expect([...a].sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual(items);
  });

  it('uses FNV-1a and mulberry32 exactly (a player in another language must agree)', () => {
    expect(hashSeed('')).toBe(0x811c9dc5);
    expect(hashSeed('a')).toBe(0xe40c292c);
    const r = mulberry32(1);
    expect([r(), r(), r()].map((x) => Math.floor(x * 1e6))).toEqual([627073, 2735, 527447]);
  });
});

describe('message turns', () => {
  const item = (n: number): PlayItem => ({ type: 'FILE', id: `f${n}`, name: `f${n}`, durationMs: 1000 });
  const ids = (xs: PlayItem[]) => xs.map((x) => x.id).join(',');

  it('play saturation items (0 = all), capped by the item count unless told otherwise', () => {
    const three = [item(1), item(2), item(3)];
    expect(ids(messageTurn(three, undefined, undefined))).toBe('f1');
    expect(ids(messageTurn(three, 0, true))).toBe('f1,f2,f3');
    expect(ids(messageTurn(three, 5, true))).toBe('f1,f2,f3');
    expect(ids(messageTurn(three, 5, false))).toBe('f1,f2,f3,f1,f2');
    expect(messageTurn([], 3, false)).toEqual([]);
  });

  it('are concatenated (SERIAL) or dealt round robin (BALANCED)', () => {
    const turnsOf = [[item(1), item(2)], [item(3)], [item(4), item(5), item(6)]];
    expect(ids(interleaveMessages(turnsOf, 'SERIAL'))).toBe('f1,f2,f3,f4,f5,f6');
    expect(ids(interleaveMessages(turnsOf, 'BALANCED'))).toBe('f1,f3,f4,f2,f5,f6');
  });
});

describe('play items', () => {
  it('leave out files no player renders with skipInvalidFiles, and keep them (played for defaultDuration) without it', () => {
    const files = [file(1), file(2, { kind: 'other', name: 'brochure.pdf' }), file(3, { kind: 'video', durationMs: 4_000 })];
    expect(playItems({ files, skipInvalidFiles: true }, 0, 'seed').map((i) => i.name)).toEqual(['file-1.png', 'file-3.png']);
    expect(playItems({ files, defaultDurationS: 7 }, 0, 'seed').map((i) => [i.name, i.durationMs])).toEqual([
      ['file-1.png', 7_000],
      ['brochure.pdf', 7_000],
      ['file-3.png', 4_000],
    ]);
  });
});
