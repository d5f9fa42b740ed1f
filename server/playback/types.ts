import type { CampaignHours, ScheduleIntervals, TagCondition, WorkingDays } from './schedule-rules.schemas';

/*
 * The inputs of the playback resolver (spec 4 §4) as plain data: what a database loader reads for one tenant
 * and one device. Nothing here is read from a clock, a process time zone or a database; the loader resolves
 * dynamic assignments (content folders, file folders, quick filters, tag and team conditions on what is
 * played) into the candidate lists below, and passes only items that exist in the tenant.
 */

/** A local calendar date `yyyy-MM-dd` (campaign and message `validFrom`/`validTo`). */
export type LocalDate = string;

/** Half-open `[from, to)` in Unix epoch milliseconds. */
export type PlaybackWindow = { from: number; to: number };

export type CampaignLevel = 'WIDGET' | 'TOP';
type DeviceSelectionMode = 'STATIC' | 'DYNAMIC' | 'QUICK_FILTER';
export type OrderingMode = 'DEFAULT' | 'ALPHABET' | 'RANDOM';
type ContentShuffleMode = 'BALANCED' | 'SERIAL';

/** Where a campaign or message plays (spec 4 §4 "targeting"; spec 2 `deviceSelectionMode`). */
export type Targeting = {
  /** `STATIC`: `deviceIds`; `DYNAMIC` (the default): `deviceGroupIds`, `deviceTagCondition`, `teamIds`; `QUICK_FILTER`: `deviceQuickFilterId`. */
  deviceSelectionMode: DeviceSelectionMode;
  /** `deviceAssignment` device ids (STATIC). */
  deviceIds?: readonly string[];
  /** `deviceGroupAssignment` folder ids (DYNAMIC): a device in one of them or below it is targeted; the root folder means every device. */
  deviceGroupIds?: readonly string[];
  /** DYNAMIC: `AND` every tag, `OR` at least one; absent or no tags: no condition. */
  deviceTagCondition?: TagCondition | null;
  /** The team ids of `teamAccessList` (DYNAMIC): when it names teams, the device must belong to one of them. */
  teamIds?: readonly string[];
  /** `deviceQuickFilterId` (QUICK_FILTER): the device must match this device quick filter. */
  deviceQuickFilterId?: string | null;
};

/** The time rules shared by campaigns and messages (spec 2, spec 1 "Schedule interval object", "Working days and working time objects"). */
export type TimeRules = {
  /** false: reason `DISABLED`. */
  enabled: boolean;
  /** Inclusive local dates read in the device's time zone (`NOT_VALID_YET`, `EXPIRED`); null: no limit. */
  validFrom?: LocalDate | null;
  validTo?: LocalDate | null;
  /** Days a window may start on, read in `affectedHours.timeZone` else the device's zone; null: every day. A day left out does not hold. */
  affectedDays?: WorkingDays | null;
  /** Daily window `[from, end)` (`OUTSIDE_HOURS`); null or `allDay`: the whole day. */
  affectedHours?: CampaignHours | null;
  /** Included/excluded intervals in the device's zone (`OUTSIDE_DATE_RANGES`, `EXCLUDED_RANGE`); null or no intervals: no restriction. */
  affectedDateRanges?: ScheduleIntervals | null;
};

/** A media file a campaign or message plays (an assignment, or a file of an assigned folder or quick filter). */
export type CandidateFile = {
  id: string;
  name: string;
  /** From the MIME type: `image/*` image, `video/*` video, anything else other (played for `defaultDuration`). */
  kind: 'image' | 'video' | 'other';
  /** A video's own length, when known. */
  durationMs?: number | null;
  /** The file's validity (epoch ms, both inclusive); outside it the file is skipped. */
  validFrom?: number | null;
  validTo?: number | null;
  /** Assignment weight (lower first); 0 for files of a folder or quick filter. */
  weight: number;
};

/** Content (slide, interactive content, playlist) a campaign or message plays; only content that exists. */
export type CandidateContent = {
  id: string;
  name: string;
  deviceContentType: 'content' | 'simpleLoop';
  /** Number of pages (a slide: 1; interactive content: its pages; a playlist: its slides). At least 1. */
  pageCount: number;
  /** The whole content's natural length when known (a playlist's total); else each page plays `defaultDuration`. */
  durationMs?: number | null;
  /** Assignment weight (lower first; the schedule layer plays the first by weight); 0 for dynamic candidates. */
  weight: number;
};

/** How items are chosen and how long they play (spec 2 campaign and message fields). */
export type PlayRules = {
  /** `DEFAULT` (assignment weight then id), `ALPHABET` (name, then id), `RANDOM` (seeded shuffle). Default `DEFAULT`. */
  orderingMode?: OrderingMode | null;
  /** CONTENT: `BALANCED` one page per content per turn, `SERIAL` all pages. MESSAGE_GROUP: `BALANCED` one item per sub-channel per round, `SERIAL` all. Default `SERIAL`. */
  contentShuffleMode?: ContentShuffleMode | null;
  /** Seconds: the maximum length of any item (`duration`). */
  durationS?: number | null;
  /** Seconds an image, other file or content page plays (`defaultDuration`); default 10, minimum 3. */
  defaultDurationS?: number | null;
  files?: readonly CandidateFile[];
  contents?: readonly CandidateContent[];
  /** `skipInvalidFiles`: leave out files a player cannot render (kind `other`: neither image nor video). Default false. */
  skipInvalidFiles?: boolean | null;
};

/** A sub-channel (spec 2 "Message"): eligible only while its parent channel is. */
export type MessageRules = TimeRules &
  Targeting &
  PlayRules & {
    id: number;
    name: string;
    /** Lower plays first inside its group. */
    weight: number;
    /** Playback count per turn: 1 = one item, N = N items, 0 = all items. Default 1. */
    saturation?: number | null;
    /** Default true: N above the item count plays only as many items as exist (false: wraps around). */
    isPlayedElementsCappedByItemCount?: boolean | null;
  };

export type MessageGroupRules = { id: number; name: string; weight: number; messages: readonly MessageRules[] };

/** A campaign: a channel (`WIDGET`) or a schedule (`TOP`), with its candidate items already loaded. */
export type CampaignRules = TimeRules &
  Targeting &
  PlayRules & {
    id: number;
    name: string;
    level: CampaignLevel;
    /** Lower first (channel order; the schedule layer takes the lowest). */
    weight: number;
    /** Share of screen time among channels (proportional); default 1. */
    saturation?: number | null;
    tags?: readonly string[];
    /** MESSAGE_GROUP channels: the assigned groups with their messages. */
    messageGroups?: readonly MessageGroupRules[];
    /** Playback slot mapping (spec 2): false → one item per turn. Default false. */
    playMultipleItemsInSinglePlaybackSlot?: boolean | null;
    /** With multiple items: true → all items per turn (default), false → `playbackSlotNumberOfElementsToPlay`. */
    playAllItemsInSinglePlaybackSlot?: boolean | null;
    playbackSlotNumberOfElementsToPlay?: number | null;
    /** Seconds one turn may last at most; unset: no limit. */
    playbackSlotDuration?: number | null;
  };

/** Every rule of the tenant that can play on a device. */
export type PlaybackRules = { campaigns: readonly CampaignRules[] };

/** `{id, name, deviceContentType}` of content (the segment's `content`). */
export type ContentRef = { id: string; name: string; deviceContentType: 'content' | 'simpleLoop' };

/** What the resolver knows about the device. */
export type DeviceFacts = {
  id: string;
  /** IANA zone; dates, validity and date ranges are read in it (and affectedHours without its own zone). */
  timeZone: string;
  /** Its device folder and every ancestor up to the root. */
  folderIds: readonly string[];
  tags: readonly string[];
  teamIds: readonly string[];
  /** Ids of the device quick filters the device matches. */
  quickFilterIds: readonly string[];
  emergencyStatus: boolean;
  emergencyContent?: ContentRef | null;
  /** The customer's default emergency content (used when the device has none). */
  defaultEmergencyContent?: ContentRef | null;
  /** The assigned content (layer CONTENT). */
  content?: ContentRef | null;
};

export type ReasonCode =
  | 'DISABLED'
  | 'NOT_TARGETED'
  | 'NOT_VALID_YET'
  | 'EXPIRED'
  | 'OUTSIDE_HOURS'
  | 'OUTSIDE_DATE_RANGES'
  | 'EXCLUDED_RANGE'
  | 'PARENT_NOT_ELIGIBLE'
  | 'NO_PLAYABLE_ITEMS';
