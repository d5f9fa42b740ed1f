import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Runs `exportName()` of the module at `modulePath` in a child process under `TZ=tz` and answers its JSON, with the
 * child's offset on 2026-01-01 (minutes behind UTC) as proof that it really ran in that zone. For the tests that
 * prove an answer never depends on the process time zone (playback resolution, calendar expansion).
 */
export function runUnderTimeZone(modulePath: string, exportName: string, tz: string): Promise<{ offset: number; json: string }> {
  const script =
    `import(${JSON.stringify(modulePath)}).then((m) => { process.stdout.write(` +
    `JSON.stringify({ offset: new Date(Date.UTC(2026, 0, 1)).getTimezoneOffset() }) + '\\n' + JSON.stringify(m[${JSON.stringify(exportName)}]())); });`;

  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: ROOT,
      env: { ...process.env, TZ: tz },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data) => (stdout += data));
    child.stderr.on('data', (data) => (stderr += data));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`TZ=${tz} exited ${code}: ${stderr}`));
      const newline = stdout.indexOf('\n');
      resolve({ offset: JSON.parse(stdout.slice(0, newline)).offset, json: stdout.slice(newline + 1) });
    });
  });
}
