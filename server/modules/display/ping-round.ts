/**
 * Connections pinged together in the ping round. The round is spread over the first half of the interval, a slice
 * at a time: 5 000 pings at once were 10 000 frames through the proxy in one burst (each pong comes back), as many
 * as a batch command to every screen, and a batch that met them waited for them.
 */
export const PING_SLICE = 500;

/** The wait between two slices of a round over `count` connections: the slices fill the first half of the interval. */
export function pingGapMs(count: number, intervalSeconds: number): number {
  const slices = Math.ceil(count / PING_SLICE);

  return slices > 1 ? (intervalSeconds * 500) / (slices - 1) : 0;
}

/**
 * Calls `each` for every one of `items`, PING_SLICE at a time, the slices `gapMs` apart. Once `signal` aborts (the
 * instance stops) it stops at once, also in the middle of a wait. Answers whether it went through all of them.
 */
export async function inSlices<T>(items: readonly T[], gapMs: number, each: (item: T) => void, signal: AbortSignal): Promise<boolean> {
  for (let from = 0; from < items.length; from += PING_SLICE) {
    if (from > 0) await pause(gapMs, signal);
    if (signal.aborted) return false;
    for (const item of items.slice(from, from + PING_SLICE)) each(item);
  }

  return !signal.aborted;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
