import { createRequire } from 'node:module';
import { isObject } from './tree';

/**
 * Time-zone names as calendars write them (IANA, Windows names such as "W. Europe Standard Time", offset labels)
 * to a zone Temporal and node-ical read without guessing: node-ical falls back to the process time zone for a name
 * it cannot resolve, and nothing here may depend on that.
 */

const validZones = new Map<string, boolean>();

export function isIanaTimeZone(name: string): boolean {
  const known = validZones.get(name);
  if (known !== undefined) return known;
  let isValid: boolean;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    isValid = !/^[+-]/.test(name);
  } catch {
    isValid = false;
  }
  validZones.set(name, isValid);

  return isValid;
}

/** An IANA name, or a fixed offset "+hh:mm", for a TZID; undefined when it names nothing known. */
export function resolveTimeZoneName(tzid: string): string | undefined {
  const name = tzid
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim();
  if (name === '') return undefined;
  if (isIanaTimeZone(name)) return name;
  const windows = windowsZone(name);
  if (windows) return windows;

  return offsetZone(name);
}

function normalizeLabel(label: string): string {
  return label.replace(/\s+/g, ' ').trim().toLowerCase();
}

function withoutOffsetPrefix(label: string): string {
  return label.replace(/^\((?:utc|gmt)[^)]*\)\s*/i, '');
}

let windowsNames: Map<string, string> | undefined;

function windowsZone(name: string): string | undefined {
  windowsNames ??= loadWindowsNames();

  return windowsNames.get(normalizeLabel(name)) ?? windowsNames.get(normalizeLabel(withoutOffsetPrefix(name)));
}

/**
 * node-ical's table of Windows zone names and display labels (from CLDR's windowsZones). It is read with require,
 * not import, because the server bundle keeps packages external and Node refuses a JSON import without attributes.
 */
function loadWindowsNames(): Map<string, string> {
  const names = new Map<string, string>();
  let table: unknown;
  try {
    table = createRequire(import.meta.url)('node-ical/windowsZones.json');
  } catch {
    return names;
  }
  if (!isObject(table)) return names;
  for (const [label, entry] of Object.entries(table)) {
    const iana: unknown = isObject(entry) && Array.isArray(entry.iana) ? entry.iana[0] : undefined;
    if (typeof iana !== 'string' || !isIanaTimeZone(iana)) continue;
    for (const variant of [label, withoutOffsetPrefix(label)]) {
      if (!names.has(normalizeLabel(variant))) names.set(normalizeLabel(variant), iana);
    }
  }

  return names;
}

/** "UTC+02:00", "GMT-4", "+0530", "(UTC+01:00) Somewhere" → "+02:00", "-04:00", "+05:30", "+01:00". */
function offsetZone(name: string): string | undefined {
  const match = /^\(?(?:utc|gmt)?\s*([+-])(\d{1,2})(?::?(\d{2}))?\)?(?:\s.*)?$/i.exec(name);
  if (!match) return undefined;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? 0);
  if (hours > 14 || minutes >= 60) return undefined;

  return `${match[1]}${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}
