import type { Schemas } from '@/lib/api/types';
import { isIanaTimeZone } from '@/server/http/wire.schemas';
import { TIME_ZONE_NAMES } from '@/server/http/time-zones.schemas';

/*
 * The time zones the console offers: exactly the names the server accepts (its `TimeZone` enum, generated
 * from the tz database by scripts/time-zones.mjs). `Intl.supportedValuesOf` differs by browser and offered
 * names the server refuses, so no picker reads it.
 */

export const TIME_ZONES = TIME_ZONE_NAMES;

/** A zone name the server accepts, typed as the document's `TimeZone` (the generated name list is typed `string[]`). */
export function isServiceTimeZone(zone: string): zone is Schemas['TimeZone'] {
  return isIanaTimeZone(zone);
}

/** How a zone reads in a picker: `America/New_York` → `America/New York`. */
export const zoneLabel = (zone: string): string => zone.replaceAll('_', ' ');

/** `[value, label]` pairs for pickers that take choices. */
export function timeZoneChoices(): [string, string][] {
  return TIME_ZONES.map((zone) => [zone, zoneLabel(zone)]);
}

/** The browser's own zone when the server accepts it, else UTC. */
export function browserTimeZone(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

    return zone && isIanaTimeZone(zone) ? zone : 'UTC';
  } catch {
    return 'UTC';
  }
}
