// Bundles the web player (player/) into dist/player/: the page, its script (content-hashed, cached for a
// year) and the service worker (sw.js, scope /player/). Framework-free: no console code, no React, no Next.
// Called by build-server.mjs (so `npm run build` builds it); `node scripts/build-player.mjs` alone works too.
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/player`;

export async function buildPlayer() {
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const common = {
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: ['chrome90', 'firefox90', 'safari15'],
    alias: { '@': root.replace(/\/$/, '') },
    minify: true,
    sourcemap: true,
    logLevel: 'warning',
    legalComments: 'linked',
  };
  const page = await build({
    ...common,
    entryPoints: { player: `${root}player/main.ts` },
    outdir: out,
    entryNames: '[name]-[hash]',
    metafile: true,
  });
  const script = Object.keys(page.metafile.outputs).find((f) => f.endsWith('.js'));
  const scriptName = script.split('/').pop();
  const html = (await readFile(`${root}player/index.html`, 'utf8')).replace('__PLAYER_JS__', `/player/${scriptName}`);
  await writeFile(`${out}/index.html`, html);
  const buildId = scriptName.replace(/^player-|\.js$/g, '');
  await build({
    ...common,
    entryPoints: [`${root}player/sw.ts`],
    outfile: `${out}/sw.js`,
    format: 'iife',
    define: { BUILD_ID: JSON.stringify(buildId), PLAYER_ASSETS: JSON.stringify(['/player/', `/player/${scriptName}`]) },
  });
  console.log(`player bundled: dist/player/${scriptName}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPlayer();
