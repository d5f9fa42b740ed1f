/** The data documents of spec 5 §2 and §3 produced by the parsers in this folder. */

/** FEED: newest first. */
export type Feed = { title?: string; link?: string; items: FeedItem[] };

export type FeedEnclosure = { url: string; type?: string; length?: number };

export type FeedItem = {
  id: string;
  title: string;
  link?: string;
  summary?: string;
  /** Sanitized HTML: no scripts, styles, frames, forms, event attributes or non-http(s) links. */
  content?: string;
  /** Epoch milliseconds. */
  published?: number;
  updated?: number;
  author?: string;
  imageUrl?: string;
  enclosures?: FeedEnclosure[];
};

export type CapSeverity = 'Extreme' | 'Severe' | 'Moderate' | 'Minor' | 'Unknown';
export type CapStatus = 'Actual' | 'Exercise' | 'System' | 'Test' | 'Draft';

/** The CAP 1.2 fields of spec 5 §2, carried flat on a FEED item (`id` is the identifier, `title` the headline). */
type CapFields = {
  identifier: string;
  sender: string;
  /** As written in the alert (ISO 8601 with an offset); `published` holds it as epoch milliseconds. */
  sent: string;
  status: string;
  msgType: string;
  severity: string;
  urgency: string;
  certainty: string;
  event?: string;
  headline?: string;
  description?: string;
  instruction?: string;
  areaDesc?: string;
  geocodes?: Array<{ valueName: string; value: string }>;
  expires?: string;
  references?: string;
};

export type CapAlertItem = FeedItem & CapFields;

export type CalendarEventStatus = 'CONFIRMED' | 'CANCELLED' | 'SUSPENDED';

export type CalendarInstant = {
  /** ISO 8601 with the offset of the datasource's time zone at that instant, e.g. 2026-03-29T09:00:00+02:00. */
  dateTime: string;
  /** Epoch milliseconds. */
  timeStamp: number;
};

export type CalendarEvent = {
  /** A UUID derived from the event's UID and its occurrence, stable across refreshes. */
  id: string;
  status: CalendarEventStatus;
  created?: number;
  updated?: number;
  title: string;
  description?: string;
  organizer?: string;
  location?: string;
  isStarted: boolean;
  startedBy?: string;
  start: CalendarInstant;
  end: CalendarInstant;
  attendees: Array<{ name: string; status?: string }>;
  /** The iCalendar UID the occurrence comes from. */
  uid?: string;
  /** A whole-day event: it starts and ends at midnight in the datasource's time zone. */
  isAllDay?: boolean;
};

export type StructureType = 'TABLE' | 'CUSTOM' | 'KEY_VALUE' | 'LIST' | 'FEED' | 'WAY_FINDING';
