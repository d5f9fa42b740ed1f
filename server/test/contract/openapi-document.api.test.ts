import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { danglingRefs } from './json-schema';
import { patternProblems } from './fuzz';

/**
 * The OpenAPI document as strict tools read it (issue 27 §3.1): a `$ref` that points nowhere makes client
 * generators refuse the whole document; a pattern with a regular expression's flags pasted into it
 * (`…$/i`) refuses every value a client sends.
 */

let t: TestContext;
let document: unknown;

beforeAll(async () => {
  t = await createTestContext();
  document = await (await t.app.request('/api/openapi.json')).json();
});
afterAll(() => t.close());

it('every $ref resolves', () => {
  expect(danglingRefs(document)).toEqual([]);
});

it('every pattern is an ECMAScript regular expression without flags that some string matches', () => {
  expect(patternProblems(document)).toEqual([]);
});
