/*
 * How channels share a screen (spec 4 §4 "saturation"): dependency-free, so the web player (player/plan.ts)
 * bundles the server's own rule.
 */

/**
 * One cycle of channel turns sharing the screen in proportion to `saturation`, interleaved evenly: smooth
 * weighted round robin. Shares are the saturations scaled to integers (×1000, rounded, at least 1; missing
 * or non-positive = 1) and divided by their greatest common divisor; the cycle has as many turns as their
 * sum. At each turn every channel's credit grows by its share, the channel with the most credit plays (ties:
 * the earlier channel in the given order, i.e. weight then id) and its credit drops by the sum.
 */
export function saturationTurns(channels: readonly { campaignId: number; saturation?: number | null }[], maxTurns = 10_000): number[] {
  if (channels.length === 0) return [];
  const raw = channels.map((c) => (c.saturation && c.saturation > 0 ? Math.max(1, Math.round(c.saturation * 1000)) : 1000));
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const divisor = raw.reduce(gcd);
  const shares = raw.map((s) => s / divisor);
  const total = shares.reduce((a, b) => a + b, 0);
  const credit = shares.map(() => 0);
  const turns: number[] = [];
  for (let n = 0; n < Math.min(total, maxTurns); n++) {
    let best = 0;
    for (let i = 0; i < shares.length; i++) {
      credit[i]! += shares[i]!;
      if (credit[i]! > credit[best]!) best = i;
    }
    credit[best]! -= total;
    turns.push(channels[best]!.campaignId);
  }

  return turns;
}
