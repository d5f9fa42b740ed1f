import { idAddressedContext } from '@/server/auth/tenant-scope';
import { listQuery, scopedQuery } from '@/server/http/list-query';
import type { RouteRegistrar } from '@/server/http/route';
import { serviceContext } from '@/server/http/service-context';
import { deviceCommandHistory, deviceSettings } from './device-command-history';
import { runValidatedDeviceCommand } from './device-commands';
import { commandRoutes, deviceCommandHistoryRoute, deviceSettingsRoute } from './device-commands.routes';
import { commandBodies } from './device-commands.schemas';
import { bulkDeviceTags } from './devices.batch';
import { deviceGraphs, supportedMetrics } from './device-metrics';
import { previewStore } from './device-previews.service';
import {
  addDeviceTagsRoute,
  deleteDeviceRoute,
  deviceGraphsRoute,
  getDeviceRoute,
  listDevicesRoute,
  moveDevicesRoute,
  previewStoreRoute,
  removeDeviceTagsRoute,
  setDeviceTagsRoute,
  supportedMetricsRoute,
  updateDeviceRoute,
} from './devices.routes';
import { deleteDeviceById, getDevice, listDevices, moveDevices, updateDeviceFields } from './devices.service';

export function registerDeviceRoutes(app: RouteRegistrar): void {
  app.openapi(listDevicesRoute, async (c) => c.json(await listDevices(serviceContext(c), listQuery(c)), 200));

  app.openapi(getDeviceRoute, async (c) =>
    c.json(await getDevice(serviceContext(c), c.req.valid('param').id, c.req.valid('query').select), 200),
  );

  app.openapi(previewStoreRoute, async (c) => c.json(await previewStore(serviceContext(c), c.req.valid('param').id), 200));

  app.openapi(updateDeviceRoute, async (c) =>
    c.json(await updateDeviceFields(await idAddressedContext(serviceContext(c)), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(deleteDeviceRoute, async (c) => {
    await deleteDeviceById(await idAddressedContext(serviceContext(c)), c.req.valid('param').id);

    return c.body(null, 204);
  });

  app.openapi(moveDevicesRoute, async (c) => {
    await moveDevices(serviceContext(c), c.req.valid('json'));

    return c.body(null, 204);
  });

  for (const [verb, route] of [
    ['add', addDeviceTagsRoute],
    ['set', setDeviceTagsRoute],
    ['remove', removeDeviceTagsRoute],
  ] as const) {
    app.openapi(route, async (c) => {
      const { search, applyOn } = c.req.valid('query');

      return c.json(await bulkDeviceTags(serviceContext(c), { verb, search, applyOn, tags: c.req.valid('json') }), 200);
    });
  }

  for (const { name, remove, route } of commandRoutes) {
    app.openapi(route, async (c) => {
      const { search, applyOn, ...params } = scopedQuery(c) as Record<string, unknown> & {
        search?: string;
        applyOn?: 'DEVICE' | 'DEVICEGROUP' | 'ALL';
      };
      const body = !remove && name in commandBodies ? (c.req.valid as (target: 'json') => unknown)('json') : undefined;

      return c.json(await runValidatedDeviceCommand(serviceContext(c), name, { search, applyOn, params, body, remove }), 200);
    });
  }

  app.openapi(deviceCommandHistoryRoute, async (c) => c.json(await deviceCommandHistory(serviceContext(c), c.req.valid('param').id), 200));

  app.openapi(deviceSettingsRoute, async (c) => c.json(await deviceSettings(serviceContext(c), c.req.valid('param').id), 200));

  app.openapi(supportedMetricsRoute, async (c) => c.json(await supportedMetrics(serviceContext(c), c.req.valid('param').deviceId), 200));

  app.openapi(deviceGraphsRoute, async (c) => {
    const { from, to, dataPoints } = c.req.valid('query');

    return c.json(
      await deviceGraphs(serviceContext(c), c.req.valid('param').deviceId, {
        from,
        to,
        dataPoints,
        metricTypes: c.req.valid('json').metricTypes,
      }),
      200,
    );
  });
}
