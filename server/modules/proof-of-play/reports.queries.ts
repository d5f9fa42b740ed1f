import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows } from '@/server/db/sql';
import type { Actor } from '@/server/context/actor';
import { advertisers } from '@/server/modules/advertisers/advertisers.table';
import { campaigns } from '@/server/modules/campaigns/campaigns.table';
import { deviceContents } from '@/server/modules/content/content.table';
import { devices } from '@/server/modules/devices/devices.table';
import { files } from '@/server/modules/files/files.table';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { messages } from '@/server/modules/messages/messages.table';
import { teamAccessCondition } from '@/server/modules/teams';
import { SLOTS_PER_DAY, type DaySlice } from './report-periods';
import { playRollupDays, playRollupDayTotals, playSubjects, type PlayDimension } from './proof-of-play.table';

/*
 * The statements of the proof-of-display reports. Two sources:
 * - the day rollups, when a report counts one dimension (all its subjects, or one): per period, the days it
 *   covers whole are read from the narrow day totals (`play_rollup_day_total`), and the days it covers in part
 *   from the quarter-hour running sums (`play_rollup_day`: a run of slots is `sums[toSlot + 1] - sums[fromSlot + 1]`),
 *   summed per subject. The periods are counted one after another in order (a lateral subquery a period), so
 *   with the default order (period, then name) the statement stops once `limit` rows are out;
 * - the raw plays (`play_event`), when a report filters by one entity and counts another dimension (a device's
 *   plays by content) or counts what rollups do not keep (ASSET): the plays of the window, bucketed into the
 *   periods by their start (`width_bucket` over the period starts), grouped and counted.
 * Both answer one row per period and subject with the subject's last known name; search, order and limit
 * run in the same statement.
 */

type Caller = { actor: Actor };

/** What a report row counts, as the statements answer it (the period by its index). */
export type ReportCounts = {
  period: number;
  subjectId: string;
  name: string;
  starts: number;
  ends: number;
  durationMs: number;
  clicks: number;
  viewers: number;
  attentionMs: number;
};

/** A report's grouping as the statements see it: a rollup dimension, ASSET (the file shown, else the content) or WIDGET (the slide widget). */
export type CountedDimension = PlayDimension | 'ASSET' | 'WIDGET';

/** The groupings counted from the raw plays only (no rollup keeps them). */
export const EVENT_ONLY_DIMENSIONS: readonly CountedDimension[] = ['ASSET', 'WIDGET'];

/** The WIDGET group of the plays that name no widget (spec 4 §5): id `''`, which no widget key can be (at least one character). */
const WHOLE_PAGE = { id: '', name: '(whole page)' } as const;

/** Row order: keys over the answered columns (`period`, `name`, counters), then name and id for stability. */
export type ReportOrder = readonly {
  column: 'period' | 'name' | 'starts' | 'ends' | 'duration_ms' | 'clicks' | 'viewers' | 'attention_ms';
  descending: boolean;
}[];

export type ReportFilter = {
  customerId: number;
  search?: string;
  order: ReportOrder;
  limit: number;
};

/** The play_event column (or expression) of each dimension. */
const EVENT_SUBJECT: Record<CountedDimension, SQL> = {
  DEVICE: sql`e.device_id::text`,
  DEVICE_GROUP: sql`e.device_group_id::text`,
  CAMPAIGN: sql`e.campaign_id::text`,
  MESSAGE: sql`e.message_id::text`,
  CONTENT: sql`e.content_id::text`,
  CONTENT_PAGE: sql`case when e.content_id is not null and e.page_id is not null then e.content_id::text || '/' || e.page_id end`,
  MEDIA_FILE: sql`e.file_id::text`,
  ADVERTISER: sql`e.advertiser_id::text`,
  ASSET: sql`coalesce(e.file_id::text, e.content_id::text)`,
  WIDGET: sql`coalesce(e.widget_key, ${WHOLE_PAGE.id})`,
};

/** `play_event.<column> = id` for the entities a report filters by (each has an index on customer, column, start). */
const EVENT_FILTER: Partial<Record<PlayDimension, (id: string) => SQL>> = {
  DEVICE: (id) => sql`e.device_id = ${id}::uuid`,
  CONTENT: (id) => sql`e.content_id = ${id}::uuid`,
  MEDIA_FILE: (id) => sql`e.file_id = ${id}::uuid`,
  CAMPAIGN: (id) => sql`e.campaign_id = ${id}::bigint`,
  MESSAGE: (id) => sql`e.message_id = ${id}::bigint`,
};

/** A join of the kept names of `dimension` on `key`, as `alias` (one hash or index join for all rows, not a lookup a row). */
const namesJoin = (alias: string, customerId: number, dimension: PlayDimension, key: SQL) =>
  sql`left join ${playSubjects} ${sql.raw(alias)} on ${sql.raw(alias)}.customer_id = ${customerId} and ${sql.raw(alias)}.dimension = ${dimension} and ${sql.raw(alias)}.subject_id = ${key}`;

/**
 * The name a subject is reported under: its kept name (play_subject); a content page as `<content> / <page>`; a
 * widget as its key, "(whole page)" for plays without one; else its id.
 */
function naming(customerId: number, dimension: CountedDimension, subject: SQL): { joins: SQL; name: SQL } {
  switch (dimension) {
    case 'CONTENT_PAGE': {
      const content = sql`split_part(${subject}, '/', 1)`;

      return {
        joins: namesJoin('n1', customerId, 'CONTENT', content),
        name: sql`coalesce(n1.name, ${content}) || ' / ' || substr(${subject}, strpos(${subject}, '/') + 1)`,
      };
    }
    case 'WIDGET':
      return { joins: sql``, name: sql`case when ${subject} = ${WHOLE_PAGE.id} then ${WHOLE_PAGE.name} else ${subject} end` };
    case 'ASSET':
      return {
        joins: sql`${namesJoin('n1', customerId, 'MEDIA_FILE', subject)} ${namesJoin('n2', customerId, 'CONTENT', subject)}`,
        name: sql`coalesce(n1.name, n2.name, ${subject})`,
      };
    default:
      return { joins: namesJoin('n1', customerId, dimension, subject), name: sql`coalesce(n1.name, ${subject})` };
  }
}

/** The outer part both sources share: names, search, order, limit over `counted` (after the common tables `ctes`). */
function namedRows(filter: ReportFilter, dimension: CountedDimension, counted: SQL, ctes?: SQL): SQL {
  const search = filter.search ? sql`where r.name ilike ${`%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : sql``;
  const keys = [
    ...filter.order.map((key) => sql.raw(`r.${key.column} ${key.descending ? 'desc' : 'asc'}`)),
    sql`r.period asc`,
    sql`r.name asc`,
    sql`r."subjectId" asc`,
  ];
  const { joins, name } = naming(filter.customerId, dimension, sql`c."subjectId"`);

  return sql`with ${ctes ? sql`${ctes}, ` : sql``}counted as (${counted})
    select r.* from (select c.period, c."subjectId", ${name} as name, c.starts, c.ends, c.duration_ms, c.clicks, c.viewers, c.attention_ms
                       from counted c ${joins}) r
    ${search}
    order by ${sql.join(keys, sql`, `)}
    limit ${filter.limit}`;
}

type RawCounts = Omit<ReportCounts, 'durationMs' | 'attentionMs'> & { duration_ms: number; attention_ms: number };
const toCounts = (rows: RawCounts[]): ReportCounts[] =>
  rows.map(({ duration_ms, attention_ms, ...r }) => ({
    ...r,
    period: Number(r.period),
    durationMs: Number(duration_ms),
    attentionMs: Number(attention_ms),
    starts: Number(r.starts),
    ends: Number(r.ends),
    clicks: Number(r.clicks),
    viewers: Number(r.viewers),
  }));

const arrayLiteral = (values: readonly (string | number)[]) => `{${values.join(',')}}`;

/**
 * From the day rollups: the counts of `dimension` (one subject, or all) per period, the periods given as day
 * slices. Reads only the rows of the slices' days (the primary keys, or the dimension-day indexes).
 */
export async function findRollupReport(
  db: Executor,
  input: ReportFilter & { dimension: PlayDimension; subjectId?: string; slices: readonly DaySlice[]; firstDay: string; lastDay: string },
): Promise<ReportCounts[]> {
  if (input.slices.length === 0) return [];
  const periods = Math.max(...input.slices.map((s) => s.period)) + 1;
  const key = (alias: string) =>
    sql`${sql.raw(alias)}.customer_id = ${input.customerId} and ${sql.raw(alias)}.dimension = ${input.dimension} and ${sql.raw(alias)}.day = s.day
        ${input.subjectId === undefined ? sql`` : sql`and ${sql.raw(alias)}.subject_id = ${input.subjectId}`}`;
  const columns = ['starts', 'ends', 'duration_ms', 'clicks', 'viewers', 'attention_ms'] as const;
  // An empty array is a counter that was 0 all day: its elements are null.
  const run = (column: string) => sql.raw(`coalesce(r.${column}[s.to_slot + 1] - r.${column}[s.from_slot + 1], 0)`);
  const slices = sql`slices as materialized (
    select s.*, s.from_slot = 0 and s.to_slot = ${SLOTS_PER_DAY} as whole
      from unnest(${arrayLiteral(input.slices.map((s) => s.day))}::date[], ${arrayLiteral(input.slices.map((s) => s.period))}::int[],
                  ${arrayLiteral(input.slices.map((s) => s.fromSlot))}::int[], ${arrayLiteral(input.slices.map((s) => s.toSlot))}::int[])
           as s(day, period, from_slot, to_slot)
     where s.day between ${input.firstDay}::date and ${input.lastDay}::date)`;
  const counted = sql`
    select p.period, x."subjectId", x.starts, x.ends, x.duration_ms, x.clicks, x.viewers, x.attention_ms
      from (select g.period from generate_series(0, ${periods - 1}::int) g(period) order by g.period) p
      cross join lateral (
        select y."subjectId", sum(y.starts)::float8 as starts, sum(y.ends)::float8 as ends, sum(y.duration_ms)::float8 as duration_ms,
               sum(y.clicks)::float8 as clicks, sum(y.viewers)::float8 as viewers, sum(y.attention_ms)::float8 as attention_ms
          from (select t.subject_id as "subjectId", ${sql.raw(columns.map((c) => `t.${c}`).join(', '))}
                  from slices s join ${playRollupDayTotals} t on ${key('t')}
                 where s.period = p.period and s.whole
                union all
                select r.subject_id, ${sql.join(columns.map(run), sql`, `)}
                  from slices s join ${playRollupDays} r on ${key('r')}
                 where s.period = p.period and not s.whole) y
         group by y."subjectId"
        having sum(y.starts) > 0) x`;

  return toCounts(await execRows<RawCounts>(db, namedRows(input, input.dimension, counted, slices)));
}

/** Narrowing of the raw plays beyond the path's entity (query extensions): a device folder's subtree, an advertiser. */
export type PlayNarrowing = { deviceGroupId?: string; advertiserId?: string };

function narrowingConditions(customerId: number, narrow: PlayNarrowing | undefined): SQL {
  const conditions: SQL[] = [];
  if (narrow?.deviceGroupId) {
    conditions.push(
      sql`e.device_group_id in (select g.id from ${deviceGroups} g where g.customer_id = ${customerId} and g.path @> array[${narrow.deviceGroupId}::uuid])`,
    );
  }
  if (narrow?.advertiserId) conditions.push(sql`e.advertiser_id = ${narrow.advertiserId}::uuid`);

  return conditions.length === 0 ? sql`` : sql`and ${sql.join(conditions, sql` and `)}`;
}

/** Whether the narrowing names a device folder and an advertiser of the tenant (another tenant's, or none, is unknown). */
export async function narrowingExists(
  db: Executor,
  customerId: number,
  narrow: PlayNarrowing,
): Promise<{ deviceGroup: boolean; advertiser: boolean }> {
  const [row] = await execRows<{ deviceGroup: boolean; advertiser: boolean }>(
    db,
    sql`select ${narrow.deviceGroupId ? sql`exists(select 1 from ${deviceGroups} g where g.id = ${narrow.deviceGroupId}::uuid and g.customer_id = ${customerId})` : sql`true`} as "deviceGroup",
               ${narrow.advertiserId ? sql`exists(select 1 from ${advertisers} a where a.id = ${narrow.advertiserId}::uuid and a.customer_id = ${customerId})` : sql`true`} as advertiser`,
  );

  return row ?? { deviceGroup: false, advertiser: false };
}

/**
 * From the raw plays: the plays of [from, to) (of one entity when `entity` is given, narrowed by `narrow`),
 * counted by `dimension` per period; `periodStarts` are the periods' starts in order (the first is `from`).
 */
export async function findEventReport(
  db: Executor,
  input: ReportFilter & {
    dimension: CountedDimension;
    entity?: { dimension: PlayDimension; id: string };
    narrow?: PlayNarrowing;
    periodStarts: readonly number[];
    from: number;
    to: number;
  },
): Promise<ReportCounts[]> {
  if (input.periodStarts.length === 0) return [];
  const subject = EVENT_SUBJECT[input.dimension];
  const entityFilter = input.entity ? EVENT_FILTER[input.entity.dimension] : undefined;
  if (input.entity && !entityFilter) throw new Error(`no play_event filter for ${input.entity.dimension}`);
  const counted = sql`
    select width_bucket(extract(epoch from e.started_at) * 1000, ${arrayLiteral(input.periodStarts)}::float8[]) - 1 as period, ${subject} as "subjectId",
           count(*)::float8 as starts, (count(*) filter (where e.completed))::float8 as ends, sum(e.duration_ms)::float8 as duration_ms,
           sum(e.clicks)::float8 as clicks, sum(e.viewers)::float8 as viewers, sum(e.attention_ms)::float8 as attention_ms
      from play_event e
     where e.customer_id = ${input.customerId}
       and e.started_at >= to_timestamp(${input.from / 1000}) and e.started_at < to_timestamp(${input.to / 1000})
       ${entityFilter && input.entity ? sql`and ${entityFilter(input.entity.id)}` : sql``}
       ${narrowingConditions(input.customerId, input.narrow)}
       and ${subject} is not null
     group by 1, 2`;

  return toCounts(await execRows<RawCounts>(db, namedRows(input, input.dimension, counted)));
}

/** The live table, id and team rule of each entity a report can name in its path. */
function liveEntity(ctx: Caller, dimension: PlayDimension, id: string, customerId: number): SQL | undefined {
  const visible = (condition: SQL | undefined) => condition ?? sql`true`;
  switch (dimension) {
    case 'DEVICE':
      return sql`select 1 from ${devices} where ${devices.id} = ${id}::uuid and ${devices.customerId} = ${customerId} and ${visible(teamAccessCondition(ctx, 'device', devices.id))}`;
    case 'CONTENT':
      return sql`select 1 from ${deviceContents} where ${deviceContents.id} = ${id}::uuid and ${deviceContents.customerId} = ${customerId} and ${visible(teamAccessCondition(ctx, 'deviceContent', deviceContents.id))}`;
    case 'MEDIA_FILE':
      return sql`select 1 from ${files} where ${files.id} = ${id}::uuid and ${files.customerId} = ${customerId} and ${visible(teamAccessCondition(ctx, 'file', files.id))}`;
    case 'CAMPAIGN':
      return sql`select 1 from ${campaigns} where ${campaigns.id} = ${id}::bigint and ${campaigns.customerId} = ${customerId} and ${visible(teamAccessCondition(ctx, 'campaign', campaigns.id))}`;
    case 'MESSAGE':
      return sql`select 1 from ${messages} where ${messages.id} = ${id}::bigint and ${messages.customerId} = ${customerId} and ${visible(teamAccessCondition(ctx, 'messageGroup', messages.messageGroupId))}`;
    default:
      return undefined;
  }
}

/** The same entity in the tenant whatever the caller's teams (a live row hides the kept name behind its teams). */
function liveInTenant(dimension: PlayDimension, id: string, customerId: number): SQL {
  const table = { DEVICE: devices, CONTENT: deviceContents, MEDIA_FILE: files, CAMPAIGN: campaigns, MESSAGE: messages }[
    dimension as 'DEVICE'
  ];
  const cast = dimension === 'CAMPAIGN' || dimension === 'MESSAGE' ? sql`bigint` : sql`uuid`;

  return sql`select 1 from ${table} where ${table.id} = ${id}::${cast} and ${table.customerId} = ${customerId}`;
}

/**
 * Whether the caller may report on an entity of the tenant: it exists there and the caller's teams see it,
 * or it is gone and plays of it were kept (its name in play_subject).
 */
export async function isReportableEntity(
  db: Executor,
  ctx: Caller,
  entity: { dimension: PlayDimension; id: string },
  customerId: number,
): Promise<boolean> {
  const live = liveEntity(ctx, entity.dimension, entity.id, customerId);
  if (!live) return false;
  const [row] = await execRows<{ found: boolean }>(
    db,
    sql`select exists(${live})
            or (not exists(${liveInTenant(entity.dimension, entity.id, customerId)})
                and exists(select 1 from ${playSubjects} n where n.customer_id = ${customerId} and n.dimension = ${entity.dimension} and n.subject_id = ${entity.id})) as found`,
  );

  return row?.found === true;
}
