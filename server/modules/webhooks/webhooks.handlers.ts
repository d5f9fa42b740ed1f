import { JSON_MEDIA_TYPE, mediaTypeOf, readBodyWithin } from '@/server/http/request-input';
import { listQuery, scopedQuery } from '@/server/http/list-query';
import type { RouteRegistrar } from '@/server/http/route';
import { serviceContext } from '@/server/http/service-context';
import { UnsupportedMediaTypeError } from '@/server/errors';
import * as keys from './webhook-api-keys.service';
import * as actions from './webhook-actions.service';
import { TRIGGER_BODY_LIMIT } from './webhook-limits';
import { base64Payload, jsonPayload, triggerWebhook, tryWebhookAction, xmlPayload } from './webhook-triggers.service';
import * as routes from './webhooks.routes';

const XML_MEDIA_TYPE = /^(application|text)\/([\w.-]+\+)?xml$/i;

export function registerWebhookRoutes(app: RouteRegistrar) {
  app.openapi(routes.listWebhookActionsRoute, async (c) => c.json(await actions.listWebhookActions(serviceContext(c), listQuery(c)), 200));
  app.openapi(routes.listSimpleWebhookActionsRoute, async (c) =>
    c.json(await actions.listSimpleWebhookActions(serviceContext(c), scopedQuery(c)), 200),
  );
  app.openapi(routes.getWebhookActionRoute, async (c) =>
    c.json(
      await actions.getWebhookAction(serviceContext(c), { id: c.req.valid('param').actionId, select: c.req.valid('query').select }),
      200,
    ),
  );
  app.openapi(routes.createWebhookActionRoute, async (c) =>
    c.json(await actions.createWebhookAction(serviceContext(c), { body: c.req.valid('json'), teamIds: c.req.valid('query').teamIds }), 201),
  );
  app.openapi(routes.updateWebhookActionRoute, async (c) =>
    c.json(await actions.updateWebhookAction(serviceContext(c), { id: c.req.valid('param').actionId, body: c.req.valid('json') }), 200),
  );
  app.openapi(routes.deleteWebhookActionRoute, async (c) => {
    await actions.deleteWebhookAction(serviceContext(c), { id: c.req.valid('param').actionId });

    return c.body(null, 204);
  });
  app.openapi(routes.updateWebhookActionTeamsRoute, async (c) =>
    c.json(
      await actions.updateWebhookActionTeams(serviceContext(c), { id: c.req.valid('param').actionId, body: c.req.valid('json') }),
      200,
    ),
  );
  app.openapi(routes.listWebhookExecutionsRoute, async (c) => {
    const { page, size } = c.req.valid('query');

    return c.json(await actions.listWebhookExecutions(serviceContext(c), { id: c.req.valid('param').actionId, page, size }), 200);
  });
  app.openapi(routes.tryWebhookActionRoute, async (c) => {
    const body = mediaTypeOf(c.req.header('content-type')) === '' ? {} : jsonPayload(c.req.valid('json'));
    const outcome = await tryWebhookAction(serviceContext(c), { id: c.req.valid('param').actionId, payload: body });

    return outcome.status === 202 ? c.json(outcome.answer, 202) : c.json(outcome.answer, 200);
  });

  app.openapi(routes.listWebhookApiKeysRoute, async (c) => c.json(await keys.listWebhookApiKeys(serviceContext(c), listQuery(c)), 200));
  app.openapi(routes.createWebhookApiKeyRoute, async (c) =>
    c.json(await keys.createWebhookApiKey(serviceContext(c), { body: c.req.valid('json'), teamIds: c.req.valid('query').teamIds }), 201),
  );
  app.openapi(routes.updateWebhookApiKeyRoute, async (c) =>
    c.json(await keys.updateWebhookApiKey(serviceContext(c), { id: c.req.valid('param').id, body: c.req.valid('json') }), 200),
  );
  app.openapi(routes.deleteWebhookApiKeyRoute, async (c) => {
    await keys.deleteWebhookApiKey(serviceContext(c), { id: c.req.valid('param').id });

    return c.body(null, 204);
  });
  app.openapi(routes.updateWebhookApiKeyTeamsRoute, async (c) =>
    c.json(
      await keys.updateWebhookApiKeyTeams(serviceContext(c), { id: c.req.valid('param').webhookApiKeyId, body: c.req.valid('json') }),
      200,
    ),
  );

  app.openapi(routes.postTriggerRoute, async (c) => {
    const mediaType = mediaTypeOf(c.req.header('content-type'));
    let payload: Record<string, unknown>;
    if (mediaType === '') payload = {};
    else if (JSON_MEDIA_TYPE.test(mediaType)) payload = jsonPayload(c.req.valid('json'));
    else if (XML_MEDIA_TYPE.test(mediaType)) payload = xmlPayload(await readBodyWithin(c, TRIGGER_BODY_LIMIT));
    else throw new UnsupportedMediaTypeError('Send the trigger payload as JSON (application/json) or XML (application/xml)');
    const outcome = await triggerWebhook(c.var.deps, {
      key: c.req.header('x-webhook-apikey'),
      payload,
      queryEventId: c.req.valid('query').eventId,
    });

    if (outcome.status === 202) return c.json(outcome.answer, 202);

    return outcome.status === 404 ? c.json(outcome.answer, 404) : c.json(outcome.answer, 200);
  });
  app.openapi(routes.getTriggerRoute, async (c) => {
    const query = c.req.valid('query');
    const outcome = await triggerWebhook(c.var.deps, { key: query.apiKey, payload: base64Payload(query.payload) });

    if (outcome.status === 202) return c.json(outcome.answer, 202);

    return outcome.status === 404 ? c.json(outcome.answer, 404) : c.json(outcome.answer, 200);
  });
}
