// Development helper for unreleased migrations: drops every migration after the last released one
// (SQL, snapshot, journal entry), generates the schema migration again from the *.table.ts files,
// then adds each hand-written SQL file of server/db/custom-sql/ (triggers and the like, which
// drizzle-kit cannot express) as a custom migration after it.
// Released migrations are immutable: every migration whose SQL file is on the main branch counts as released (a
// constant naming the last one drifted: it still named 0026_alerts after 0027_licences had landed, and a run would
// have deleted that migration).
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';

// The name of the next schema migration while it is unreleased (pass another as the first argument).
const NEXT_NAME = 'next';
const CUSTOM_DIR = 'server/db/custom-sql';
const journalFile = 'drizzle/meta/_journal.json';

const onMain = (tag) => {
  try {
    execFileSync('git', ['cat-file', '-e', `main:drizzle/${tag}.sql`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
const releasedIdx = journal.entries.findLastIndex((e) => onMain(e.tag));
if (releasedIdx < 0) throw new Error('no migration of the journal is on the main branch');
const RELEASED = journal.entries[releasedIdx].tag;
console.log(`released (on main) up to ${RELEASED}`);
const name = process.argv[2] ?? journal.entries[releasedIdx + 1]?.tag.replace(/^\d+_/, '') ?? NEXT_NAME;
for (const entry of journal.entries.slice(releasedIdx + 1)) {
  fs.rmSync(`drizzle/${entry.tag}.sql`, { force: true });
  fs.rmSync(`drizzle/meta/${String(entry.idx).padStart(4, '0')}_snapshot.json`, { force: true });
}
journal.entries = journal.entries.slice(0, releasedIdx + 1);
fs.writeFileSync(journalFile, `${JSON.stringify(journal, null, 2)}\n`);

execFileSync('npx', ['drizzle-kit', 'generate', '--name', name], { stdio: 'inherit' });
// drizzle-kit 0.31 writes a new primary key before the columns it adds, and the key may name one of them: the
// primary keys go after the last added column.
const generated = JSON.parse(fs.readFileSync(journalFile, 'utf8')).entries.at(-1);
if (generated.tag !== RELEASED) {
  const file = `drizzle/${generated.tag}.sql`;
  const statements = fs.readFileSync(file, 'utf8').split('--> statement-breakpoint\n');
  const isPrimaryKey = (s) => / ADD CONSTRAINT "[^"]+" PRIMARY KEY\(/.test(s);
  const lastColumn = statements.findLastIndex((s) => / ADD COLUMN /.test(s));
  if (lastColumn >= 0 && statements.slice(0, lastColumn).some(isPrimaryKey)) {
    const keys = statements.slice(0, lastColumn).filter(isPrimaryKey);
    const rest = statements.filter((s) => !keys.includes(s));
    rest.splice(rest.indexOf(statements[lastColumn]) + 1, 0, ...keys);
    fs.writeFileSync(file, rest.map((s) => s.trimEnd()).join('--> statement-breakpoint\n'));
  }
}
// Custom SQL files that are part of a released migration already are not added again.
const released = new Set(journal.entries.map((e) => e.tag.replace(/^\d+_/, '')));
for (const file of fs
  .readdirSync(CUSTOM_DIR)
  .filter((f) => f.endsWith('.sql') && !released.has(f.replace(/\.sql$/, '')))
  .sort()) {
  const customName = file.replace(/\.sql$/, '');
  execFileSync('npx', ['drizzle-kit', 'generate', '--custom', '--name', customName], { stdio: 'inherit' });
  const latest = JSON.parse(fs.readFileSync(journalFile, 'utf8')).entries.at(-1);
  fs.copyFileSync(`${CUSTOM_DIR}/${file}`, `drizzle/${latest.tag}.sql`);
}
