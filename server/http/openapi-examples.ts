import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import recorded from './openapi-examples.json';

/*
 * Whole-payload examples of the OpenAPI document (issue 27 §3.5): one real request body and one real 2xx answer
 * per operation, recorded by `npm run openapi:examples` from the fixture flows through the app
 * (openapi-examples.record.api.test.ts) into openapi-examples.json, and shown by the interactive reference as the
 * media types' `example`. openapi-examples.api.test.ts checks that every operation with a body has one and that
 * every example still parses with its route's schemas.
 */

type RecordedExample = {
  /** The request body as sent, under its media type. */
  request?: { contentType: string; body: unknown };
  /** The answer: its status and JSON body. */
  response?: { status: number; body: unknown };
};

export type OpenApiExamples = Record<string, RecordedExample>;

export const openApiExamples: OpenApiExamples = recorded as OpenApiExamples;

type Media = { schema?: unknown; example?: unknown };
type Content = Record<string, Media>;

/** `content` with `example` set on `type`, copied (routes may share response objects). */
const withExample = (content: Content, type: string, example: unknown): Content => ({ ...content, [type]: { ...content[type], example } });

/**
 * Puts each operation's recorded request and answer into its route definition, by operationId, before the document
 * is generated. Only the documentation changes: validators were built from the schemas when the routes were declared.
 */
export function attachExamples(registry: OpenAPIHono['openAPIRegistry'], examples: OpenApiExamples = openApiExamples): void {
  for (const definition of registry.definitions) {
    if (definition.type !== 'route') continue;
    const route = definition.route as RouteConfig;
    const example = route.operationId ? examples[route.operationId] : undefined;
    if (!example) continue;
    const body = route.request?.body as { content?: Content } | undefined;
    if (example.request && body?.content?.[example.request.contentType]) {
      route.request = {
        ...route.request,
        body: { ...body, content: withExample(body.content, example.request.contentType, example.request.body) } as never,
      };
    }
    const answer = example.response ? (route.responses[example.response.status] as { content?: Content } | undefined) : undefined;
    if (example.response && answer?.content?.['application/json']) {
      route.responses = {
        ...route.responses,
        [example.response.status]: { ...answer, content: withExample(answer.content, 'application/json', example.response.body) },
      };
    }
  }
}
