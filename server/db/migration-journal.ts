import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A migration this build ships: its file name without `.sql` and the time drizzle-kit generated it (`when`). */
export type JournalEntry = { tag: string; when: number };

/**
 * A row of drizzle's `drizzle.__drizzle_migrations` (drizzle stores a migration's `when` as `created_at`, and no
 * name), with the name our own `drizzle.migration_tags` recorded for it, when a release that records names applied it.
 */
export type AppliedMigration = { createdAt: number; tag?: string };

/** Start-up refused: the database holds migrations this build does not ship (it was migrated by a newer release). */
export class DatabaseTooNewError extends Error {}

/** The build's migrations in order, from `drizzle/meta/_journal.json` in `folder`. */
export function readJournal(folder: string): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] };

  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

/**
 * The applied migrations this build does not know, oldest first. Drizzle applies only migrations newer than the
 * database's latest, so without this check an older build would start on a schema it was not written for.
 * A known migration is matched by its time alone: the hash changes with any edit of the file, time does not.
 */
export function findUnknownMigrations({ journal, applied }: { journal: JournalEntry[]; applied: AppliedMigration[] }): AppliedMigration[] {
  const known = new Set(journal.map((entry) => entry.when));

  return applied.filter((migration) => !known.has(migration.createdAt)).sort((a, b) => a.createdAt - b.createdAt);
}

/** What start-up says when the database is ahead of this build (`unknown` not empty). */
export function newerDatabaseMessage({ journal, unknown }: { journal: JournalEntry[]; unknown: AppliedMigration[] }): string {
  const latest = unknown.at(-1);
  const theirs = latest?.tag ?? `created ${latest ? new Date(latest.createdAt).toISOString() : 'at an unknown time'}`;
  const ours = journal.at(-1)?.tag ?? 'none';
  const more = unknown.length > 1 ? `; ${unknown.length} migrations this build does not know` : '';

  return (
    `The database was migrated by a newer release (its latest migration ${theirs}, this build knows up to ${ours}${more}); ` +
    'start the newer release or restore a backup.'
  );
}
