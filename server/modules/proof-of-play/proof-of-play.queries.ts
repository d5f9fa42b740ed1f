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
import { playRollupDays, playRollupDayTotals, playSubjects, type PlayDimension } from './proof-of-play.table';

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

/**
 * Serialises the ingests of one device (its repeated events are recognised across concurrent calls), and
 * answers the device's name and folder (with the folder's name), as plays record them: one round trip.
 */
export async function lockPlayingDevice(tx: Executor, deviceId: string): Promise<{ name: string; deviceGroupId: string | null; folderName: string | null } | undefined> {
  const [row] = await execRows<{ name: string | null; deviceGroupId: string | null; folderName: string | null }>(
    tx,
    sql`select d.name, d.device_group_id as "deviceGroupId", g.name as "folderName"
          from (select pg_advisory_xact_lock(hashtextextended(${`play:${deviceId}`}, 0))) lock
          left join ${devices} d on d.id = ${deviceId}::uuid
          left join ${deviceGroups} g on g.id = d.device_group_id`,
  );

  return row?.name == null ? undefined : { name: row.name, deviceGroupId: row.deviceGroupId, folderName: row.folderName };
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

const COUNTERS = ['starts', 'ends', 'duration_ms', 'clicks', 'viewers', 'attention_ms'] as const;
const WIDE = new Set<string>(['duration_ms', 'attention_ms']);
const arrayType = (column: string) => (WIDE.has(column) ? 'bigint' : 'integer');

/**
 * The stored running sums plus the batch's, element by element (`unnest` of both in step, aggregated in
 * element order), a counter at a time; a counter that stays 0 all day stays an empty array.
 */
const addRunningSums = sql.raw(
  COUNTERS.map(
    (c) => `${c} = case when cardinality(play_rollup_day.${c}) + cardinality(excluded.${c}) = 0 then '{}'::${arrayType(c)}[]
      else (select array_agg(coalesce(u.old, 0) + coalesce(u.new, 0) order by u.i) from unnest(play_rollup_day.${c}, excluded.${c}) with ordinality u(old, new, i)) end`,
  ).join(', '),
);

/** A name plays are reported under (play_subject). */
export type PlaySubjectName = { dimension: PlayDimension; id: string; name: string };

/**
 * Stores the plays of one device that it has not reported before (same event id), adds them to the day
 * totals and quarter-hour running sums of every dimension they name, and records (or refreshes) the names
 * they are reported under (unchanged names are not written again), in one statement: the batch is aggregated
 * first (per subject and day, then per slot), so each day row is written once whatever the batch holds.
 * Answers how many were new.
 */
export async function insertPlays(tx: Executor, customerId: number, deviceId: string, plays: readonly PlayRow[], subjects: readonly PlaySubjectName[]): Promise<number> {
  if (plays.length === 0) return 0;
  const sums = (column: string) => sql.raw(`case when max(x.${column}) = 0 then null else array_agg(x.${column} order by x.i) end as ${column}`);
  // A counter that is 0 all day is stored as an empty array; the others get their leading zeros.
  const padded = (column: string) =>
    sql.raw(`case when x.${column} is null then '{}'::${arrayType(column)}[] else array_fill(0::${arrayType(column)}, array[x.first_slot + 1]) || x.${column} end`);
  const [row] = await execRows<{ accepted: number }>(
    tx,
    // `json`, not `jsonb`: the batch is read once, and converting ~250 kB to jsonb first cost 16–22 ms a batch of 1 000 against 6.
    sql`with incoming as (
          select * from json_to_recordset(${JSON.stringify(plays)}::json) as x(
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
          returning device_id, device_group_id, campaign_id, message_id, content_id, page_id, file_id, advertiser_id, started_at, completed, duration_ms, clicks, viewers, attention_ms
        ),
        counted as (
          select d.dimension, d.subject_id, date '1970-01-01' + i.quarter / 96 as day, i.quarter % 96 as slot, i.completed, i.duration_ms, i.clicks, i.viewers, i.attention_ms
            from (select *, floor(extract(epoch from started_at) / 900)::int as quarter from ins) i cross join lateral (values
              ('DEVICE', i.device_id::text), ('DEVICE_GROUP', i.device_group_id::text), ('CAMPAIGN', i.campaign_id::text),
              ('MESSAGE', i.message_id::text), ('CONTENT', i.content_id::text),
              ('CONTENT_PAGE', case when i.content_id is not null and i.page_id is not null then i.content_id::text || '/' || i.page_id end),
              ('MEDIA_FILE', i.file_id::text), ('ADVERTISER', i.advertiser_id::text)) d(dimension, subject_id)
           where d.subject_id is not null
        ),
        slots as materialized (
          select dimension, subject_id, day, slot, count(*)::int as starts, (count(*) filter (where completed))::int as ends,
                 sum(duration_ms)::bigint as duration_ms, sum(clicks)::int as clicks, sum(viewers)::int as viewers, sum(attention_ms)::bigint as attention_ms
            from counted group by dimension, subject_id, day, slot
        ),
        totals as (
          insert into ${playRollupDayTotals} (customer_id, dimension, subject_id, day, starts, ends, duration_ms, clicks, viewers, attention_ms)
          select ${customerId}, dimension, subject_id, day, sum(starts), sum(ends), sum(duration_ms), sum(clicks), sum(viewers), sum(attention_ms)
            from slots group by dimension, subject_id, day
          on conflict (customer_id, dimension, subject_id, day) do update set
            ${sql.raw(COUNTERS.map((c) => `${c} = play_rollup_day_total.${c} + excluded.${c}`).join(', '))}
          returning 1
        ),
        -- Per subject and day, the batch's running sums: a slot's running total (its own plays and those of the
        -- slots before it) is element i of the array for every i from slot + 2 up to the next slot with plays + 1;
        -- the elements before the first slot with plays are 0.
        cumulative as (
          select dimension, subject_id, day, slot, lead(slot, 1, 96) over w as next_slot,
                 ${sql.raw(COUNTERS.map((c) => `(sum(${c}) over w)::${arrayType(c)} as ${c}`).join(', '))}
            from slots
          window w as (partition by dimension, subject_id, day order by slot)
        ),
        running as (
          select x.dimension, x.subject_id, x.day, min(x.slot) as first_slot, ${sql.join(COUNTERS.map(sums), sql`, `)}
            from (select c.*, g.i from cumulative c cross join generate_series(c.slot + 2, c.next_slot + 1) g(i)) x
           group by x.dimension, x.subject_id, x.day
        ),
        rolled as (
          insert into ${playRollupDays} (customer_id, dimension, subject_id, day, starts, ends, duration_ms, clicks, viewers, attention_ms)
          select ${customerId}, x.dimension, x.subject_id, x.day, ${sql.join(COUNTERS.map(padded), sql`, `)} from running x
          on conflict (customer_id, dimension, subject_id, day) do update set ${addRunningSums}
          returning 1
        ),
        named as (
          insert into ${playSubjects} (customer_id, dimension, subject_id, name)
          select ${customerId}, x.dimension, x.id, x.name from jsonb_to_recordset(${JSON.stringify(subjects)}::jsonb) as x(dimension text, id text, name text)
          on conflict (customer_id, dimension, subject_id) do update set name = excluded.name, updated_at = now()
           where ${playSubjects.name} is distinct from excluded.name
          returning 1
        )
        select (select count(*) from ins)::int as accepted, (select count(*) from totals)::int as totals, (select count(*) from rolled)::int as rolled,
               (select count(*) from named)::int as named`,
  );

  return Number(row?.accepted ?? 0);
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
