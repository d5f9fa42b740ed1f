import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { contentTemplates } from './content.table';
import type { StarterTemplate } from './content-templates';

/** Writes the catalogue: every template inserted or brought up to date, those no longer in it removed. */
export async function syncTemplates(db: Executor, templates: readonly StarterTemplate[]): Promise<void> {
  const rows = templates.map((t, position) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    structureType: 'SLIDE' as const,
    tags: t.tags,
    data: t.data,
    position,
  }));
  await db
    .insert(contentTemplates)
    .values(rows)
    .onConflictDoUpdate({
      target: contentTemplates.id,
      set: {
        name: sql`excluded.name`,
        description: sql`excluded.description`,
        structureType: sql`excluded.structure_type`,
        tags: sql`excluded.tags`,
        data: sql`excluded.data`,
        position: sql`excluded.position`,
      },
    });
  await db.execute(
    sql`delete from ${contentTemplates} where ${contentTemplates.id} <> all(array[${sql.join(
      rows.map((r) => sql`${r.id}::uuid`),
      sql`, `,
    )}])`,
  );
}

export async function findTemplate(db: Executor, where: SQL) {
  const [row] = await db.select().from(contentTemplates).where(where).limit(1);

  return row;
}
