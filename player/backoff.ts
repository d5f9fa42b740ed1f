/*
 * Reconnect delays: exponential back-off with jitter, so a fleet that lost the server at once does not come
 * back at once. Pure (the random source is a parameter).
 */

export type BackoffOptions = { baseMs?: number; maxMs?: number };

/**
 * The delay before attempt `attempt` (0 = the first retry): base × 2^attempt capped at max, then a random
 * part of it (between half and all: "equal jitter"), so a retry never comes at once and never after max.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}, random: () => number = Math.random): number {
  const base = options.baseMs ?? 1_000;
  const max = options.maxMs ?? 60_000;
  const ceiling = Math.min(max, base * 2 ** Math.max(0, Math.min(attempt, 30)));

  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A server instance stopping (close 1012 Service Restart, or 1001 Going Away): reconnect between these, at random. */
const RESTART_RECONNECT_MS = { min: 250, max: 3_000 };

/**
 * The delay before reconnecting after the server said it restarts: short (another instance takes the screen at once),
 * and spread over RESTART_RECONNECT_MS so the thousands of screens of one instance do not arrive in the same instant.
 */
export function restartReconnectDelay(random: () => number = Math.random): number {
  return Math.round(RESTART_RECONNECT_MS.min + random() * (RESTART_RECONNECT_MS.max - RESTART_RECONNECT_MS.min));
}
