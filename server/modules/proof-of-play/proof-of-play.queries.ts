import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { bigintArrayParam, execRows, unnestColumns, uuidArrayParam } from '@/server/db/sql';
import { advertisers } from '@/server/modules/advertisers/advertisers.table';
import { campaigns } from '@/server/modules/campaigns/campaigns.table';
import { deviceContents } from '@/server/modules/content/content.table';
import { devices } from '@/server/modules/devices/devices.table';
import { files } from '@/server/modules/files/files.table';
import { messages } from '@/server/modules/messages/messages.table';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { ROLLUP_COUNTERS, rollupPlays, type DayRollup, type RollupCounter } from './play-rollups';
import { playRollupDays, playRollupDayTotals, playSubjects, type PlayDimension, type PlayRow } from './proof-of-play.table';
import { SLOTS_PER_DAY } from './report-periods';

/* The statements of proof of play: the raw events (partitioned, custom SQL), the day rollups and names. */

/** What a play names, of the device's tenant, with its name (and a campaign's advertiser). */
export type PlayedItem = { dimension: PlayDimension; id: string; name: string; advertiserId: string | null; advertiserName: string | null };

/** The ids a batch of plays names, per kind. */
export type PlayedIds = {
  campaignIds: readonly number[];
  messageIds: readonly number[];
  contentIds: readonly string[];
  fileIds: readonly string[];
};

/** The device as plays record it: its name and folder, with the folder's name. */
export type PlayingDeviceRow = { name: string; deviceGroupId: string | null; folderName: string | null };

/**
 * Serialises the ingests of one device (its repeated events are recognised across concurrent calls), and
 * answers the device's name and folder (with the folder's name), as plays record them, and the campaigns,
 * messages, content and files with the given ids that are the tenant's (with a campaign's advertiser while that
 * advertiser is enabled: a disabled advertiser is not credited with what plays meanwhile): one round trip. An id not answered is another tenant's or no item at all.
 */
export async function lockPlayingDevice(
  tx: Executor,
  customerId: number,
  deviceId: string,
  ids: PlayedIds,
): Promise<{ device: PlayingDeviceRow | undefined; items: PlayedItem[] }> {
  const branches: SQL[] = [];
  const tenant = sql`${customerId}::bigint`;
  if (ids.campaignIds.length > 0) {
    branches.push(sql`select 'CAMPAIGN' as dimension, c.id::text as id, c.name, a.id::text as "advertiserId", a.name as "advertiserName"
      from ${campaigns} c left join ${advertisers} a on a.id = c.advertiser_id and a.customer_id = c.customer_id and a.enabled where c.id = any(${bigintArrayParam(ids.campaignIds)}) and c.customer_id = ${tenant}`);
  }
  if (ids.messageIds.length > 0) {
    branches.push(
      sql`select 'MESSAGE' as dimension, x.id::text as id, x.name, null::text as "advertiserId", null::text as "advertiserName" from ${messages} x where x.id = any(${bigintArrayParam(ids.messageIds)}) and x.customer_id = ${tenant}`,
    );
  }
  if (ids.contentIds.length > 0) {
    branches.push(
      sql`select 'CONTENT' as dimension, x.id::text as id, x.name, null::text as "advertiserId", null::text as "advertiserName" from ${deviceContents} x where x.id = any(${uuidArrayParam(ids.contentIds)}) and x.customer_id = ${tenant}`,
    );
  }
  if (ids.fileIds.length > 0) {
    branches.push(
      sql`select 'MEDIA_FILE' as dimension, x.id::text as id, x.name, null::text as "advertiserId", null::text as "advertiserName" from ${files} x where x.id = any(${uuidArrayParam(ids.fileIds)}) and x.customer_id = ${tenant}`,
    );
  }
  const items =
    branches.length === 0
      ? sql`'[]'::json`
      : sql`(select coalesce(json_agg(i), '[]'::json) from (${sql.join(branches, sql` union all `)}) i)`;
  const [row] = await execRows<{
    name: string | null;
    deviceGroupId: string | null;
    folderName: string | null;
    items: PlayedItem[] | string;
  }>(
    tx,
    sql`select d.name, d.device_group_id as "deviceGroupId", g.name as "folderName", ${items} as items
          from (select pg_advisory_xact_lock(hashtextextended(${`play:${deviceId}`}, 0))) lock
          left join ${devices} d on d.id = ${deviceId}::uuid
          left join ${deviceGroups} g on g.id = d.device_group_id`,
    // One text for each combination of the kinds of ids named (at most 16).
    { prepared: true },
  );
  const found = typeof row?.items === 'string' ? (JSON.parse(row.items) as PlayedItem[]) : (row?.items ?? []);

  return {
    device: row?.name == null ? undefined : { name: row.name, deviceGroupId: row.deviceGroupId, folderName: row.folderName },
    items: found,
  };
}

const COLUMNS: Record<RollupCounter, { column: string; type: 'integer' | 'bigint' }> = {
  starts: { column: 'starts', type: 'integer' },
  ends: { column: 'ends', type: 'integer' },
  durationMs: { column: 'duration_ms', type: 'bigint' },
  clicks: { column: 'clicks', type: 'integer' },
  viewers: { column: 'viewers', type: 'integer' },
  attentionMs: { column: 'attention_ms', type: 'bigint' },
};
const COUNTER_COLUMNS = ROLLUP_COUNTERS.map((c) => COLUMNS[c]);

/** A name plays are reported under (play_subject). */
export type PlaySubjectName = { dimension: PlayDimension; id: string; name: string };

/** The batch of the rows an ingest adds: its transaction's id (an ingest adds a key's rows once). */
const INGEST_BATCH = sql`txid_current()`;

/**
 * The statements' parts that add day rollups (`rollupPlays`) as new rows of the day totals and the quarter-hour
 * running sums (batch: the transaction; merged later by `compactPlayRollups`), as CTEs `rollup`, `totals` and
 * `rolled`; `when` gates them (a condition on the rest of the statement).
 */
/**
 * Per counter, the running sums of `rollups` bound as one flat array, each row's at its 1-based offset (`offsets`;
 * null: the counter is 0 all day), and `slice`, the row's array read back from it by the column `<counter>_at`:
 * one array of numbers to bind, not an array of array texts (parsed twice).
 */
function flatRunningSums(rollups: readonly Pick<DayRollup, 'runningSums'>[]) {
  return COUNTER_COLUMNS.map(({ column, type }, c) => {
    const counter = ROLLUP_COUNTERS[c]!;
    const parts: string[] = [];
    const offsets: (number | null)[] = [];
    let next = 1;
    for (const rollup of rollups) {
      const sums = rollup.runningSums[counter];
      if (sums === null) offsets.push(null);
      else {
        offsets.push(next);
        next += sums.length;
        parts.push(sums.join(',')); // integers summed here
      }
    }
    const at = sql.raw(`${column}_at`);
    const slice =
      parts.length === 0
        ? sql`'{}'::${sql.raw(type)}[]`
        : sql`coalesce((${`{${parts.join(',')}}`}::${sql.raw(type)}[])[${at} : ${at} + ${SLOTS_PER_DAY}], '{}')`;

    return { offsets, slice };
  });
}

function rollupCtes(customerId: number, rollups: readonly DayRollup[], when: SQL = sql`true`): SQL {
  const runningSums = flatRunningSums(rollups);
  const rows = unnestColumns('x', rollups.length, {
    dimension: { type: 'text', values: rollups.map((r) => r.dimension) },
    subject_id: { type: 'text', values: rollups.map((r) => r.subjectId) },
    day: { type: 'date', values: rollups.map((r) => r.day) },
    ...Object.fromEntries(
      COUNTER_COLUMNS.map(({ column, type }, c) => [column, { type, values: rollups.map((r) => r.totals[ROLLUP_COUNTERS[c]!]) }]),
    ),
    ...Object.fromEntries(
      COUNTER_COLUMNS.map(({ column }, c) => [`${column}_at`, { type: 'integer' as const, values: runningSums[c]!.offsets }]),
    ),
  });
  const columns = sql.raw(COUNTER_COLUMNS.map((c) => c.column).join(', '));

  return sql`rollup as (
          select ${customerId}::bigint as customer_id, ${rows.list}
            from ${rows.from}
           where ${when}
        ),
        totals as (
          insert into ${playRollupDayTotals} (customer_id, dimension, subject_id, day, batch, ${columns})
          select customer_id, dimension, subject_id, day, ${INGEST_BATCH}, ${columns} from rollup
          returning 1
        ),
        rolled as (
          insert into ${playRollupDays} (customer_id, dimension, subject_id, day, batch, ${columns})
          select customer_id, dimension, subject_id, day, ${INGEST_BATCH}, ${sql.join(
            runningSums.map((r) => r.slice),
            sql`, `,
          )}
            from rollup
          returning 1
        )`;
}

/**
 * The stored running sums plus the merged ones, element by element, a counter at a time: two set-returning
 * functions in one select list run in step, element for element (PostgreSQL 10+). An empty array (a counter
 * that stayed 0 all day) takes the other side as it is.
 */
const addRunningSums = sql.raw(
  COUNTER_COLUMNS.map(
    ({
      column: c,
    }) => `${c} = case when cardinality(excluded.${c}) = 0 then play_rollup_day.${c} when cardinality(play_rollup_day.${c}) = 0 then excluded.${c}
      else array(select unnest(play_rollup_day.${c}) + unnest(excluded.${c})) end`,
  ).join(', '),
);

/**
 * The oldest ingest rows of a rollup table (at most `limit`), deleted, as CTEs `picked` and `gone`: each found by
 * its whole primary key, whatever the planner thinks of the CTE's size. Other ingest rows of their keys wait for
 * the next round (the counts are the sum of a key's rows, however they are split).
 */
function takeIngestRows(table: typeof playRollupDays | typeof playRollupDayTotals, limit: number): SQL {
  return sql`picked as (select customer_id, dimension, subject_id, day, batch from ${table} where batch <> 0 order by batch limit ${limit}),
        gone as (
          delete from ${table} r using picked p
           where r.customer_id = p.customer_id and r.dimension = p.dimension and r.subject_id = p.subject_id and r.day = p.day and r.batch = p.batch
          returning r.*
        )`;
}

/**
 * Merges the oldest rows the ingests added (at most `limit` a table) into their keys' rows of batch 0, in one
 * transaction, a statement a table: the day totals added, the running sums added element by element. Each
 * statement is atomic, so a report counts every play once before, during and after; rows an ingest adds meanwhile
 * stay for the next round. Answers how many rows were merged, and whether a table had more (call again).
 */
export async function compactPlayRollups(db: Executor, limit = 2_000): Promise<{ merged: number; more: boolean }> {
  return withTransaction(db, (tx) => mergeIngestRows(tx, limit));
}

async function mergeIngestRows(db: Executor, limit: number): Promise<{ merged: number; more: boolean }> {
  const columns = sql.raw(COUNTER_COLUMNS.map((c) => c.column).join(', '));
  const [totals] = await execRows<{ picked: number; merged: number }>(
    db,
    sql`with ${takeIngestRows(playRollupDayTotals, limit)},
        merged as (
          insert into ${playRollupDayTotals} (customer_id, dimension, subject_id, day, batch, ${columns})
          select customer_id, dimension, subject_id, day, 0, ${sql.raw(COUNTER_COLUMNS.map(({ column: c, type }) => `sum(${c})::${type}`).join(', '))}
            from gone group by customer_id, dimension, subject_id, day
          on conflict (customer_id, dimension, subject_id, day, batch) do update set
            ${sql.raw(COUNTER_COLUMNS.map(({ column: c }) => `${c} = play_rollup_day_total.${c} + excluded.${c}`).join(', '))}
          returning 1
        )
        select (select count(*) from picked)::int as picked, (select count(*) from gone)::int as merged, (select count(*) from merged)::int as keys`,
  );
  // The running sums: the deleted rows come back as text (one number list a counter), are added element by element
  // here, a key at a time, and the sums added to the keys' rows of batch 0 (the ingest's flat binding). Summing
  // them in SQL (each row unnested into its 97 elements, grouped by key and element) took ~4× as long.
  const gone = await execRows<Record<'customerId' | 'dimension' | 'subjectId' | 'day', string> & Record<string, string>>(
    db,
    sql`with ${takeIngestRows(playRollupDays, limit)}
        select customer_id::text as "customerId", dimension, subject_id as "subjectId", day::text as day,
               ${sql.raw(COUNTER_COLUMNS.map(({ column: c }) => `array_to_string(${c}, ',') as ${c}`).join(', '))}
          from gone`,
  );
  const merged = new Map<
    string,
    { customerId: string; dimension: string; subjectId: string; day: string; runningSums: Record<RollupCounter, number[] | null> }
  >();
  for (const row of gone) {
    const key = `${row.customerId}|${row.dimension}|${row.day}|${row.subjectId}`;
    let into = merged.get(key);
    if (into === undefined) {
      into = {
        customerId: row.customerId,
        dimension: row.dimension,
        subjectId: row.subjectId,
        day: row.day,
        runningSums: { starts: null, ends: null, durationMs: null, clicks: null, viewers: null, attentionMs: null },
      };
      merged.set(key, into);
    }
    COUNTER_COLUMNS.forEach(({ column }, c) => {
      const text = row[column];
      if (!text) return; // 0 all day
      const values = text.split(',').map(Number);
      const counter = ROLLUP_COUNTERS[c]!;
      const sums = into.runningSums[counter];
      if (sums === null) into.runningSums[counter] = values;
      else for (let i = 0; i < sums.length; i++) sums[i]! += values[i]!;
    });
  }
  if (merged.size > 0) {
    const keys = [...merged.values()];
    const runningSums = flatRunningSums(keys);
    const rows = unnestColumns('x', keys.length, {
      customer_id: { type: 'bigint', values: keys.map((k) => Number(k.customerId)) },
      dimension: { type: 'text', values: keys.map((k) => k.dimension) },
      subject_id: { type: 'text', values: keys.map((k) => k.subjectId) },
      day: { type: 'date', values: keys.map((k) => k.day) },
      ...Object.fromEntries(
        COUNTER_COLUMNS.map(({ column }, c) => [`${column}_at`, { type: 'integer' as const, values: runningSums[c]!.offsets }]),
      ),
    });
    await execRows(
      db,
      sql`insert into ${playRollupDays} (customer_id, dimension, subject_id, day, batch, ${columns})
          select customer_id, dimension, subject_id, day, 0, ${sql.join(
            runningSums.map((r) => r.slice),
            sql`, `,
          )}
            from (select ${rows.list} from ${rows.from}) x
          on conflict (customer_id, dimension, subject_id, day, batch) do update set ${addRunningSums}`,
    );
  }

  return { merged: Number(totals?.merged ?? 0) + gone.length, more: Number(totals?.picked ?? 0) >= limit || gone.length >= limit };
}

/**
 * Stores the plays of one device whose event ids it has not reported before (in any month: `play_event`'s key
 * carries `started_at`, so `play_event_reported` probes the key index of each monthly partition the device has
 * plays in; the caller holds the device's lock, so a concurrent call of the device has stored its events or
 * waits for these), adds their day totals and quarter-hour running sums of every dimension they name
 * (`rollupPlays`, computed here) as new rows, and records the names of the subjects new to proof of play (a
 * kept name follows its item's renames by trigger, server/db/custom-sql/play_subject_renames.sql: the name an
 * ingest read before a concurrent rename must not overwrite the new one). One statement when
 * every play is new (the usual case); when some were reported before, that statement leaves the rollups out
 * and a second adds those of the plays it stored. Every input is bound as arrays read in step (`unnest`):
 * parsing a JSON document of the batch cost more. Answers how many plays were stored and how many were not.
 */
export async function insertPlays(
  tx: Executor,
  customerId: number,
  deviceId: string,
  plays: readonly PlayRow[],
  subjects: readonly PlaySubjectName[],
): Promise<{ stored: number; reported: number }> {
  if (plays.length === 0) return { stored: 0, reported: 0 };
  const column = <K extends keyof PlayRow>(key: K) => plays.map((p) => p[key]);
  const ids = column('eventId');
  const eventIds = uuidArrayParam(ids);
  const rows = unnestColumns('x', plays.length, {
    event_id: { type: 'uuid', values: ids, array: eventIds },
    started_at: { type: 'bigint', values: column('startedAt') },
    ended_at: { type: 'bigint', values: column('endedAt') },
    completed: { type: 'boolean', values: column('completed') },
    device_group_id: { type: 'uuid', values: column('deviceGroupId') },
    campaign_id: { type: 'bigint', values: column('campaignId') },
    message_id: { type: 'bigint', values: column('messageId') },
    content_id: { type: 'uuid', values: column('contentId') },
    page_id: { type: 'text', values: column('pageId') },
    widget_key: { type: 'text', values: column('widgetKey') },
    file_id: { type: 'uuid', values: column('fileId') },
    advertiser_id: { type: 'uuid', values: column('advertiserId') },
    clicks: { type: 'integer', values: column('clicks') },
    viewers: { type: 'integer', values: column('viewers') },
    attention_ms: { type: 'bigint', values: column('attentionMs') },
  });
  const x = rows.column;
  const names = unnestColumns('s', subjects.length, {
    dimension: { type: 'text', values: subjects.map((s) => s.dimension) },
    id: { type: 'text', values: subjects.map((s) => s.id) },
    name: { type: 'text', values: subjects.map((s) => s.name) },
  });
  const [row] = await execRows<{ stored: number; reported: string[] | null }>(
    tx,
    sql`with reported as materialized (select r.event_id from play_event_reported(${customerId}::bigint, ${deviceId}::uuid, ${eventIds}) as r(event_id)),
        ins as (
          insert into play_event (customer_id, device_id, event_id, started_at, ended_at, duration_ms, completed, device_group_id, campaign_id, message_id,
                                  content_id, page_id, widget_key, file_id, advertiser_id, clicks, viewers, attention_ms)
          select ${customerId}, ${deviceId}::uuid, ${x.event_id}, to_timestamp(${x.started_at} / 1000.0), to_timestamp(${x.ended_at} / 1000.0), ${x.ended_at} - ${x.started_at}, ${x.completed},
                 ${x.device_group_id}, ${x.campaign_id}, ${x.message_id}, ${x.content_id}, ${x.page_id}, ${x.widget_key}, ${x.file_id}, ${x.advertiser_id}, ${x.clicks}, ${x.viewers}, ${x.attention_ms}
            from ${rows.from}
           where ${x.event_id} not in (select event_id from reported)
          returning 1
        ),
        ${rollupCtes(customerId, rollupPlays(deviceId, plays), sql`not exists (select 1 from reported)`)},
        named as (
          insert into ${playSubjects} (customer_id, dimension, subject_id, name)
          select ${customerId}, n.dimension, n.id, n.name from (select ${names.list} from ${names.from}) n
          on conflict (customer_id, dimension, subject_id) do nothing
          returning 1
        )
        select (select count(*) from ins)::int as stored, (select array_agg(event_id::text) from reported) as reported,
               (select count(*) from totals)::int as totals, (select count(*) from rolled)::int as rolled, (select count(*) from named)::int as named`,
    // Not prepared: the text depends on the batch (a column whose values are all the same is one value).
  );
  const reported = new Set(row?.reported ?? []);
  if (reported.size === 0) return { stored: Number(row?.stored ?? 0), reported: 0 };
  const stored = plays.filter((p) => !reported.has(p.eventId.toLowerCase()));
  if (stored.length > 0) {
    await execRows(
      tx,
      sql`with ${rollupCtes(customerId, rollupPlays(deviceId, stored))} select (select count(*) from totals)::int as totals, (select count(*) from rolled)::int as rolled`,
    );
  }

  return { stored: stored.length, reported: reported.size };
}
