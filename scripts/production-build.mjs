// The production build the end-to-end and cluster tests run (`npm start`'s): built when missing, the web player bundled
// alone when the build is from before it. Shared by scripts/e2e.mjs and scripts/cluster-test.mjs.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Builds what is missing; answers the exit code of the build (0 when nothing was missing). */
export async function ensureProductionBuild(label) {
  if (!existsSync(join(root, '.next', 'BUILD_ID')) || !existsSync(join(root, 'dist', 'server', 'main.mjs'))) {
    console.log(`[${label}] no production build found; running npm run build`);

    return run(npm, ['run', 'build']);
  }
  if (!existsSync(join(root, 'dist', 'player', 'index.html'))) {
    // A build from before the web player: bundle it alone (the server serves it from dist/player/).
    return run(process.execPath, ['scripts/build-player.mjs']);
  }

  return 0;
}
