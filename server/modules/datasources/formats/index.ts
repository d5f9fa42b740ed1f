/**
 * Pure functions that turn fetched bytes into the data documents of spec 5 §2 and §3: no database, no network, no
 * clock (`now` is a parameter), no process time zone. Every failure is a FormatError with a readable message.
 */
export { FormatError } from './errors';
export type {
  CalendarEvent,
  CalendarEventStatus,
  CalendarInstant,
  CapAlertItem,
  CapFields,
  CapSeverity,
  CapStatus,
  Feed,
  FeedEnclosure,
  FeedItem,
  StructureType,
  TableDocument,
} from './types';
export { parseJsonDocument, parseJsonText } from './json';
export { parseXmlDocument } from './xml';
export { MAX_FEED_ITEMS, parseFeed, type ParseFeedOptions } from './feed';
export { expandCalendar, MAX_CALENDAR_OCCURRENCES, type ExpandCalendarOptions } from './calendar';
export { CAP_DEFAULT_LIFETIME_MS, parseCap, type ParseCapOptions } from './cap';
export { scrapeWebsite, type ScrapeSelector } from './website';
export { applyJsonPath } from './json-path';
export { mergePatch } from './merge-patch';
export { setAtKeySelector } from './key-selector';
export { structureProblem } from './structure';
export { documentHash } from './document-hash';
export { storable } from './storable';
