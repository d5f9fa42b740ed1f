// Bundles the custom server (server/main.ts and everything it imports) into dist/server/main.mjs.
// npm packages stay external: they are loaded from node_modules at run time.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { buildPlayer } from './build-player.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

await build({
  entryPoints: [`${root}server/main.ts`],
  outfile: `${root}dist/server/main.mjs`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  alias: { '@': root.replace(/\/$/, '') },
  sourcemap: true,
  logLevel: 'warning',
});
console.log('server bundled: dist/server/main.mjs');

// The web player (/player/) is served by this server from dist/player/.
await buildPlayer();
