import type { OpenAPIHono } from '@hono/zod-openapi';
import { ForbiddenError, UnsupportedMediaTypeError, ValidationError } from '@/server/errors';
import type { AppEnv } from '@/server/http/context';
import { assertSafeJson } from '@/server/http/hostile-input';
import { JSON_MEDIA_TYPE, mediaTypeOf, readBodyWithin } from '@/server/http/request-input';
import { deviceContext, serviceContext } from '@/server/http/service-context';
import * as routes from './proof-of-play.routes';
import { MAX_PLAY_EVENTS, PlayEventSchema } from './proof-of-play.schemas';
import { ingestPlayEvents, NOT_JSON } from './proof-of-play.service';
import { reportRoutes } from './reports.routes';
import type { ReportQuery } from './reports.schemas';
import { proofOfDisplayCsv, proofOfDisplayReport } from './reports.service';

/**
 * One PlayEvent a line; blank lines are skipped and a line that is not JSON is refused on its own (the
 * event at that index). Each parsed line passes the same depth and NUL check as a JSON body.
 */
function parseNdjson(text: string): unknown[] {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length > MAX_PLAY_EVENTS)
    throw new ValidationError('proofOfPlay.error.tooManyEvents', `At most ${MAX_PLAY_EVENTS} events per call`);

  return lines.map((line, index) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return NOT_JSON;
    }
    assertSafeJson(`line ${index + 1}`, value);

    return value;
  });
}

export function registerProofOfPlayRoutes(app: OpenAPIHono<AppEnv>) {
  // The body is validated event by event (a bad event refuses only itself), so its schema names PlayEvent by $ref
  // and no route's schema brings the component into the document: it is registered here.
  app.openAPIRegistry.register('PlayEvent', PlayEventSchema);
  app.openapi(routes.uploadPlayEventsRoute, async (c) => {
    const ctx = deviceContext(c);
    const customerId = ctx.device.customerId;
    if (customerId === null) throw new ForbiddenError('The device is not assigned to a customer yet', 'display.error.notAssigned');
    const mediaType = mediaTypeOf(c.req.header('content-type'));
    let events: unknown[];
    // No body at all (a body without a media type is a 415 before this): no events to store.
    if (mediaType === '') events = [];
    else if (mediaType === 'application/x-ndjson')
      events = parseNdjson(new TextDecoder().decode(await readBodyWithin(c, routes.PLAY_EVENTS_MAX_BYTES)));
    else if (JSON_MEDIA_TYPE.test(mediaType)) {
      const body = c.req.valid('json');
      events = Array.isArray(body) ? body : [];
    } else throw new UnsupportedMediaTypeError('Send the events as application/json (an array) or application/x-ndjson');

    const result = await ingestPlayEvents(ctx.db, { deviceId: ctx.device.deviceId, customerId }, events);
    c.var.deps.metrics?.countAcceptedPlays(result.accepted);

    return c.json(result, 202);
  });

  for (const { route, csv, request, param } of reportRoutes) {
    app.openapi(route, async (c) => {
      const query = c.req.valid('query') as ReportQuery;
      const input = { ...request, query, id: param ? (c.req.valid('param' as never) as Record<string, string>)[param] : undefined };
      if (!csv) return c.json(await proofOfDisplayReport(serviceContext(c), input), 200);

      return c.body(await proofOfDisplayCsv(serviceContext(c), input), 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="proof-of-display-${request.type}.csv"`,
      });
    });
  }
}
