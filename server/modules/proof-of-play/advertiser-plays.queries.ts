import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows } from '@/server/db/sql';
import type { AdvertiserPlay, AdvertiserPlaySummary } from '@/server/modules/advertisers';
import { playSubjects, type PlayDimension } from './proof-of-play.table';

/* An advertiser's plays, read from play_event's advertiser index: the CSV history and the public page's sums. */

/**
 * A page of an advertiser's plays for its CSV history: newest first (start, then device and event id
 * descending, so plays of one instant page stably), after `after` (keyset), with the names kept for them.
 * Reads the advertiser index of each monthly partition.
 */
export async function findAdvertiserPlays(
  db: Executor,
  input: { customerId: number; advertiserId: string; after?: { startedAt: Date; deviceId: string; eventId: string }; limit: number },
): Promise<AdvertiserPlay[]> {
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

/**
 * An advertiser's plays over [from, to) summed for its public page: the totals, per UTC day and per screen (the
 * 100 screens with most plays), as the CSV would add them up. Three aggregates over the advertiser index.
 */
export async function summarizeAdvertiserPlays(
  db: Executor,
  input: { customerId: number; advertiserId: string; from: Date; to: Date },
): Promise<AdvertiserPlaySummary> {
  const where = sql`e.advertiser_id = ${input.advertiserId}::uuid and e.customer_id = ${input.customerId}
    and e.started_at >= ${input.from.toISOString()}::timestamptz and e.started_at < ${input.to.toISOString()}::timestamptz`;
  type Sums = { plays: string | number; durationMs: string | number | null };
  const [total] = await execRows<Sums & { screens: string | number }>(
    db,
    sql`select count(*) as plays, coalesce(sum(e.duration_ms), 0) as "durationMs", count(distinct e.device_id) as screens from play_event e where ${where}`,
  );
  const days = await execRows<Sums & { day: string }>(
    db,
    sql`select to_char(date_trunc('day', e.started_at at time zone 'UTC'), 'YYYY-MM-DD') as day, count(*) as plays, coalesce(sum(e.duration_ms), 0) as "durationMs"
          from play_event e where ${where} group by 1 order by 1 desc`,
  );
  const screens = await execRows<Sums & { deviceName: string | null }>(
    db,
    sql`select s.name as "deviceName", t.plays, t."durationMs"
          from (select e.device_id, count(*) as plays, coalesce(sum(e.duration_ms), 0) as "durationMs" from play_event e where ${where}
                 group by e.device_id order by count(*) desc, e.device_id limit 100) t
          left join ${playSubjects} s on s.customer_id = ${input.customerId} and s.dimension = 'DEVICE' and s.subject_id = t.device_id::text
         order by t.plays desc, s.name`,
  );
  const sums = (r: Sums) => ({ plays: Number(r.plays), durationMs: Number(r.durationMs ?? 0) });

  return {
    total: { ...sums(total ?? { plays: 0, durationMs: 0 }), screens: Number(total?.screens ?? 0) },
    days: days.map((r) => ({ day: r.day, ...sums(r) })),
    screens: screens.map((r) => ({ deviceName: r.deviceName, ...sums(r) })),
  };
}
