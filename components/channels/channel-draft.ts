import type { Campaign, CampaignType } from '@/lib/api/campaigns';
import { formMessages, type FormWords } from '@/lib/forms/form-messages';
import type { z } from 'zod';
import { dayOf, type SlotItemType } from '@/components/channels/channel-words';
import { dayNames, type DayName } from '@/server/playback/schedule-rules.schemas';

/*
 * The channel editor's state and the wire bodies made from it: a create sends everything, an edit sends
 * what changed, with the additive assignment objects (`{assignments, removeIds}`) and the `reset*` flags
 * for values cleared (spec 2 "Campaign").
 */

export type Named<I = string> = { id: I; name: string };
export type DateRange = { from: string; to: string; isExcluded: boolean };
export type SlotChoice = 'one' | 'n' | 'all';
type SelectionMode = 'DYNAMIC' | 'STATIC' | 'QUICK_FILTER';

export type ChannelDraft = {
  name: string;
  type: CampaignType;
  enabled: boolean;
  weight: string;
  saturation: string;
  contents: Named[];
  contentFolders: Named[];
  files: Named[];
  fileFolders: Named[];
  messageGroups: Named<number>[];
  contentQuickFilterId: string;
  fileQuickFilterId: string;
  contentShuffleMode: 'SERIAL' | 'BALANCED';
  orderingMode: 'DEFAULT' | 'ALPHABET' | 'RANDOM';
  defaultDuration: string;
  mode: SelectionMode;
  deviceFolders: Named[];
  devices: Named[];
  deviceTags: string[];
  tagOperator: 'AND' | 'OR';
  teamIds: string[];
  /** CONTENT_DYNAMIC: only content with these tags (`contentTagCondition`). */
  contentTags: string[];
  contentTagOperator: 'AND' | 'OR';
  /** ASSETS_DYNAMIC: only files with these tags (`fileTagCondition`). */
  fileTags: string[];
  fileTagOperator: 'AND' | 'OR';
  /** Only content and files of these teams (`playedAssetTeamAccessList`); empty: any. */
  playedAssetTeamIds: string[];
  deviceQuickFilterId: string;
  validFrom: string;
  validTo: string;
  days: Record<DayName, boolean>;
  allDay: boolean;
  from: string;
  end: string;
  /** Empty: each screen's own zone. */
  hoursZone: string;
  ranges: DateRange[];
  slot: SlotChoice;
  slotCount: string;
  slotDuration: string;
  /** What one item of a turn is (`playbackSlotItemType`); empty: not set. */
  slotItemType: SlotItemType | '';
  tags: string[];
  advertiserId: string;
  duration: string;
  skipInvalidFiles: boolean;
  /** Legacy (spec 2): stored for players that read it. */
  skipDefaultPage: boolean;
};

const everyDay = () => Object.fromEntries(dayNames.map((d) => [d, true])) as Record<DayName, boolean>;

export function emptyDraft(): ChannelDraft {
  return {
    name: '',
    type: 'CONTENT',
    enabled: true,
    weight: '',
    saturation: '',
    contents: [],
    contentFolders: [],
    files: [],
    fileFolders: [],
    messageGroups: [],
    contentQuickFilterId: '',
    fileQuickFilterId: '',
    contentShuffleMode: 'SERIAL',
    orderingMode: 'DEFAULT',
    defaultDuration: '10',
    mode: 'DYNAMIC',
    deviceFolders: [],
    devices: [],
    deviceTags: [],
    tagOperator: 'OR',
    teamIds: [],
    contentTags: [],
    contentTagOperator: 'OR',
    fileTags: [],
    fileTagOperator: 'OR',
    playedAssetTeamIds: [],
    deviceQuickFilterId: '',
    validFrom: '',
    validTo: '',
    days: everyDay(),
    allDay: true,
    from: '08:00',
    end: '18:00',
    hoursZone: '',
    ranges: [],
    slot: 'one',
    slotCount: '',
    slotDuration: '',
    slotItemType: '',
    tags: [],
    advertiserId: '',
    duration: '',
    skipInvalidFiles: false,
    skipDefaultPage: false,
  };
}

type TagCondition = { tags?: string[]; operator?: 'AND' | 'OR' };

const named = <I>(list: ReadonlyArray<{ id: string | number; name?: string }> | undefined, id: (v: string | number) => I): Named<I>[] =>
  (list ?? []).map((x) => ({ id: id(x.id), name: x.name ?? String(x.id) }));
const num = (v: number | undefined | null) => (v == null ? '' : String(v));

/** The editor's state of a saved channel (the single read with every assignment list). */
export function draftOf(c: Campaign): ChannelDraft {
  const hours = (c.affectedHours ?? {}) as { allDay?: boolean; from?: string; end?: string; timeZone?: string };
  const days = c.affectedDays as Partial<Record<DayName, boolean>> | undefined;
  const tags = (c.deviceTagCondition ?? {}) as TagCondition;
  const contentTags = (c.contentTagCondition ?? {}) as TagCondition;
  const fileTags = (c.fileTagCondition ?? {}) as TagCondition;
  const playedAssetTeams = ((c.playedAssetTeamAccessList ?? {}) as { teams?: Array<{ id: string }> }).teams ?? [];
  const intervals = (
    (c.affectedDateRanges as { intervals?: Array<{ from?: string; to?: string; isExcluded?: boolean }> } | undefined)?.intervals ?? []
  ).map((i) => ({
    from: i.from ?? '',
    to: i.to ?? '',
    isExcluded: i.isExcluded === true,
  }));
  const base = emptyDraft();

  return {
    ...base,
    name: c.name ?? '',
    type: c.type ?? 'CONTENT',
    enabled: c.enabled !== false,
    weight: num(c.weight),
    saturation: num(c.saturation),
    contents: named(c.contentAssignments, String),
    contentFolders: named(c.contentGroupAssignments, String),
    files: named(c.fileAssignments, String),
    fileFolders: named(c.fileFolderAssignments, String),
    messageGroups: named(c.messageGroupAssignments, Number),
    contentQuickFilterId: c.contentQuickFilterId ?? '',
    fileQuickFilterId: c.fileQuickFilterId ?? '',
    contentShuffleMode: c.contentShuffleMode ?? base.contentShuffleMode,
    orderingMode: c.orderingMode ?? base.orderingMode,
    defaultDuration: num(c.defaultDuration),
    mode: c.deviceSelectionMode ?? 'DYNAMIC',
    deviceFolders: named(c.deviceGroupAssignments, String),
    devices: named(c.deviceAssignments, String),
    deviceTags: tags.tags ?? [],
    tagOperator: tags.operator ?? 'OR',
    teamIds: (c.teamAccessList?.teams ?? []).map((t) => t.id),
    contentTags: contentTags.tags ?? [],
    contentTagOperator: contentTags.operator ?? 'OR',
    fileTags: fileTags.tags ?? [],
    fileTagOperator: fileTags.operator ?? 'OR',
    playedAssetTeamIds: playedAssetTeams.map((t) => t.id),
    deviceQuickFilterId: c.deviceQuickFilterId ?? '',
    validFrom: dayOf(c.validFrom),
    validTo: dayOf(c.validTo),
    days: days ? (Object.fromEntries(dayNames.map((d) => [d, days[d] === true])) as Record<DayName, boolean>) : everyDay(),
    allDay: hours.allDay !== false || !hours.from || !hours.end,
    from: hours.from ?? base.from,
    end: hours.end ?? base.end,
    hoursZone: hours.timeZone ?? '',
    ranges: intervals,
    slot: c.playMultipleItemsInSinglePlaybackSlot ? (c.playAllItemsInSinglePlaybackSlot === false ? 'n' : 'all') : 'one',
    slotCount: num(c.playbackSlotNumberOfElementsToPlay),
    slotDuration: num(c.playbackSlotDuration),
    slotItemType: c.playbackSlotItemType ?? '',
    tags: c.tags ?? [],
    advertiserId: c.advertiserId ?? '',
    duration: num(c.duration),
    skipInvalidFiles: c.skipInvalidFiles === true,
    skipDefaultPage: c.skipDefaultPage === true,
  };
}

/** Which item lists and settings a type uses (spec 2 "Required fields per campaign type on create"). */
export const typeUses = (type: CampaignType) => ({
  /** Content or files are read when played: tags and teams may narrow them. */
  readsAssets: type !== 'MESSAGE_GROUP',
  contents: type === 'CONTENT',
  contentFolders: type === 'CONTENT_DYNAMIC',
  files: type === 'ASSETS_STATIC',
  fileFolders: type === 'ASSETS_DYNAMIC',
  messageGroups: type === 'MESSAGE_GROUP',
  contentQuickFilter: type === 'CONTENT_QUICK_FILTER',
  fileQuickFilter: type === 'ASSET_QUICK_FILTER',
  shuffle: ['CONTENT', 'CONTENT_DYNAMIC', 'MESSAGE_GROUP', 'CONTENT_QUICK_FILTER'].includes(type),
  ordering: ['CONTENT_DYNAMIC', 'ASSETS_STATIC', 'ASSETS_DYNAMIC', 'CONTENT_QUICK_FILTER', 'ASSET_QUICK_FILTER'].includes(type),
  defaultDuration: ['ASSETS_STATIC', 'ASSETS_DYNAMIC', 'ASSET_QUICK_FILTER'].includes(type),
  /** Content with pages plays (`skipDefaultPage` applies). */
  contentPages: ['CONTENT', 'CONTENT_DYNAMIC', 'CONTENT_QUICK_FILTER'].includes(type),
  /** Files play (`skipInvalidFiles` applies). */
  filesPlay: ['ASSETS_STATIC', 'ASSETS_DYNAMIC', 'ASSET_QUICK_FILTER'].includes(type),
});

const intOrUndefined = (v: string) => (v.trim() === '' ? undefined : Number(v));

/**
 * The fields a channel and a sub-channel share (spec 2: messages use the campaigns' targeting and assignment
 * fields): how items are ordered and filtered, the device targeting, validity and date ranges (undefined: not sent).
 */
export function sharedRuleFields(d: ChannelDraft) {
  const uses = typeUses(d.type);

  return {
    name: d.name.trim(),
    enabled: d.enabled,
    weight: intOrUndefined(d.weight),
    saturation: intOrUndefined(d.saturation),
    contentShuffleMode: uses.shuffle ? d.contentShuffleMode : undefined,
    orderingMode: uses.ordering ? d.orderingMode : undefined,
    skipDefaultPage: uses.contentPages ? d.skipDefaultPage : undefined,
    contentTagCondition: uses.contentFolders ? { tags: d.contentTags, operator: d.contentTagOperator } : undefined,
    fileTagCondition: uses.fileFolders ? { tags: d.fileTags, operator: d.fileTagOperator } : undefined,
    contentQuickFilterId: uses.contentQuickFilter && d.contentQuickFilterId ? d.contentQuickFilterId : undefined,
    fileQuickFilterId: uses.fileQuickFilter && d.fileQuickFilterId ? d.fileQuickFilterId : undefined,
    deviceTagCondition: d.mode === 'DYNAMIC' ? { tags: d.deviceTags, operator: d.tagOperator } : undefined,
    teamAccessList: { teams: d.teamIds.map((id) => ({ id })) },
    deviceQuickFilterId: d.mode === 'QUICK_FILTER' && d.deviceQuickFilterId ? d.deviceQuickFilterId : undefined,
    validFrom: d.validFrom || undefined,
    validTo: d.validTo || undefined,
    affectedDateRanges: {
      intervals: d.ranges.map((r) => ({ ...(r.from ? { from: r.from } : {}), ...(r.to ? { to: r.to } : {}), isExcluded: r.isExcluded })),
    },
  };
}

/** The time and playback fields, shared by create and update (undefined: not sent). */
function settings(d: ChannelDraft) {
  return {
    ...sharedRuleFields(d),
    playedAssetTeamAccessList: { teams: d.playedAssetTeamIds.map((id) => ({ id })) },
    defaultDuration: intOrUndefined(d.defaultDuration),
    affectedDays: { ...d.days },
    affectedHours: d.allDay
      ? { allDay: true, ...(d.hoursZone ? { timeZone: d.hoursZone } : {}) }
      : { allDay: false, from: d.from, end: d.end, ...(d.hoursZone ? { timeZone: d.hoursZone } : {}) },
    playMultipleItemsInSinglePlaybackSlot: d.slot !== 'one',
    playAllItemsInSinglePlaybackSlot: d.slot !== 'n',
    playbackSlotNumberOfElementsToPlay: d.slot === 'n' ? intOrUndefined(d.slotCount) : undefined,
    playbackSlotDuration: intOrUndefined(d.slotDuration),
    playbackSlotItemType: d.slotItemType || undefined,
    tags: d.tags,
    advertiserId: d.advertiserId || undefined,
    duration: intOrUndefined(d.duration),
    skipInvalidFiles: typeUses(d.type).filesPlay ? d.skipInvalidFiles : undefined,
  };
}

type Lists = {
  [K in 'contents' | 'contentFolders' | 'files' | 'fileFolders' | 'messageGroups' | 'deviceFolders' | 'devices']: ChannelDraft[K];
};

/** Each editor list: its assignment field, the item's id key, and whether the item carries a weight (its order). */
const ASSIGNMENTS: Array<{ list: keyof Lists; field: string; key: string; weighted?: boolean }> = [
  { list: 'contents', field: 'contentAssignment', key: 'contentId', weighted: true },
  { list: 'contentFolders', field: 'contentGroupAssignment', key: 'contentGroupId' },
  { list: 'files', field: 'fileAssignment', key: 'fileId', weighted: true },
  { list: 'fileFolders', field: 'fileFolderAssignment', key: 'fileFolderId' },
  { list: 'messageGroups', field: 'messageGroupAssignment', key: 'messageGroupId' },
  { list: 'deviceFolders', field: 'deviceGroupAssignment', key: 'deviceGroupId' },
  { list: 'devices', field: 'deviceAssignment', key: 'deviceId' },
];

/** Assignment items; a weighted item's weight is its place in `order` (1 first). */
const itemsOf = (spec: (typeof ASSIGNMENTS)[number], list: ReadonlyArray<Named<string | number>>, order = list) =>
  list.map((item) => ({ [spec.key]: item.id, ...(spec.weighted ? { weight: order.indexOf(item) + 1 } : {}) }));

/** Whether the draft's list is sent for its type and device selection. */
function listApplies(list: keyof Lists, d: ChannelDraft): boolean {
  if (list === 'deviceFolders') return d.mode === 'DYNAMIC';
  if (list === 'devices') return d.mode === 'STATIC';

  return typeUses(d.type)[list];
}

type ListKey = keyof Lists;

/** A create's assignment objects: each list that applies to the draft's type and device selection (`skip`: not sent). */
export function createAssignments(d: ChannelDraft, skip: readonly ListKey[] = []): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const spec of ASSIGNMENTS)
    if (!skip.includes(spec.list) && listApplies(spec.list, d)) body[spec.field] = { assignments: itemsOf(spec, d[spec.list]) };

  return body;
}

/** The values of `after` that differ from `before` (undefined: not sent). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after))
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(before[key])) body[key] = value;

  return body;
}

/** An edit's assignment objects: each list's additions (and, weighted lists, the items that moved, with their new weight) and removals. */
export function assignmentChanges(initial: ChannelDraft, d: ChannelDraft, skip: readonly ListKey[] = []): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const spec of ASSIGNMENTS) {
    if (skip.includes(spec.list) || !listApplies(spec.list, d)) continue;
    const old = initial[spec.list] as ReadonlyArray<Named<string | number>>;
    const now = d[spec.list] as ReadonlyArray<Named<string | number>>;
    const removeIds = old.filter((o) => !now.some((n) => n.id === o.id)).map((o) => o.id);
    // New items, and (weighted lists) items whose place, hence weight, changed.
    const added = now.filter((n, i) => {
      const was = old.findIndex((o) => o.id === n.id);

      return was === -1 || (spec.weighted === true && was !== i);
    });
    if (added.length === 0 && removeIds.length === 0) continue;
    body[spec.field] = { assignments: itemsOf(spec, added, now), removeIds };
  }

  return body;
}

export function createBody(d: ChannelDraft): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...settings(d),
    level: 'WIDGET',
    type: d.type,
    version: '2.0',
    deviceSelectionMode: d.mode,
    ...createAssignments(d),
  };

  return stripUndefined(body);
}

/**
 * An edit's body: changed settings; each list's additions (and the items that moved, with their new weight)
 * and removals; `reset*` flags for values emptied. `type` and `deviceSelectionMode` are not
 * sent (the API ignores them).
 */
export function updateBody(initial: ChannelDraft, d: ChannelDraft): Record<string, unknown> {
  const before = settings(initial);
  const after = settings(d);
  const body = changedFields(before, after);
  const resets: Array<[keyof typeof after, string]> = [
    ['validTo', 'resetValidTo'],
    ['duration', 'resetDuration'],
    ['advertiserId', 'resetAdvertiserId'],
    ['defaultDuration', 'resetDefaultDuration'],
    ['playbackSlotDuration', 'resetPlaybackSlotDuration'],
    ['playbackSlotNumberOfElementsToPlay', 'resetPlaybackSlotNumberOfElementsToPlay'],
  ];
  for (const [field, flag] of resets) if (before[field] !== undefined && after[field] === undefined) body[flag] = true;

  return { ...body, ...assignmentChanges(initial, d) };
}

function stripUndefined(body: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

/** The editor's form field an API issue path belongs to (`contentAssignment` → `contents`). */
export function draftFieldOf(path: string): string {
  const spec = ASSIGNMENTS.find((a) => a.field === path);
  if (spec) return spec.list;
  if (path === 'affectedHours') return 'from';
  if (path === 'playbackSlotNumberOfElementsToPlay') return 'slotCount';
  if (path === 'playbackSlotDuration') return 'slotDuration';
  if (path === 'playbackSlotItemType') return 'slotItemType';
  if (path === 'resetAdvertiserId') return 'advertiserId';

  return path;
}

/**
 * A create or update body checked by the API's own body schema before it is sent: the first message per editor
 * field (`fieldOf` maps an issue's wire field, e.g. `draftFieldOf`); empty when the API's checks of the body alone
 * pass (tenant, team and reference checks stay the server's). `enterName` words an empty name; `words` the other
 * checks (English without).
 */
export function bodyIssues(
  schema: z.ZodType,
  body: unknown,
  fieldOf: (wireField: string) => string,
  enterName: string,
  words?: FormWords,
): Record<string, string> {
  const result = schema.safeParse(body, { error: formMessages({ name: enterName }, words) });
  const issues: Record<string, string> = {};
  if (result.success) return issues;
  for (const issue of result.error.issues) issues[fieldOf(String(issue.path[0] ?? ''))] ??= issue.message;

  return issues;
}
