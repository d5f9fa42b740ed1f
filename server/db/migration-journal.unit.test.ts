import { describe, expect, it } from 'vitest';
import { findUnknownMigrations, newerDatabaseMessage, readJournal, type JournalEntry } from './migration-journal';

const journal: JournalEntry[] = [
  { tag: '0000_init', when: 1000 },
  { tag: '0001_tenants', when: 2000 },
  { tag: '0002_media', when: 3000 },
];

describe('findUnknownMigrations', () => {
  it('knows nothing is unknown in an empty database, a partly migrated one and a fully migrated one', () => {
    expect(findUnknownMigrations({ journal, applied: [] })).toEqual([]);
    expect(findUnknownMigrations({ journal, applied: [{ createdAt: 1000 }] })).toEqual([]);
    expect(findUnknownMigrations({ journal, applied: journal.map((entry) => ({ createdAt: entry.when, tag: entry.tag })) })).toEqual([]);
  });

  it('answers the applied migrations the journal does not list, oldest first', () => {
    const applied = [{ createdAt: 5000, tag: '0004_b' }, { createdAt: 1000 }, { createdAt: 4000, tag: '0003_a' }, { createdAt: 2000 }];
    expect(findUnknownMigrations({ journal, applied })).toEqual([
      { createdAt: 4000, tag: '0003_a' },
      { createdAt: 5000, tag: '0004_b' },
    ]);
  });

  it('counts a migration this build does not ship as unknown even when it is older than the build’s latest', () => {
    expect(findUnknownMigrations({ journal, applied: [{ createdAt: 2500 }, { createdAt: 3000 }] })).toEqual([{ createdAt: 2500 }]);
  });
});

describe('newerDatabaseMessage', () => {
  it('names the database’s latest migration and the build’s', () => {
    expect(newerDatabaseMessage({ journal, unknown: [{ createdAt: 4000, tag: '0003_x' }] })).toBe(
      'The database was migrated by a newer release (its latest migration 0003_x, this build knows up to 0002_media); ' +
        'start the newer release or restore a backup.',
    );
  });

  it('gives the time of a migration whose name was not recorded, and how many are unknown', () => {
    const message = newerDatabaseMessage({ journal, unknown: [{ createdAt: 4000 }, { createdAt: Date.UTC(2027, 0, 2, 3, 4, 5) }] });
    expect(message).toContain('its latest migration created 2027-01-02T03:04:05.000Z, this build knows up to 0002_media; 2 migrations');
  });
});

describe('readJournal', () => {
  it('reads the shipped journal in order, every entry with a tag and a time', () => {
    const entries = readJournal('drizzle');
    expect(entries[0]?.tag).toBe('0000_init');
    expect(entries.every((entry, i) => i === 0 || entry.when > entries[i - 1]!.when)).toBe(true);
    expect(entries.every((entry) => /^\d{4}_\w+$/.test(entry.tag))).toBe(true);
  });
});
