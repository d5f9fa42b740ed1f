/**
 * Pure functions that turn fetched bytes into the data documents of spec 5 §2 and §3: no database, no network, no
 * clock (`now` is a parameter), no process time zone. Every failure is a FormatError with a readable message.
 */
export { FormatError } from './errors';
export type { CalendarEvent, CalendarInstant, CapAlertItem, Feed } from './types';
export { parseJsonDocument } from './json';
export { parseXmlDocument } from './xml';
export { parseFeed } from './feed';
export { expandCalendar, MAX_CALENDAR_OCCURRENCES } from './calendar';
export { parseCap } from './cap';
export { scrapeWebsite } from './website';
export { mergePatch } from './merge-patch';
export { keySelectorPlace, removeAtPlace, setAtKeySelector, setAtPlace, valueAtPlace } from './key-selector';
export { structureProblem } from './structure';
export { documentHash } from './document-hash';
export { isPlainObject } from './storable';
