import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { bigintArrayParam, execRows, uuidArrayParam } from '@/server/db/sql';
import type { AdvertiserPlay } from '@/server/modules/advertisers/advertiser-plays';
import { advertisers } from '@/server/modules/advertisers/advertisers.table';
import { campaigns } from '@/server/modules/campaigns/campaigns.table';
import { deviceContents } from '@/server/modules/content/content.table';
import { devices } from '@/server/modules/devices/devices.table';
import { files } from '@/server/modules/files/files.table';
import { messages } from '@/server/modules/messages/messages.table';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { playRollupDays, playSubjects, type PlayDimension } from './proof-of-play.table';

/* The statements of proof of play: the raw events (partitioned, custom SQL), the day rollups and names. */

/** A play as stored: the event with what the ingest adds (its tenant, the device's folder, the channel's advertiser). */
export type PlayRow = {
  eventId: string;
  startedAt: number;
  endedAt: number;
  durationMs: number;
  completed: boolean;
  deviceGroupId: string | null;
  campaignId: number | null;
  messageId: number | null;
  contentId: string | null;
  pageId: string | null;
  fileId: string | null;
  advertiserId: string | null;
  clicks: number;
  viewers: number;
  attentionMs: number;
};

/** What a play names, found in any tenant (the ingest refuses another tenant's), with its name. */
export type PlayedItem = { dimension: PlayDimension; id: string; customerId: number; name: string; advertiserId: string | null; advertiserName: string | null };

/** Serialises the ingests of one device (its repeated events are recognised across concurrent calls). */
export async function lockDevicePlays(tx: Executor, deviceId: string): Promise<void> {
  await execRows(tx, sql`select pg_advisory_xact_lock(hashtextextended(${`play:${deviceId}`}, 0))`);
}

/** The device's name and folder (with the folder's name), as plays record them. */
export async function findPlayingDevice(tx: Executor, deviceId: string): Promise<{ name: string; deviceGroupId: string | null; folderName: string | null } | undefined> {
  const [row] = await execRows<{ name: string; deviceGroupId: string | null; folderName: string | null }>(
    tx,
    sql`select d.name, d.device_group_id as "deviceGroupId", g.name as "folderName"
          from ${devices} d left join ${deviceGroups} g on g.id = d.device_group_id where d.id = ${deviceId}::uuid`,
  );

  return row;
}

/** The campaigns, messages, content and files with these ids in any tenant (one statement), with a campaign's advertiser. */
export async function findPlayedItems(tx: Executor, ids: { campaignIds: readonly number[]; messageIds: readonly number[]; contentIds: readonly string[]; fileIds: readonly string[] }): Promise<PlayedItem[]> {
  const branches: SQL[] = [];
  if (ids.campaignIds.length > 0) {
    branches.push(sql`select 'CAMPAIGN' as dimension, c.id::text as id, c.customer_id::float8 as "customerId", c.name, a.id::text as "advertiserId", a.name as "advertiserName"
      from ${campaigns} c left join ${advertisers} a on a.id = c.advertiser_id and a.customer_id = c.customer_id where c.id = any(${bigintArrayParam(ids.campaignIds)})`);
  }
  if (ids.messageIds.length > 0) {
    branches.push(sql`select 'MESSAGE' as dimension, x.id::text as id, x.customer_id::float8 as "customerId", x.name, null::text as "advertiserId", null::text as "advertiserName" from ${messages} x where x.id = any(${bigintArrayParam(ids.messageIds)})`);
  }
  if (ids.contentIds.length > 0) {
    branches.push(sql`select 'CONTENT' as dimension, x.id::text as id, x.customer_id::float8 as "customerId", x.name, null::text as "advertiserId", null::text as "advertiserName" from ${deviceContents} x where x.id = any(${uuidArrayParam(ids.contentIds)})`);
  }
  if (ids.fileIds.length > 0) {
    branches.push(sql`select 'MEDIA_FILE' as dimension, x.id::text as id, x.customer_id::float8 as "customerId", x.name, null::text as "advertiserId", null::text as "advertiserName" from ${files} x where x.id = any(${uuidArrayParam(ids.fileIds)})`);
  }
  if (branches.length === 0) return [];

  return execRows<PlayedItem>(tx, sql.join(branches, sql` union all `));
}

const SLOT_COLUMNS = ['starts', 'ends', 'duration_ms', 'clicks', 'viewers', 'attention_ms'] as const;

/** The running sums of a 96-slot array, with a leading 0 (97 elements), as `column`. */
const runningSums = (column: string) =>
  sql.raw(`array(select (sum(v) over (order by i rows unbounded preceding))::${column === 'duration_ms' || column === 'attention_ms' ? 'bigint' : 'int'}
    from unnest(array[0] || ${column}) with ordinality u(v, i) order by i) as ${column}`);

/** `col = stored + added`, element by element (running sums add up like the slots they sum). */
const addSlots = (column: string) =>
  sql.raw(`${column} = array(select a + b from unnest(play_rollup_day.${column}, excluded.${column}) with ordinality u(a, b, i) order by i)`);

/**
 * Stores the plays of one device that it has not reported before (same event id), and adds them to the day
 * rollups of every dimension they name, in one statement. Answers how many were new.
 */
export async function insertPlays(tx: Executor, customerId: number, deviceId: string, plays: readonly PlayRow[]): Promise<number> {
  if (plays.length === 0) return 0;
  const [row] = await execRows<{ accepted: number }>(
    tx,
    sql`with incoming as (
          select * from jsonb_to_recordset(${JSON.stringify(plays)}::jsonb) as x(
            "eventId" uuid, "startedAt" float8, "endedAt" float8, "durationMs" integer, completed boolean, "deviceGroupId" uuid, "campaignId" bigint,
            "messageId" bigint, "contentId" uuid, "pageId" text, "fileId" uuid, "advertiserId" uuid, clicks integer, viewers integer, "attentionMs" bigint)
        ),
        ins as (
          insert into play_event (customer_id, device_id, event_id, started_at, ended_at, duration_ms, completed, device_group_id, campaign_id, message_id,
                                  content_id, page_id, file_id, advertiser_id, clicks, viewers, attention_ms)
          select ${customerId}, ${deviceId}::uuid, x."eventId", to_timestamp(x."startedAt" / 1000), to_timestamp(x."endedAt" / 1000), x."durationMs", x.completed,
                 x."deviceGroupId", x."campaignId", x."messageId", x."contentId", x."pageId", x."fileId", x."advertiserId", x.clicks, x.viewers, x."attentionMs"
            from incoming x
           where not exists (select 1 from play_event p where p.device_id = ${deviceId}::uuid and p.event_id = x."eventId")
          returning *
        ),
        counted as (
          select i.customer_id, d.dimension, d.subject_id, (i.started_at at time zone 'UTC')::date as day,
                 (extract(hour from i.started_at at time zone 'UTC') * 4 + floor(extract(minute from i.started_at at time zone 'UTC') / 15))::int as slot,
                 i.completed, i.duration_ms, i.clicks, i.viewers, i.attention_ms
            from ins i cross join lateral (values
              ('DEVICE', i.device_id::text), ('DEVICE_GROUP', i.device_group_id::text), ('CAMPAIGN', i.campaign_id::text),
              ('MESSAGE', i.message_id::text), ('CONTENT', i.content_id::text),
              ('CONTENT_PAGE', case when i.content_id is not null and i.page_id is not null then i.content_id::text || '/' || i.page_id end),
              ('MEDIA_FILE', i.file_id::text), ('ADVERTISER', i.advertiser_id::text)) d(dimension, subject_id)
           where d.subject_id is not null
        ),
        slots as (
          select customer_id, dimension, subject_id, day, slot, count(*)::int as starts, (count(*) filter (where completed))::int as ends,
                 sum(duration_ms)::bigint as duration_ms, sum(clicks)::int as clicks, sum(viewers)::int as viewers, sum(attention_ms)::bigint as attention_ms
            from counted group by customer_id, dimension, subject_id, day, slot
        ),
        -- Per subject and day: the slot values (0 where nothing started), then their running sums with a leading 0
        -- (element k + 1 is the total of slots 0..k, so any run of slots is one subtraction).
        values_by_day as (
          select s.customer_id, s.dimension, s.subject_id, s.day,
                 array_agg(coalesce(x.starts, 0) order by g.i) as starts, array_agg(coalesce(x.ends, 0) order by g.i) as ends,
                 array_agg(coalesce(x.duration_ms, 0) order by g.i) as duration_ms, array_agg(coalesce(x.clicks, 0) order by g.i) as clicks,
                 array_agg(coalesce(x.viewers, 0) order by g.i) as viewers, array_agg(coalesce(x.attention_ms, 0) order by g.i) as attention_ms
            from (select distinct customer_id, dimension, subject_id, day from slots) s
            cross join generate_series(0, 95) g(i)
            left join slots x on x.customer_id = s.customer_id and x.dimension = s.dimension and x.subject_id = s.subject_id and x.day = s.day and x.slot = g.i
           group by s.customer_id, s.dimension, s.subject_id, s.day
        ),
        days as (
          select customer_id, dimension, subject_id, day, ${sql.join(SLOT_COLUMNS.map(runningSums), sql`, `)} from values_by_day
        ),
        rolled as (
          insert into ${playRollupDays} (customer_id, dimension, subject_id, day, starts, ends, duration_ms, clicks, viewers, attention_ms)
          select customer_id, dimension, subject_id, day, starts, ends, duration_ms, clicks, viewers, attention_ms from days
          on conflict (customer_id, dimension, subject_id, day) do update set ${sql.join(SLOT_COLUMNS.map(addSlots), sql`, `)}
          returning 1
        )
        select (select count(*) from ins)::int as accepted, (select count(*) from rolled)::int as rolled`,
  );

  return Number(row?.accepted ?? 0);
}

/** Records (or refreshes) the names plays are reported under; unchanged names are not written again. */
export async function upsertPlaySubjects(tx: Executor, customerId: number, subjects: readonly { dimension: PlayDimension; id: string; name: string }[]): Promise<void> {
  if (subjects.length === 0) return;
  await execRows(
    tx,
    sql`insert into ${playSubjects} (customer_id, dimension, subject_id, name)
        select ${customerId}, x.dimension, x.id, x.name from jsonb_to_recordset(${JSON.stringify(subjects)}::jsonb) as x(dimension text, id text, name text)
        on conflict (customer_id, dimension, subject_id) do update set name = excluded.name, updated_at = now()
         where ${playSubjects.name} is distinct from excluded.name`,
  );
}

/** Creates the monthly partitions of play_event from `from`'s month for `months` months (those missing). */
export async function ensurePlayPartitions(db: Executor, from: Date, months: number): Promise<number> {
  const [row] = await execRows<{ created: number }>(db, sql`select play_event_ensure_partitions(${from.toISOString().slice(0, 10)}::date, ${months}) as created`);

  return Number(row?.created ?? 0);
}

/** Drops the monthly partitions of play_event that end on or before `cutoff`. */
export async function dropPlayPartitionsBefore(db: Executor, cutoff: Date): Promise<number> {
  const [row] = await execRows<{ dropped: number }>(db, sql`select play_event_drop_partitions_before(${cutoff.toISOString()}::timestamptz) as dropped`);

  return Number(row?.dropped ?? 0);
}

/**
 * A page of an advertiser's plays for its CSV history: newest first (start, then device and event id
 * descending, so plays of one instant page stably), after `after` (keyset), with the names kept for them.
 * Reads the advertiser index of each monthly partition.
 */
export async function findAdvertiserPlays(db: Executor, input: { customerId: number; advertiserId: string; after?: { startedAt: Date; deviceId: string; eventId: string }; limit: number }): Promise<AdvertiserPlay[]> {
  const name = (dimension: PlayDimension, subject: SQL) =>
    sql`(select n.name from ${playSubjects} n where n.customer_id = e.customer_id and n.dimension = ${dimension} and n.subject_id = ${subject})`;
  const after = input.after
    ? sql`and (e.started_at, e.device_id, e.event_id) < (${input.after.startedAt.toISOString()}::timestamptz, ${input.after.deviceId}::uuid, ${input.after.eventId}::uuid)`
    : sql``;
  const rows = await execRows<Omit<AdvertiserPlay, 'startedAt' | 'endedAt'> & { startedAt: string | Date; endedAt: string | Date }>(
    db,
    sql`select e.started_at as "startedAt", e.ended_at as "endedAt", e.duration_ms as "durationMs", e.device_id::text as "deviceId", e.event_id::text as "eventId",
               ${name('DEVICE', sql`e.device_id::text`)} as "deviceName", ${name('CAMPAIGN', sql`e.campaign_id::text`)} as "campaignName",
               case when e.content_id is null then null else coalesce(${name('CONTENT', sql`e.content_id::text`)}, e.content_id::text) end as "contentName",
               case when e.file_id is null then null else coalesce(${name('MEDIA_FILE', sql`e.file_id::text`)}, e.file_id::text) end as "fileName"
          from play_event e
         where e.advertiser_id = ${input.advertiserId}::uuid and e.customer_id = ${input.customerId} ${after}
         order by e.started_at desc, e.device_id desc, e.event_id desc
         limit ${input.limit}`,
  );

  return rows.map((r) => ({ ...r, startedAt: new Date(r.startedAt), endedAt: new Date(r.endedAt), durationMs: Number(r.durationMs) }));
}
