import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { modules } from '@/server/composition';

/** The manifest of every module against the module's files (GUIDE "A resource module"), and the boundaries between modules. */
const root = path.join(process.cwd(), 'server/modules');
const folders = readdirSync(root, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const sourceFiles = (folder: string) =>
  readdirSync(path.join(root, folder)).filter((f) => f.endsWith('.ts') && !/\.test\.ts$|test-(kit|helpers|support)\.ts$/.test(f));

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

  it('declares exactly the tables its *.table.ts files define', async () => {
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

/**
 * The modules another module's file imports, with the file it names there (`index` for the module itself), from
 * its static `import`/`export … from` specifiers: `@/server/modules/<name>[/<file>]` or a relative path into a sibling.
 */
function moduleImports(folder: string, text: string): { module: string; file: string }[] {
  const found: { module: string; file: string }[] = [];
  for (const [, specifier] of text.matchAll(/(?:import|export)\s[^'"]*?from\s+'([^']+)'/g)) {
    const target = specifier!.startsWith('@/server/modules/')
      ? specifier!.slice('@/server/modules/'.length)
      : specifier!.startsWith('../') && !specifier!.startsWith('../../')
        ? specifier!.slice('../'.length)
        : undefined;
    if (target === undefined || target === 'module') continue;
    const [module, ...rest] = target.split('/');
    if (module !== folder) found.push({ module: module!, file: rest.length === 0 ? 'index' : rest.join('/') });
  }

  return found;
}

describe('boundaries between modules (docs/decisions.md, "Modules")', () => {
  const importsOf = (folder: string, files: string[]) =>
    files.flatMap((file) =>
      moduleImports(folder, readFileSync(path.join(root, folder, file), 'utf8')).map((target) => ({
        from: `${folder}/${file}`,
        ...target,
      })),
    );

  it('reaches another module only through its index.ts, *.table.ts or *.schemas.ts', () => {
    const internals = folders
      .flatMap((folder) => importsOf(folder, sourceFiles(folder)))
      .filter((i) => i.file !== 'index' && !/\.(table|schemas)$/.test(i.file))
      .map((i) => `${i.from} -> ${i.module}/${i.file}`);
    expect(internals).toEqual([]);
  });

  it('imports no module in a circle (test kits included: the structure tool counts them)', () => {
    const kitsToo = (folder: string) => readdirSync(path.join(root, folder)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const edges = new Map(folders.map((folder) => [folder, new Set(importsOf(folder, kitsToo(folder)).map((i) => i.module))]));
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (folder: string, trail: string[]) => {
      if (state.get(folder) === 'done') return;
      if (state.get(folder) === 'open') return void circles.push([...trail.slice(trail.indexOf(folder)), folder].join(' -> '));
      state.set(folder, 'open');
      for (const next of edges.get(folder) ?? []) visit(next, [...trail, folder]);
      state.set(folder, 'done');
    };
    for (const folder of folders) visit(folder, []);
    expect(circles).toEqual([]);
  });
});
