import { folderPathToWire } from './folder-path';
import type { FieldType } from './resource';

/**
 * Converts database values to their JSON wire form (DECISIONS §2). Drizzle's node-postgres and
 * PGlite drivers hand raw `execute` results back with timestamptz/date as text, int8 as string
 * (node-postgres) or bigint (PGlite), and values inside json_build_object as JSON text forms; every
 * converter accepts all of these.
 */
export function toWireValue(type: FieldType, value: unknown): unknown {
  switch (type) {
    case 'datetime':
      return toDate(value)?.toISOString() ?? value;
    case 'epochMs':
      return toDate(value)?.getTime() ?? value;
    case 'date':
      return toDateOnly(value);
    case 'integer':
    case 'number':
      return toNumber(value);
    case 'boolean':
      return value === 't' ? true : value === 'f' ? false : value;
    case 'path':
      return folderPathToWire(value);
    default:
      return value;
  }
}

/** Parses a Date, epoch milliseconds, or PostgreSQL / ISO-8601 timestamp text. */
function toDate(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value === 'number' || typeof value === 'bigint') return new Date(Number(value));
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(normaliseTimestamp(value));
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/** `2026-11-21 12:00:00.123456+05:30:00` → `2026-11-21T12:00:00.123+05:30` (what Date.parse reads). */
function normaliseTimestamp(text: string): string {
  const match = /^(\d{4,}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)(\.\d+)?(Z|[+-]\d{2}(?::?\d{2}){0,2})?$/i.exec(text.trim());
  if (!match) return text;
  const [, date, time, fraction = '', zone = 'Z'] = match;
  const millis = fraction.slice(0, 4);
  return `${date}T${time}${millis}${normaliseZone(zone)}`;
}

function normaliseZone(zone: string): string {
  if (zone.toUpperCase() === 'Z') return 'Z';
  const digits = zone.slice(1).replace(/:/g, '');
  return `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || '00'}`;
}

function toDateOnly(value: unknown): unknown {
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : value;
  if (value instanceof Date) {
    // node-postgres' own date parser (when not overridden) yields local midnight.
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
  }
  return value;
}

function toNumber(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
}
