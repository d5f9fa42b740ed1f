// Writes the OpenAPI document the service serves at /api/openapi.json to a file (argument 1), without a database
// or a server: the document is built from the route declarations alone. `npm run lint:openapi` lints it.
import { writeFile } from 'node:fs/promises';
import type { AppDeps } from '@/server/http/context';
import { createApp } from '@/server/composition';
import { createLogger } from '@/server/logger';

const out = process.argv[2];
if (!out) throw new Error('usage: tsx scripts/openapi-document.ts <file>');
// The document's route reads nothing but the request logger; no operation is called.
const deps: Pick<AppDeps, 'log'> = { log: createLogger('silent') };
const res = await createApp(deps as AppDeps).request('/api/openapi.json');
if (res.status !== 200) throw new Error(`/api/openapi.json answered ${res.status}`);
await writeFile(out, JSON.stringify(await res.json(), null, 2));
