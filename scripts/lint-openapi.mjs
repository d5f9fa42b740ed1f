// `npm run lint:openapi`: builds the OpenAPI document from the route declarations (no server, no database) and
// lints it with Redocly CLI's recommended rules (redocly.yaml). Errors fail; the warnings left are listed with their
// reasons in docs/decisions.md ("The OpenAPI document").
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
const file = join(dir, 'openapi.json');
const run = (command, args, env = {}) =>
  spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

try {
  let status = run(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'openapi-document.ts'), file]);
  if (status === 0) {
    status = run(
      process.execPath,
      [
        join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'),
        'lint',
        file,
        '--format=stylish',
        '--config',
        join(root, 'redocly.yaml'),
      ],
      {
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
      },
    );
  }
  process.exitCode = status;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
