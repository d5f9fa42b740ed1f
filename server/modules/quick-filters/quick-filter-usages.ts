import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows } from '@/server/db/sql';
import { definePlugPoint, lazySql } from '@/server/plug-point';

/**
 * The one place that knows who uses a quick filter. Each module that references quick filters (filtered
 * file folders today; campaigns, messages and datasources later) lists one kind in its manifest
 * (`quickFilterUsages`); the delete guard, `readOnly` and the usage fields all go through this point.
 */

export type QuickFilterUsageField = 'campaignUsageDetails' | 'messageUsageDetails';

export type QuickFilterUsageKind = {
  /** e.g. `fileFolder`, `campaign`: names the kind in errors. */
  name: string;
  /** A bigint/integer SQL expression: how many rows of this kind reference the filter whose id is `quickFilterId`. */
  count: (quickFilterId: SQL) => SQL;
  /** Refuse deleting the filter while referenced (spec 1 errors). */
  blocksDelete: boolean;
  /** Channels and sub-channels make the filter `readOnly` (spec 3). */
  makesReadOnly: boolean;
  /** The select-only field this kind contributes a jsonb array of `{id, name, …}` entries to. */
  usageField?: QuickFilterUsageField;
  usage?: (quickFilterId: SQL) => SQL;
};

export const quickFilterUsages = definePlugPoint<QuickFilterUsageKind>('quickFilterUsages', (k) => k.name);

/** True (SQL) when a channel-like kind uses the filter `quickFilterId`. */
export function usedByChannelsSql(quickFilterId: SQL): SQL {
  return lazySql(() => {
    const parts = quickFilterUsages
      .items()
      .filter((k) => k.makesReadOnly)
      .map((k) => sql`(${k.count(quickFilterId)}) > 0`);

    return parts.length === 0 ? sql`false` : sql`(${sql.join(parts, sql` or `)})`;
  });
}

/** The jsonb array of `field` usages of the filter (`[]` while no kind contributes). */
export function quickFilterUsageSql(field: QuickFilterUsageField, quickFilterId: SQL): SQL {
  return lazySql(() => {
    const parts = quickFilterUsages
      .items()
      .filter((k) => k.usageField === field && k.usage)
      .map((k) => sql`coalesce(${k.usage!(quickFilterId)}, '[]'::jsonb)`);

    return parts.length === 0 ? sql`'[]'::jsonb` : sql.join(parts, sql` || `);
  });
}

export type QuickFilterBlocker = { kind: string; count: number };

/** The kinds that keep the filter from being deleted, with their counts (empty: free to delete). */
export async function quickFilterDeletionBlockers(tx: Executor, quickFilterId: string): Promise<QuickFilterBlocker[]> {
  const blocking = quickFilterUsages.items().filter((k) => k.blocksDelete);
  if (blocking.length === 0) return [];
  const id = sql`${quickFilterId}::uuid`;
  const columns = sql.join(
    blocking.map((k, i) => sql`(${k.count(id)})::bigint as ${sql.identifier(`c${i}`)}`),
    sql`, `,
  );
  const [row = {}] = await execRows(tx, sql`select ${columns}`);

  return blocking.map((k, i) => ({ kind: k.name, count: Number(row[`c${i}`] ?? 0) })).filter((b) => b.count > 0);
}
