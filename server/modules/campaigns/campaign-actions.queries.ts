import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { arrayParam, bigintArrayParam, execRows } from '@/server/db/sql';
import { campaigns, type CampaignRow } from './campaigns.table';

/** What the caller may do with a campaign row: see it (team access) and write it (not read-only through its teams). */
export type CampaignRowAccess = { visible: SQL | undefined; readOnly: SQL };

/** The campaigns of `customerId` among `ids`, with the caller's access, row-locked (in id order) until the transaction ends. */
export function lockNamedCampaigns(db: Executor, input: { customerId: number; ids: readonly number[] } & CampaignRowAccess) {
  return db
    .select({
      id: campaigns.id,
      name: campaigns.name,
      locked: campaigns.locked,
      visible: sql<boolean>`${input.visible ?? sql`true`}`,
      readOnly: sql<boolean>`${input.readOnly}`,
    })
    .from(campaigns)
    .where(and(eq(campaigns.customerId, input.customerId), sql`${campaigns.id} = any(${bigintArrayParam(input.ids)})`))
    .orderBy(asc(campaigns.id))
    .for('update', { of: campaigns });
}

/** The campaigns named by id, or those carrying any of the tags. */
export function campaignSelection(target: { ids: readonly number[] } | { tags: readonly string[] }): SQL {
  return 'ids' in target
    ? sql`${campaigns.id} = any(${bigintArrayParam(target.ids)})`
    : sql`${campaigns.tags} && ${arrayParam(target.tags, 'text')}`;
}

/** The columns a webhook's campaign action sets. */
export type ActionColumn = 'enabled' | 'saturation' | 'weight';

type ChangedCampaign = Pick<CampaignRow, 'id' | 'name' | 'level'> & { previous: boolean | number | null };

export type CampaignColumnChange = {
  changed: ChangedCampaign[];
  /** Visible campaigns the selection found. */
  matched: number;
  /** Of those, already at the value. */
  unchanged: number;
  locked: number;
  /** Read-only through the caller's teams (and not locked). */
  readOnly: number;
};

/**
 * Sets one column on the visible, writable, unlocked campaigns of `customerId` in `selection` whose value differs:
 * one UPDATE (no row read into memory first), which also stamps who saved. Answers the changed campaigns with their
 * previous values and how many of the others were left as they were, and why.
 */
export async function setCampaignColumn(
  db: Executor,
  input: {
    customerId: number;
    selection: SQL;
    column: ActionColumn;
    value: boolean | number;
    saved: { at: Date; byId: string | null; byEmail: string | null; byName: string | null };
  } & CampaignRowAccess,
): Promise<CampaignColumnChange> {
  const column = campaigns[input.column];
  const target = sql.identifier(column.name);
  const { saved } = input;
  const [row] = await execRows<{
    changed: ChangedCampaign[] | null;
    matched: number;
    unchanged: number;
    locked: number;
    read_only: number;
  }>(
    db,
    sql`with targeted as (
        select ${campaigns.id} as id, ${campaigns.locked} as locked, ${input.readOnly} as read_only,
          ${column} is distinct from ${input.value} as differs, ${column} as previous
        from ${campaigns}
        where ${campaigns.customerId} = ${input.customerId} and ${input.selection} and ${input.visible ?? sql`true`}
      ), changed as (
        update ${campaigns} set ${target} = ${input.value},
          ${sql.identifier(campaigns.lastSaved.name)} = ${saved.at.toISOString()}::timestamptz,
          ${sql.identifier(campaigns.lastSavedById.name)} = ${saved.byId}::uuid,
          ${sql.identifier(campaigns.lastSavedByEmail.name)} = ${saved.byEmail}::text,
          ${sql.identifier(campaigns.lastSavedByName.name)} = ${saved.byName}::text
        from targeted
        where ${campaigns.id} = targeted.id and not targeted.locked and not targeted.read_only and targeted.differs
        returning ${campaigns.id} as id, ${campaigns.name} as name, ${campaigns.level} as level, targeted.previous as previous
      )
      select (select json_agg(json_build_object('id', id, 'name', name, 'level', level, 'previous', previous) order by id) from changed) as changed,
        (select count(*)::int from targeted) as matched,
        (select count(*)::int from targeted where not differs and not locked and not read_only) as unchanged,
        (select count(*)::int from targeted where locked) as locked,
        (select count(*)::int from targeted where read_only and not locked) as read_only`,
  );

  return {
    changed: (row?.changed ?? []).map((c) => ({ ...c, id: Number(c.id) })),
    matched: Number(row?.matched ?? 0),
    unchanged: Number(row?.unchanged ?? 0),
    locked: Number(row?.locked ?? 0),
    readOnly: Number(row?.read_only ?? 0),
  };
}
