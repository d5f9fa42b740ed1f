import { parseDate } from './dates';
import { FormatError } from './errors';
import { collapseWhitespace, safeUrl } from './html';
import { storable } from './storable';
import { decodeBody } from './text';
import { field, isObject, list, text } from './tree';
import type { CapAlertItem, CapSeverity, CapStatus, Feed } from './types';
import { parseXmlTree } from './xml';

const SEVERITY_RANK = new Map<string, number>([
  ['Unknown', 0],
  ['Minor', 1],
  ['Moderate', 2],
  ['Severe', 3],
  ['Extreme', 4],
]);
const HOUR_MS = 3_600_000;
/** CAP leaves an alert without `expires` to the recipient's policy; ours: 24 hours after it was sent. */
export const CAP_DEFAULT_LIFETIME_MS = 24 * HOUR_MS;
const MAX_SEARCH_DEPTH = 12;

export type ParseCapOptions = {
  previous?: Feed;
  areaFilter?: string;
  minimumSeverity?: CapSeverity;
  /** Which alert statuses are shown; Actual only unless the tenant opts into exercises or tests. */
  statuses?: CapStatus[];
  contentType?: string;
  /**
   * The document only adds to `previous`, even when it is a feed (a webhook inserting alerts: it never lists every
   * active one, so nothing unlisted is over); it must carry at least one alert.
   */
  isUpdateOnly?: boolean;
  now: number;
};

/**
 * CAP 1.2 to a FEED of active alerts (spec 5 §2). The document is one <alert> (an update to what is known: earlier
 * alerts stay until they expire or are updated or cancelled) or an Atom/RSS feed carrying <alert>s inline (a full
 * list of what is active: an alert no longer listed is over). Update and Cancel remove the alerts their
 * `references` name; expired alerts drop out; then the severity and area filters apply.
 */
export function parseCap(body: Buffer, options: ParseCapOptions): Feed {
  const text = decodeBody(body, { contentType: options.contentType, sniffXmlDeclaration: true });
  const tree = parseXmlTree(text, { removeNSPrefix: true });
  const root = Object.keys(tree)[0] ?? '';
  const isFeed = root === 'feed' || root === 'rss' || root === 'RDF';
  const alerts = findAlerts(tree, 0);
  if (!isFeed && root !== 'alert' && alerts.length === 0) {
    throw new FormatError(`The document is not a CAP alert: its root element is <${root.slice(0, 40)}>, not <alert>.`);
  }
  if (isFeed && alerts.length === 0 && countEntries(tree, root) > 0) {
    throw new FormatError(
      'The feed’s entries do not carry their CAP alerts inline (they only link to them): use a feed with inline <alert> elements.',
    );
  }
  const readable = alerts.map(readAlert).filter((alert) => alert !== undefined);
  if (!isFeed && readable.length === 0) {
    throw new FormatError('The CAP alert lacks its identifier, sender or sent time.');
  }
  if (options.isUpdateOnly && readable.length === 0)
    throw new FormatError('The document holds no CAP alert with an identifier, sender and sent time.');
  const isFullList = isFeed && !options.isUpdateOnly;
  const statuses = new Set<string>(options.statuses ?? ['Actual']);
  const current = readable.filter((alert) => statuses.has(alert.status));

  const active = new Map<string, CapAlertItem>();
  const carriedOver = new Set<string>();
  if (!isFullList) {
    for (const item of previousAlerts(options.previous)) {
      active.set(keyOf(item.sender, item.identifier), item);
      carriedOver.add(keyOf(item.sender, item.identifier));
    }
  }
  // Oldest first, so that an Alert, its Update and a Cancel in one document apply in the order they were sent.
  for (const alert of [...current].sort((a, b) => (a.published ?? 0) - (b.published ?? 0))) {
    for (const reference of parseReferences(alert.references)) active.delete(reference);
    const key = keyOf(alert.sender, alert.identifier);
    carriedOver.delete(key);
    if (alert.msgType === 'Alert' || alert.msgType === 'Update') active.set(key, alert);
    else if (alert.msgType === 'Cancel') active.delete(key);
  }

  const minimum = severityRank(options.minimumSeverity ?? 'Unknown');
  const area = options.areaFilter?.trim().toLowerCase();
  const items = [...active.entries()]
    .filter(([key, item]) => !hasExpired(item, carriedOver.has(key), options.now))
    .map(([, item]) => item)
    .filter((item) => severityRank(item.severity) >= minimum)
    .filter((item) => !area || matchesArea(item, area))
    .sort((a, b) => (b.published ?? 0) - (a.published ?? 0));

  return storable({ items });
}

function keyOf(sender: string, identifier: string): string {
  return `${sender}\n${identifier}`;
}

/** `references` is a space-separated list of "sender,identifier,sent" triples. */
function parseReferences(references: string | undefined): string[] {
  if (!references) return [];

  return references
    .trim()
    .split(/\s+/)
    .map((triple) => triple.split(','))
    .filter((parts) => parts.length >= 2 && parts[0] && parts[1])
    .map((parts) => keyOf(parts[0] ?? '', parts[1] ?? ''));
}

function hasExpired(item: CapAlertItem, isCarriedOver: boolean, now: number): boolean {
  const expires = parseDate(item.expires);
  if (expires !== undefined) return expires < now;
  // A listed alert without expiry is active while it is listed; one only remembered lasts the default lifetime.
  if (!isCarriedOver) return false;

  return item.published === undefined || item.published + CAP_DEFAULT_LIFETIME_MS < now;
}

function severityRank(severity: string): number {
  return SEVERITY_RANK.get(severity) ?? 0;
}

function matchesArea(item: CapAlertItem, filter: string): boolean {
  if (item.areaDesc?.toLowerCase().includes(filter)) return true;

  return (item.geocodes ?? []).some((code) => code.value.toLowerCase().includes(filter));
}

/** Every <alert> element in the tree (one alert, a feed's entries, an EDXL envelope), depth-limited. */
function findAlerts(node: unknown, depth: number): unknown[] {
  if (depth > MAX_SEARCH_DEPTH) return [];
  if (Array.isArray(node)) return node.flatMap((entry) => findAlerts(entry, depth + 1));
  if (!isObject(node)) return [];
  const found: unknown[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@_') || key === '#text') continue;
    if (key === 'alert') found.push(...list(value).filter(isObject));
    else found.push(...findAlerts(value, depth + 1));
  }

  return found;
}

function countEntries(tree: Record<string, unknown>, root: string): number {
  if (root === 'feed') return list(field(tree.feed, 'entry')).length;
  if (root === 'rss') return list(field(field(tree.rss, 'channel'), 'item')).length;

  return list(field(tree[root], 'item')).length;
}

function readAlert(alert: unknown): CapAlertItem | undefined {
  const identifier = value(field(alert, 'identifier'));
  const sender = value(field(alert, 'sender'));
  const sent = value(field(alert, 'sent'));
  if (!identifier || !sender || !sent) return undefined;
  // An alert in several languages has one <info> per language; the first is shown.
  const info = list(field(alert, 'info'))[0];
  const areas = list(field(info, 'area'));
  const areaDesc = areas.map((area) => value(field(area, 'areaDesc'))).filter((desc) => desc !== '');
  const geocodes = areas
    .flatMap((area) => list(field(area, 'geocode')))
    .map((code) => ({ valueName: value(field(code, 'valueName')), value: value(field(code, 'value')) }))
    .filter((code) => code.value !== '');
  const headline = value(field(info, 'headline'));
  const event = value(field(info, 'event'));
  const description = multiline(field(info, 'description'));

  return {
    id: identifier,
    title: headline || event || identifier,
    link: safeUrl(value(field(info, 'web')), undefined, true),
    summary: description || undefined,
    published: parseDate(sent),
    author: value(field(info, 'senderName')) || sender,
    identifier,
    sender,
    sent,
    status: value(field(alert, 'status')),
    msgType: value(field(alert, 'msgType')),
    severity: value(field(info, 'severity')) || 'Unknown',
    urgency: value(field(info, 'urgency')) || 'Unknown',
    certainty: value(field(info, 'certainty')) || 'Unknown',
    event: event || undefined,
    headline: headline || undefined,
    description: description || undefined,
    instruction: multiline(field(info, 'instruction')) || undefined,
    areaDesc: areaDesc.length > 0 ? areaDesc.join('; ') : undefined,
    geocodes: geocodes.length > 0 ? geocodes : undefined,
    expires: value(field(info, 'expires')) || undefined,
    references: value(field(alert, 'references')) || undefined,
  };
}

function value(node: unknown): string {
  return collapseWhitespace(text(node));
}

/** Descriptions and instructions keep their line breaks; runs of spaces collapse. */
function multiline(node: unknown): string {
  return text(node)
    .split(/\r?\n/)
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Alerts of the stored document, read defensively (JSON from the database). */
function previousAlerts(previous: Feed | undefined): CapAlertItem[] {
  const items: unknown = previous?.items;
  if (!Array.isArray(items)) return [];

  return items.filter(
    (item): item is CapAlertItem =>
      isObject(item) &&
      typeof item.id === 'string' &&
      typeof item.title === 'string' &&
      typeof item.identifier === 'string' &&
      typeof item.sender === 'string' &&
      typeof item.sent === 'string',
  );
}
