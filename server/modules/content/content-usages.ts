import { sql, type SQL } from 'drizzle-orm';
import { definePlugPoint, lazySql } from '@/server/plug-point';

/*
 * Where channels, schedules and sub-channels tell that they play content or a content folder
 * (`campaignUsageDetails`, `topLevelCampaignUsageDetails`, `messageUsageDetails` of spec 2 "Content" and
 * "Content folder"), without this module naming them. SQL over the item's row, so a page stays one statement.
 */

export type ContentUsageField = 'campaignUsageDetails' | 'topLevelCampaignUsageDetails' | 'messageUsageDetails';

export type ContentUsageKind = {
  /** e.g. `campaign`: names the kind. */
  name: string;
  /** What is used: a content item, or a content folder. */
  target: 'content' | 'contentGroup';
  usageField: ContentUsageField;
  /** A jsonb array of usage entries (`[{id, name, …}]`) for the item or folder whose id is the SQL `id`; `'[]'::jsonb` when unused. */
  usage: (id: SQL) => SQL;
};

export const contentUsages = definePlugPoint<ContentUsageKind>('contentUsages', (k) => `${k.target}:${k.usageField}:${k.name}`);

/** The jsonb array of every plugged usage of `field` for the content item or folder `id` (`[]` when none is). */
export function contentUsageSql(target: ContentUsageKind['target'], field: ContentUsageField, id: SQL): SQL {
  return lazySql(() => {
    const parts = contentUsages
      .items()
      .filter((k) => k.target === target && k.usageField === field)
      .map((k) => sql`coalesce(${k.usage(id)}, '[]'::jsonb)`);

    return parts.length === 0 ? sql`'[]'::jsonb` : sql.join(parts, sql` || `);
  });
}
