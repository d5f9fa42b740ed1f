// `npm run openapi:client`: writes the console's API types (lib/api/generated/openapi.d.ts) from the OpenAPI document
// the service serves, built from the route declarations (no server, no database). `--check` writes nothing and fails
// when the checked-in file differs from what the document gives today: CI runs it, so a route whose schema changed
// without the client being regenerated fails the build.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = join(root, 'lib', 'api', 'generated', 'openapi.d.ts');
const check = process.argv.includes('--check');

/**
 * Examples document the API for people; the types do not need them, and leaving them out keeps the file small. A
 * map of names (a schema's `properties`, `components.schemas`, …) may hold a field named `example`: that is kept.
 */
const NAME_MAPS = new Set(['properties', 'schemas', 'parameters', 'responses', 'headers', 'paths', 'patternProperties']);
function withoutExamples(node, parentKey = '') {
  if (Array.isArray(node)) return node.map((item) => withoutExamples(item));
  if (!node || typeof node !== 'object') return node;

  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => NAME_MAPS.has(parentKey) || (key !== 'example' && key !== 'examples'))
      .map(([key, value]) => [key, withoutExamples(value, key)]),
  );
}

const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
try {
  const file = join(dir, 'openapi.json');
  const built = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'openapi-document.ts'), file], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
  const document = withoutExamples(JSON.parse(readFileSync(file, 'utf8')));
  const ast = await openapiTS(document, { silent: true, alphabetize: true });
  const text = [
    '// Generated from the OpenAPI document by `npm run openapi:client` (scripts/openapi-client.mjs). Do not edit:',
    '// change the route declarations and regenerate. CI fails when this file is stale.',
    '',
    astToString(ast),
  ].join('\n');

  if (check) {
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {}
    if (current !== text) {
      console.error('lib/api/generated/openapi.d.ts is stale: run `npm run openapi:client` and commit the result.');
      process.exitCode = 1;
    } else {
      console.log('lib/api/generated/openapi.d.ts matches the OpenAPI document.');
    }
  } else {
    writeFileSync(target, text);
    console.log(`wrote ${target}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
