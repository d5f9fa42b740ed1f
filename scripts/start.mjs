// `npm start`: serves the production build, building it first when none exists (DECISIONS §1).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = existsSync(`${root}.next/BUILD_ID`) && existsSync(`${root}dist/server/main.mjs`);
if (!built) {
  console.log('No build found: running npm run build first…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
} else if (!existsSync(`${root}dist/player/index.html`)) {
  // A build from before the web player: bundle it alone.
  const { buildPlayer } = await import('./build-player.mjs');
  await buildPlayer();
}
process.chdir(root);
await import(`${root}dist/server/main.mjs`);
