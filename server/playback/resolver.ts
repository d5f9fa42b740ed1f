/*
 * The playback resolver (spec 4 §4) as a pure module: the tenant's rules and the device's facts in, segments
 * and explanations out. No database, clock, process time zone or I/O: the caller loads `PlaybackRules` and
 * `DeviceFacts` (types.ts) and names the window or instant.
 */
export { resolveSegments } from './segments';
export { sharingKey, targetedRules } from './sharing-key';
export { explain, nowPlaying, type Explanation } from './explain';
export type * from './types';
