import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { png } from '@/server/modules/uploads/uploads.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { formatClasses, runContractFuzz, type FuzzResult } from './fuzz';
import type { FailureKind } from './judge';
import type { OpenApiDocument } from './operations';

/**
 * The contract fuzz test (issue 27 §5): every operation of /api/openapi.json called with requests generated
 * from its own schemas, as a tenant OWNER, a super ADMIN and a device (and with broken credentials), for
 * CONTRACT_FUZZ_SECONDS (default 110 s on PGlite, 45 s on PostgreSQL), seeded by CONTRACT_FUZZ_SEED
 * (default 27; `random` for a new one). The rules are in judge.ts and docs/decisions.md "Contract fuzz test".
 * CONTRACT_FUZZ_ONLY=<regex of operationIds> narrows it to some operations. The document's own soundness
 * ($refs, patterns) is openapi-document.api.test.ts.
 */

const onPostgres = inject('testDatabase').kind === 'pg';
const seconds = Number(process.env.CONTRACT_FUZZ_SECONDS ?? (onPostgres ? 45 : 110));
const seedSetting = process.env.CONTRACT_FUZZ_SEED ?? '27';
const seed = seedSetting === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(seedSetting);
const only = process.env.CONTRACT_FUZZ_ONLY ? new RegExp(process.env.CONTRACT_FUZZ_ONLY) : undefined;

let t: TestContext;
let document: OpenApiDocument;
let result: FuzzResult;

beforeAll(
  async () => {
    // Rate limits are part of the contract (a 429 must be declared): a second wrong password reaches one.
    t = await createTestContext({ AUTH_MAX_FAILURES: '1' });
    const res = await t.app.request('/api/openapi.json');
    document = (await res.json()) as OpenApiDocument;
    result = await runContractFuzz(t, document, {
      seconds,
      seed,
      only,
      bytes: fc.oneof(fc.constant(new Uint8Array(png(2, 2))), fc.uint8Array({ maxLength: 64 })),
    });
    const summary = [
      `contract fuzz: seed ${seed} (CONTRACT_FUZZ_SEED=${seed} repeats it), ${result.requests} requests in ${result.seconds.toFixed(0)} s`,
      `over ${result.byOperation.size} operations (${perOperation()}), ${result.rerouted} answered by a sibling route, ${result.reseeds} tenants seeded anew;`,
      `${result.classes.size} failure classes`,
    ].join(' ');
    console.log([summary, formatClasses(result.classes.values())].join('\n'));
  },
  (seconds + 120) * 1000,
);

afterAll(() => t?.close());

/** Requests per operation: the fewest, the median and the most. */
function perOperation(): string {
  const counts = [...result.byOperation.values()].map((stats) => stats.requests).sort((a, b) => a - b);

  return `${counts[0] ?? 0}/${counts[Math.floor(counts.length / 2)] ?? 0}/${counts.at(-1) ?? 0} requests each, fewest/median/most`;
}

function failuresOf(kind: FailureKind): string {
  return formatClasses(
    [...result.classes.values()].filter((c) => c.kind === kind),
    { examplesPerClass: 3 },
  );
}

describe(`contract fuzz (seed ${seedSetting === 'random' ? 'random' : seed})`, () => {
  it('reached every operation of the document, with valid and invalid requests', () => {
    const operations = Object.values(document.paths)
      .flatMap((item) => Object.values(item))
      .map((op) => op.operationId)
      .filter((id) => !only || only.test(id));
    const unreached = operations.filter((id) => !result.byOperation.get(id)?.requests);
    expect(unreached).toEqual([]);
  });

  it('answers no 5xx', () => {
    expect(failuresOf('server error')).toBe('');
  });

  it('answers only statuses the operation declares', () => {
    expect(failuresOf('undeclared status')).toBe('');
  });

  it('refuses no valid input for a reason its schema does not state', () => {
    expect(failuresOf('valid input refused')).toBe('');
  });

  it('accepts no invalid input', () => {
    expect(failuresOf('invalid input accepted')).toBe('');
  });
});
