import { fileSpan, playableFiles } from './eligibility';
import { contains } from './spans';
import type { CandidateContent, CandidateFile, OrderingMode, PlayRules } from './types';

export { saturationTurns } from './saturation';

/*
 * What a channel plays during a segment and for how long (spec 4 §4 "Item durations", ordering, message
 * groups, saturation). Deterministic: the same rules, device and instant give the same items everywhere.
 */

export type PlayItem = { type: 'FILE' | 'CONTENT' | 'MESSAGE'; id: string; name: string; durationMs: number; messageId?: number };

type Orderable = { id: string; name: string; weight: number };

const DEFAULT_DURATION_S = 10;
const MIN_DEFAULT_DURATION_S = 3;

/** `defaultDuration` in ms: default 10 s, at least 3 s. */
const defaultDurationMs = (rules: PlayRules): number =>
  Math.max(MIN_DEFAULT_DURATION_S, rules.defaultDurationS ?? DEFAULT_DURATION_S) * 1000;

/** `duration` in ms (the maximum of any item), or infinity. */
export const capMs = (rules: PlayRules): number =>
  rules.durationS && rules.durationS > 0 ? rules.durationS * 1000 : Number.POSITIVE_INFINITY;

/** A video plays its own length (a video of unknown length plays `defaultDuration`); images and other files `defaultDuration`; all capped by `duration`. */
function fileDurationMs(file: CandidateFile, rules: PlayRules, cap = capMs(rules)): number {
  const own = file.kind === 'video' && file.durationMs && file.durationMs > 0 ? file.durationMs : defaultDurationMs(rules);

  return Math.round(Math.min(own, cap));
}

/**
 * Content plays by its pages: each page its share of the content's known length, else `defaultDuration`,
 * capped by `duration`; `BALANCED` plays one page per turn, `SERIAL` (the default) every page.
 */
function contentDurationMs(content: CandidateContent, rules: PlayRules, cap = capMs(rules)): number {
  const pages = Math.max(1, content.pageCount);
  const perPage = Math.min(content.durationMs && content.durationMs > 0 ? content.durationMs / pages : defaultDurationMs(rules), cap);

  return Math.round(perPage * (rules.contentShuffleMode === 'BALANCED' ? 1 : pages));
}

/** FNV-1a (32 bit) of a string: the seed of a shuffle. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }

  return h >>> 0;
}

/** mulberry32: a small deterministic PRNG answering numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;

  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);

    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const byDefault = (a: Orderable, b: Orderable) => a.weight - b.weight || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byName = (a: Orderable, b: Orderable) => (a.name < b.name ? -1 : a.name > b.name ? 1 : byDefault(a, b));

/**
 * `DEFAULT`: weight then id; `ALPHABET`: name (code-point order) then weight and id; `RANDOM`: the DEFAULT
 * order shuffled by Fisher–Yates with mulberry32 seeded by FNV-1a of `seed`.
 */
export function orderItems<T extends Orderable>(items: readonly T[], mode: OrderingMode | null | undefined, seed: string): T[] {
  const sorted = [...items].sort(mode === 'ALPHABET' ? byName : byDefault);
  if (mode !== 'RANDOM') return sorted;
  const random = mulberry32(hashSeed(seed));
  for (let i = sorted.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [sorted[i], sorted[j]] = [sorted[j]!, sorted[i]!];
  }

  return sorted;
}

/** The playable items of a campaign or message at instant `t` (files inside their validity, all content), in play order. */
export function playItems(rules: PlayRules, t: number, seed: string, cap = capMs(rules)): PlayItem[] {
  const candidates = [
    ...playableFiles(rules)
      .filter((f) => contains([fileSpan(f)], t))
      .map((f) => ({
        id: f.id,
        name: f.name,
        weight: f.weight,
        item: { type: 'FILE' as const, id: f.id, name: f.name, durationMs: fileDurationMs(f, rules, cap) },
      })),
    ...(rules.contents ?? []).map((c) => ({
      id: c.id,
      name: c.name,
      weight: c.weight,
      item: { type: 'CONTENT' as const, id: c.id, name: c.name, durationMs: contentDurationMs(c, rules, cap) },
    })),
  ];

  return orderItems(candidates, rules.orderingMode, seed).map((c) => c.item);
}

/**
 * One message's turn: `saturation` items (1 by default; 0 = all). Capped by the item count unless
 * `isPlayedElementsCappedByItemCount` is false, in which case the list wraps around.
 */
export function messageTurn(
  items: readonly PlayItem[],
  saturation: number | null | undefined,
  capped: boolean | null | undefined,
): PlayItem[] {
  if (items.length === 0) return [];
  const wanted = saturation === 0 ? items.length : Math.max(1, Math.floor(saturation ?? 1));
  const count = capped === false ? wanted : Math.min(wanted, items.length);

  return Array.from({ length: count }, (_, i) => items[i % items.length]!);
}

/** `SERIAL`: each message's turn after the other; `BALANCED`: round robin, one item of each message per round. */
export function interleaveMessages(turns: readonly PlayItem[][], mode: 'BALANCED' | 'SERIAL' | null | undefined): PlayItem[] {
  if (mode !== 'BALANCED') return turns.flat();
  const out: PlayItem[] = [];
  const rounds = Math.max(0, ...turns.map((t) => t.length));
  for (let r = 0; r < rounds; r++) for (const turn of turns) if (r < turn.length) out.push(turn[r]!);

  return out;
}
