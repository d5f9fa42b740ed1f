import type { RouteConfig } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { openApiExamples } from './openapi-examples';
import { undeclaredKeys } from './response-conformance';

/*
 * The document's whole-payload examples (issue 27 §3.5) cannot rot: every operation with a JSON or form body, and
 * every JSON 2xx answer, has a recorded example, the document shows it, and each still parses with its route's
 * schemas (an answer also without undeclared keys). When this fails after an API change: `npm run openapi:examples`.
 */

type Media = { schema?: unknown; example?: unknown };
type Operation = {
  operationId: string;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
};
type Document = { paths: Record<string, Record<string, Operation>> };
type Parser = { safeParse: (value: unknown) => { success: boolean; data?: unknown; error?: { issues: unknown[] } } };

const RERECORD = 'run `npm run openapi:examples`';
const EXAMPLE_TYPES = ['application/json', 'application/x-www-form-urlencoded'];

let t: TestContext;
let operations: Operation[];
let routes: Map<string, RouteConfig>;

beforeAll(async () => {
  t = await createTestContext();
  const doc = (await t.request('GET', '/api/openapi.json')).body as Document;
  operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
  routes = new Map(
    t.app.openAPIRegistry.definitions.flatMap((d) =>
      d.type === 'route' && d.route.operationId ? [[d.route.operationId, d.route as RouteConfig] as const] : [],
    ),
  );
});
afterAll(() => t.close());

const bodyTypeOf = (op: Operation) => Object.keys(op.requestBody?.content ?? {}).find((type) => EXAMPLE_TYPES.includes(type));
const json2xx = (op: Operation) =>
  Object.entries(op.responses).find(([status, answer]) => status.startsWith('2') && answer.content?.['application/json']);

describe('whole-payload examples in /api/openapi.json', () => {
  it('every operation with a JSON or form body shows a recorded request', () => {
    const missing = operations.filter((op) => bodyTypeOf(op) && !openApiExamples[op.operationId]?.request).map((op) => op.operationId);
    expect(missing, RERECORD).toEqual([]);
    for (const op of operations.filter(bodyTypeOf)) {
      const recorded = openApiExamples[op.operationId]!.request!;
      expect(op.requestBody!.content[recorded.contentType]?.example, op.operationId).toEqual(recorded.body);
    }
  });

  it('every JSON 2xx answer shows a recorded answer', () => {
    const missing = operations.filter((op) => json2xx(op) && !openApiExamples[op.operationId]?.response).map((op) => op.operationId);
    expect(missing, RERECORD).toEqual([]);
    for (const op of operations.filter((o) => json2xx(o))) {
      const recorded = openApiExamples[op.operationId]!.response!;
      expect(op.responses[String(recorded.status)]?.content?.['application/json']?.example, op.operationId).toEqual(recorded.body);
    }
  });

  it('records only operations that exist', () => {
    const known = new Set(operations.map((op) => op.operationId));
    expect(
      Object.keys(openApiExamples).filter((id) => !known.has(id)),
      RERECORD,
    ).toEqual([]);
  });

  it('every example still parses with its route’s schemas', () => {
    const problems: string[] = [];
    for (const [operationId, example] of Object.entries(openApiExamples)) {
      const route = routes.get(operationId);
      if (!route) continue;
      if (example.request) {
        const schema = (route.request?.body?.content as Record<string, Media> | undefined)?.[example.request.contentType]?.schema as
          Parser | undefined;
        const parsed = schema?.safeParse(example.request.body);
        if (!parsed?.success)
          problems.push(`${operationId} request: ${JSON.stringify(parsed?.error?.issues ?? 'no schema').slice(0, 400)}`);
      }
      if (example.response) {
        const declared = (route.responses[example.response.status] as { content?: Record<string, Media> } | undefined)?.content?.[
          'application/json'
        ]?.schema as Parser | undefined;
        const parsed = declared?.safeParse(example.response.body);
        if (!parsed?.success)
          problems.push(
            `${operationId} ${example.response.status}: ${JSON.stringify(parsed?.error?.issues ?? 'status or schema not declared').slice(0, 400)}`,
          );
        else {
          const extra = undeclaredKeys(example.response.body, parsed.data, '');
          if (extra.length > 0) problems.push(`${operationId} ${example.response.status}: undeclared keys ${extra.join(', ')}`);
        }
      }
    }
    expect(problems, RERECORD).toEqual([]);
  });
});
