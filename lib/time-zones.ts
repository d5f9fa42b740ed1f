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
function isServiceTimeZone(zone: string): zone is Schemas['TimeZone'] {
  return isIanaTimeZone(zone);
}

/**
 * A zone the console holds as a string (a picker's value, checked by the form) as the document types it: its enum
 * of tz names. The one place a string becomes the document's zone; a name the server would refuse is an error here.
 */
export function wireTimeZone(zone: string): Schemas['TimeZone'] {
  if (!isServiceTimeZone(zone)) throw new Error(`Not a time zone the service accepts: ${zone}`);

  return zone;
}

/** A body whose `timeZone` (when it has one) is checked and typed as the document's zone (see `wireTimeZone`). */
type WithWireTimeZone<T extends { timeZone?: string | null }> = Omit<T, 'timeZone'> & {
  [K in keyof Pick<T, 'timeZone'>]: Schemas['TimeZone'] | Exclude<T[K], string>;
};

export function withWireTimeZone<T extends { timeZone?: string | null }>(body: T): WithWireTimeZone<T> {
  const { timeZone } = body;
  // '' (a cleared zone) and null go as they are; a name is checked.
  if (typeof timeZone === 'string' && timeZone !== '') return { ...body, timeZone: wireTimeZone(timeZone) } as WithWireTimeZone<T>;

  return body as WithWireTimeZone<T>;
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
