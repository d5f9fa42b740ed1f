// Development helper while a migration is not yet released: drops the newest generated migration
// (its SQL, snapshot and journal entry) and generates it again from the current *.table.ts files.
// Never use it on a migration that has landed on main: released migrations are immutable.
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';

const journalFile = 'drizzle/meta/_journal.json';
const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
const last = journal.entries.at(-1);
if (!last || last.idx === 0) throw new Error('refusing to regenerate the initial migration');
const name = process.argv[2] ?? last.tag.replace(/^\d+_/, '');
fs.rmSync(`drizzle/${last.tag}.sql`, { force: true });
fs.rmSync(`drizzle/meta/${String(last.idx).padStart(4, '0')}_snapshot.json`, { force: true });
journal.entries.pop();
fs.writeFileSync(journalFile, `${JSON.stringify(journal, null, 2)}\n`);
execFileSync('npx', ['drizzle-kit', 'generate', '--name', name], { stdio: 'inherit' });
