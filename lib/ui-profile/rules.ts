/**
 * Evaluation of a UI profile's `hiddenUIElementRules` document (spec 3 "UI profile"). The document is
 * owned by the console: `{ version, legacy, newUi, dashboard, loopEditor, contentEditor, playlistEditor,
 * regionalFormatSettings }`. In the tri-state sections (`dashboard`, `newUi`, `playlistEditor`) a key is
 * `true` (shown), `false` (hidden) or `null`/omitted (inherits from its parent key; shown at the top).
 * Rules only hide elements; they never grant or remove an API permission.
 *
 * A key is a dotted path `<section>.<segment>…`, e.g. `newUi.navigation.teams`. The document may spell
 * it nested (`{ newUi: { navigation: { teams: false } } }`) or with dotted keys inside a section
 * (`{ newUi: { 'navigation.teams': false } }`); both mean the same. The most specific boolean wins:
 * `{ newUi: { navigation: false, 'navigation.overview': true } }` hides every entry but the overview.
 *
 * Keys this console honours (UI_ELEMENTS below):
 *   newUi.navigation               every navigation entry (the parent of the keys below)
 *   newUi.navigation.overview      the Overview entry
 *   newUi.navigation.users         the Users entry
 *   newUi.navigation.teams         the Teams entry
 *   newUi.navigation.settings      the Settings entry
 *   newUi.navigation.customers     the Customers entry
 *   newUi.navigation.auditLog      the Audit log entry
 *   newUi.navigation.media         the Media entry
 *   newUi.navigation.content       the Content entry
 *   newUi.navigation.channels      the Channels entry
 *   newUi.navigation.screens       the Screens entry
 *   newUi.navigation.advertisers   the Advertisers entry
 *   newUi.navigation.subChannels   the Sub-channels entry
 *   newUi.navigation.proofOfPlay   the Proof of play entry
 *   newUi.navigation.schedules     the Schedules entry
 *   newUi.navigation.alerts        the Alerts entry
 *   newUi.navigation.alertRules    the Alert rules entry
 *   newUi.navigation.notificationChannels   the Notification channels entry
 *   newUi.navigation.integrations  the Integrations entry
 *   newUi.navigation.datasources   the Datasources entry
 *   newUi.navigation.licences      the Licences entry
 *   newUi.users.create             the New user button
 *   newUi.customers.create         the New customer buttons
 *   newUi.auditLog.export          the audit log's CSV export
 *   newUi.media.upload             the media library's Upload button and drop zone
 *   newUi.media.delete             deleting files and folders in the media library
 */
import type { Messages } from '@/messages/en';

export type RuleValue = boolean | null;
export type RulesDocument = Record<string, unknown>;

/** The sections whose keys are true / false / inherit. */
export const TRI_STATE_SECTIONS = ['newUi', 'dashboard', 'playlistEditor'] as const;
export type TriStateSection = (typeof TRI_STATE_SECTIONS)[number];

/** A known element's name in the `uiProfiles.elements` catalogue (a section's name is `uiProfiles.sections.<section>`). */
type UiElementLabel = keyof Messages['uiProfiles']['elements'];

/** A key of a section; `label` names the elements this console knows, a key only the document has goes without. */
export type UiElement = { key: string; label?: UiElementLabel };

/** Elements this console hides when a profile disables them, per section (keys without the section). */
const UI_ELEMENTS: Record<TriStateSection, UiElement[]> = {
  newUi: [
    { key: 'navigation', label: 'navigation' },
    { key: 'navigation.overview', label: 'navigationOverview' },
    { key: 'navigation.users', label: 'navigationUsers' },
    { key: 'navigation.teams', label: 'navigationTeams' },
    { key: 'navigation.settings', label: 'navigationSettings' },
    { key: 'navigation.customers', label: 'navigationCustomers' },
    { key: 'navigation.auditLog', label: 'navigationAuditLog' },
    { key: 'navigation.media', label: 'navigationMedia' },
    { key: 'navigation.content', label: 'navigationContent' },
    { key: 'navigation.channels', label: 'navigationChannels' },
    { key: 'navigation.screens', label: 'navigationScreens' },
    { key: 'navigation.subChannels', label: 'navigationSubChannels' },
    { key: 'navigation.schedules', label: 'navigationSchedules' },
    { key: 'navigation.proofOfPlay', label: 'navigationProofOfPlay' },
    { key: 'navigation.advertisers', label: 'navigationAdvertisers' },
    { key: 'navigation.alerts', label: 'navigationAlerts' },
    { key: 'navigation.alertRules', label: 'navigationAlertRules' },
    { key: 'navigation.notificationChannels', label: 'navigationNotificationChannels' },
    { key: 'navigation.integrations', label: 'navigationIntegrations' },
    { key: 'navigation.datasources', label: 'navigationDatasources' },
    { key: 'navigation.licences', label: 'navigationLicences' },
    { key: 'users.create', label: 'usersCreate' },
    { key: 'customers.create', label: 'customersCreate' },
    { key: 'auditLog.export', label: 'auditLogExport' },
    { key: 'media.upload', label: 'mediaUpload' },
    { key: 'media.delete', label: 'mediaDelete' },
  ],
  dashboard: [],
  playlistEditor: [],
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The node at `segments` below `node`, trying dotted keys (longest first) at every level. */
function lookup(node: unknown, segments: readonly string[]): unknown {
  if (segments.length === 0) return node;
  if (!isPlainObject(node)) return undefined;
  for (let take = segments.length; take >= 1; take--) {
    const key = segments.slice(0, take).join('.');
    if (!Object.hasOwn(node, key)) continue;
    const found = lookup(node[key], segments.slice(take));
    if (found !== undefined) return found;
  }

  return undefined;
}

/** The value written for exactly this key: true, false, or null when it is absent or inherits. */
export function explicitRule(doc: unknown, key: string): RuleValue {
  const value = lookup(doc, key.split('.'));

  return typeof value === 'boolean' ? value : null;
}

/** The effective value of a key after inheritance: the most specific boolean on its path, or null. */
export function effectiveRule(doc: unknown, key: string): RuleValue {
  const segments = key.split('.');
  for (let length = segments.length; length >= 1; length--) {
    const value = lookup(doc, segments.slice(0, length));
    if (typeof value === 'boolean') return value;
  }

  return null;
}

/** Whether an element is shown under the rules; no profile (or no rule) shows everything. */
export function isUiElementVisible(doc: unknown, key: string): boolean {
  return effectiveRule(doc, key) !== false;
}

/** A section as flat dotted keys → leaf values (nested objects are unfolded; empty objects vanish). */
export function flattenSection(section: unknown, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isPlainObject(section)) return out;
  for (const [key, value] of Object.entries(section)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value)) Object.assign(out, flattenSection(value, path));
    else out[path] = value;
  }

  return out;
}

/**
 * Sets one key of a tri-state section, returning a new document. The section is rewritten with flat
 * dotted keys (same meaning, see above); `null` (inherit) removes the key. Other sections are kept.
 */
export function setRule(doc: RulesDocument, section: TriStateSection, key: string, value: RuleValue): RulesDocument {
  const flat = flattenSection(doc[section]);
  if (value === null) delete flat[key];
  else flat[key] = value;
  const next: RulesDocument = { ...doc };
  if (Object.keys(flat).length === 0) delete next[section];
  else next[section] = flat;

  return next;
}

/** The keys the editor lists for a section: the known elements first, then any others in the document. */
export function sectionKeys(doc: RulesDocument, section: TriStateSection): UiElement[] {
  const known = UI_ELEMENTS[section];
  const present = Object.entries(flattenSection(doc[section]))
    .filter(([key, value]) => (typeof value === 'boolean' || value === null) && !known.some((k) => k.key === key))
    .map(([key]) => ({ key }));

  return [...known, ...present.sort((a, b) => a.key.localeCompare(b.key))];
}

/** Parses the JSON view; the document must be an object. A failure names its kind (the editor words it) and, for a syntax error, the parser's message. */
export function parseRulesJson(
  text: string,
): { ok: true; doc: RulesDocument } | { ok: false; error: 'invalidJson' | 'notObject'; detail?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: 'invalidJson', ...(e instanceof Error && e.message ? { detail: e.message } : {}) };
  }
  if (!isPlainObject(value)) return { ok: false, error: 'notObject' };

  return { ok: true, doc: value };
}

/** Keys may use letters, digits, `_` and `-`, separated by dots. */
export const RULE_KEY_PATTERN = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
