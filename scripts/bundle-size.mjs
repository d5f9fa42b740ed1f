#!/usr/bin/env node
/*
 * The JavaScript each main console route loads on its first visit, read from the last `npm run build` (.next/):
 * `npm run bench:bundle` prints a Markdown table (raw and gzip bytes), `--json` the figures with every chunk.
 * Other routes: `node scripts/bundle-size.mjs /account /advertisers`.
 *
 * Method (the one Next 16 uses for its own "First Load JS", next/dist/build/route-bundle-stats.js): a route's
 * chunks are the union of
 *   - `entryJSFiles` of the route's client reference manifest
 *     (.next/server/app/<app path>_client-reference-manifest.js, keyed by the app path, e.g.
 *     `/(console)/media/page`): the chunks of every segment the page renders (root layout, the console's layout,
 *     the page), which the server names in the page's `<script src>` tags and the RSC payload; and
 *   - `rootMainFiles` of .next/build-manifest.json: the runtime every App Router page loads (webpack/Turbopack
 *     runtime, React, Next's client).
 * Chunks loaded later by a dynamic `import()` (a dialog's editor, Uppy) are not counted: they are not part of
 * the first load. The console pages are rendered per request (they need the session), so there is no
 * prerendered HTML to read the script list from; the manifest is what that HTML is built from.
 * Checked against Chromium on the production server (signed in, to network idle): it loaded exactly these files;
 * the page's HTML names one more `<script src>`, the `noModule` polyfills, which modern browsers skip.
 * gzip: each file compressed alone with zlib's default level (what a compressing proxy sends), summed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, '.next');
const MAIN_ROUTES = [
  '/',
  '/media',
  '/content',
  '/screens',
  '/channels',
  '/schedules',
  '/users',
  '/teams',
  '/customers',
  '/proof-of-play',
  '/audit-log',
  '/settings',
];

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const routes = args.filter((a) => a.startsWith('/'));

if (!existsSync(join(dist, 'BUILD_ID'))) {
  console.error('No build in .next/: run `npm run build` first.');
  process.exit(1);
}

const readJson = (path) => JSON.parse(readFileSync(join(dist, path), 'utf8'));
const rootMainFiles = readJson('build-manifest.json').rootMainFiles.filter((f) => f.endsWith('.js'));
const appPaths = Object.keys(readJson('server/app-paths-manifest.json'));

/** `/(console)/media/page` → `/media`: route groups and the `page` segment are not part of the URL. */
const routeOf = (appPath) => appPath.replace(/\/page$/, '').replace(/\/\([^/)]+\)/g, '') || '/';

function entryJSFiles(appPath) {
  const sandbox = { globalThis: {} };
  sandbox.self = sandbox.globalThis;
  runInNewContext(readFileSync(join(dist, 'server', 'app', `${appPath}_client-reference-manifest.js`), 'utf8'), sandbox);
  const manifest = (sandbox.globalThis.__RSC_MANIFEST ?? sandbox.__RSC_MANIFEST)?.[appPath];
  if (!manifest) throw new Error(`${appPath}: no client reference manifest entry`);

  return Object.values(manifest.entryJSFiles)
    .flat()
    .filter((f) => f.endsWith('.js'));
}

const sizes = new Map();
function sizeOf(file) {
  if (!sizes.has(file)) {
    const path = join(dist, file);
    sizes.set(file, { raw: statSync(path).size, gzip: gzipSync(readFileSync(path)).length });
  }

  return sizes.get(file);
}

const total = (files) => files.reduce((sum, f) => ({ raw: sum.raw + sizeOf(f).raw, gzip: sum.gzip + sizeOf(f).gzip }), { raw: 0, gzip: 0 });

const rows = (routes.length > 0 ? routes : MAIN_ROUTES).map((route) => {
  const appPath = appPaths.find((p) => p.endsWith('/page') && routeOf(p) === route);
  if (!appPath) throw new Error(`${route}: no such page in this build`);
  const chunks = [...new Set([...entryJSFiles(appPath), ...rootMainFiles])].sort();

  return { route, appPath, chunks: chunks.length, ...total(chunks), files: chunks };
});
const shared = total(rootMainFiles);

if (asJson) {
  console.log(
    JSON.stringify(
      { buildId: readFileSync(join(dist, 'BUILD_ID'), 'utf8').trim(), shared: { files: rootMainFiles, ...shared }, routes: rows },
      null,
      2,
    ),
  );
} else {
  const kib = (n) => (n / 1024).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  console.log('| Route | JS files | raw KiB | gzip KiB |');
  console.log('|---|---:|---:|---:|');
  for (const r of rows) console.log(`| \`${r.route}\` | ${r.chunks} | ${kib(r.raw)} | ${kib(r.gzip)} |`);
  console.log(
    `| every route's runtime (rootMainFiles, included above) | ${rootMainFiles.length} | ${kib(shared.raw)} | ${kib(shared.gzip)} |`,
  );
}
