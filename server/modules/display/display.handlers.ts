import type { OpenAPIHono } from '@hono/zod-openapi';
import { clientAddress } from '@/server/http/client-address';
import { requestOrigin } from '@/server/http/request-origin';
import type { AppEnv } from '@/server/http/context';
import { deviceContext, serviceContext } from '@/server/http/service-context';
import { requestBodyStream } from '@/server/http/node-streams';
import { assignToCustomer } from './device-claim';
import { storeMetrics, storeScreenshot } from './device-telemetry';
import * as routes from './display.routes';
import * as service from './display.service';
import { folderSchedule } from './folder-schedule';
import { deviceManifest, deviceSchedule, deviceScheduleExplain } from './manifest';
import { devicesNowPlaying } from './now-playing';

export function registerDisplayRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.registerRoute, async (c) => {
    c.header('Cache-Control', 'no-store');

    return c.json(await service.registerDevice(c.var.deps, c.req.valid('json'), clientAddress(c)), 201);
  });

  app.openapi(routes.socketTicketRoute, async (c) => {
    c.header('Cache-Control', 'no-store');

    return c.json(await service.issueSocketTicket(deviceContext(c)), 200);
  });

  app.openapi(routes.statusRoute, async (c) => c.json(await service.deviceStatus(deviceContext(c)), 200));

  app.openapi(routes.heartbeatRoute, async (c) => {
    const result = await service.recordHeartbeat(deviceContext(c), c.req.valid('json'));
    // The answer carries the pending commands: delivered by this heartbeat.
    c.var.deps.metrics?.countDeliveredCommands(result.commands.length);

    return c.json(result, 200);
  });

  app.openapi(routes.ackCommandRoute, async (c) => {
    await service.acknowledgeCommand(deviceContext(c), { commandId: c.req.valid('param').commandId, body: c.req.valid('json') });

    return c.body(null, 204);
  });

  app.openapi(routes.rotateCredentialsRoute, async (c) => {
    c.header('Cache-Control', 'no-store');

    return c.json(await service.rotateDeviceSecret(deviceContext(c)), 200);
  });

  app.openapi(routes.manifestRoute, async (c) => {
    const { etag, manifest } = await deviceManifest(deviceContext(c), {
      baseUrl: requestOrigin(c),
      ifNoneMatch: c.req.valid('header')['if-none-match'],
    });
    const headers = { ETag: `"${etag}"`, 'Cache-Control': 'private, no-cache' };
    if (!manifest) return c.body(null, 304, headers);

    return c.json(manifest, 200, headers);
  });

  app.openapi(routes.deviceScheduleRoute, async (c) => {
    const { from, to } = c.req.valid('query');

    return c.json(await deviceSchedule(serviceContext(c), c.req.valid('param').id, { from, to }), 200);
  });
  app.openapi(routes.folderScheduleRoute, async (c) => {
    const { from, to } = c.req.valid('query');

    return c.json(await folderSchedule(serviceContext(c), c.req.valid('param').id, { from, to }), 200);
  });
  app.openapi(routes.devicesNowPlayingRoute, async (c) => c.json(await devicesNowPlaying(serviceContext(c), c.req.valid('json')), 200));
  app.openapi(routes.deviceScheduleExplainRoute, async (c) =>
    c.json(await deviceScheduleExplain(serviceContext(c), c.req.valid('param').id, { at: c.req.valid('query').at }), 200),
  );
  app.openapi(routes.screenshotRoute, async (c) => {
    try {
      const { highRes, takenAt } = c.req.valid('query');
      await storeScreenshot(deviceContext(c), {
        contentType: c.req.header('content-type'),
        body: requestBodyStream(c),
        highRes: highRes === 'true',
        takenAt,
      });
    } catch (error) {
      // The rest of the body may be unread: close the connection instead of reading it to its end.
      c.header('Connection', 'close');
      throw error;
    }

    return c.body(null, 204);
  });

  app.openapi(routes.metricsRoute, async (c) => c.json(await storeMetrics(deviceContext(c), c.req.valid('json').samples), 202));

  app.openapi(routes.assignToCustomerRoute, async (c) => c.json(await assignToCustomer(serviceContext(c), c.req.valid('json')), 200));
}
