import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { modules } from '@/server/composition';

/** The manifest of every module against the module's files (GUIDE "A resource module"). */
const root = path.join(process.cwd(), 'server/modules');
const folders = readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const sourceFiles = (folder: string) => readdirSync(path.join(root, folder)).filter((f) => f.endsWith('.ts') && !/\.test\.ts$|test-(kit|helpers|support)\.ts$/.test(f));

/** Every table a module's *.table.ts files export, by SQL name, read from the files' own exports. */
async function exportedTables(folder: string): Promise<string[]> {
  const names: string[] = [];
  for (const file of sourceFiles(folder).filter((f) => f.endsWith('.table.ts'))) {
    const exports = (await import(path.join(root, folder, file))) as Record<string, unknown>;
    for (const value of Object.values(exports)) if (is(value, PgTable)) names.push(getTableName(value));
  }

  return names.sort();
}

it('lists every module folder once, by its folder name', () => {
  const names = modules.map((m) => m.name);
  expect(new Set(names).size).toBe(names.length);
  expect([...names].sort()).toEqual(folders);
});

describe.each(folders.map((folder) => ({ folder })))('module $folder', ({ folder }) => {
  const manifest = () => modules.find((m) => m.name === folder)!;

  it('has its manifest in <folder>.module.ts, exported once', () => {
    const text = readFileSync(path.join(root, folder, `${folder}.module.ts`), 'utf8');
    expect(text.match(/defineModule\(/g)?.length).toBe(1);
  });

  it("declares exactly the tables its *.table.ts files define", async () => {
    const declared = (manifest().tables ?? []).map((t) => (is(t, PgTable) ? getTableName(t) : 'not a table')).sort();
    expect(declared).toEqual(await exportedTables(folder));
  });

  it('keeps routes in *.routes.ts with handlers in *.handlers.ts, and names every file by its role', () => {
    const files = sourceFiles(folder);
    if (manifest().routes) {
      expect(files.some((f) => f.endsWith('.routes.ts'))).toBe(true);
      expect(files.some((f) => f.endsWith('.handlers.ts'))).toBe(true);
    }
    for (const file of files) expect(file, `${folder}/${file}`).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)?\.ts$/);
  });

  it('keeps every source file under 400 lines (GUIDE: split by verb past that)', () => {
    for (const file of sourceFiles(folder)) {
      const lines = readFileSync(path.join(root, folder, file), 'utf8').split('\n').length;
      expect(lines, `${folder}/${file}`).toBeLessThanOrEqual(400);
    }
  });

  it('gives a sweep factory for each resource kind it names, under a unique kind', () => {
    const kinds = modules.flatMap((m) => Object.keys(m.sweep ?? {}));
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const factory of Object.values(manifest().sweep ?? {})) expect(typeof factory).toBe('function');
  });
});
