import { listQuery } from '@/server/http/list-query';
import type { RouteRegistrar } from '@/server/http/route';
import { serviceContext } from '@/server/http/service-context';
import {
  createDeviceGroupRoute,
  deleteDeviceGroupRoute,
  deviceOnlineOfflineRatioRoute,
  getDeviceGroupRoute,
  listDeviceGroupsRoute,
  moveDeviceGroupRoute,
  updateDeviceGroupRoute,
  updateDeviceGroupTeamsRoute,
} from './device-groups.routes';
import {
  createDeviceGroup,
  deleteDeviceGroup,
  deviceOnlineOfflineRatio,
  getDeviceGroup,
  listDeviceGroups,
  moveDeviceGroup,
  updateDeviceGroup,
  updateDeviceGroupTeamAssignments,
} from './device-groups.service';

export function registerDeviceGroupRoutes(app: RouteRegistrar): void {
  app.openapi(listDeviceGroupsRoute, async (c) => c.json(await listDeviceGroups(serviceContext(c), listQuery(c)), 200));

  app.openapi(getDeviceGroupRoute, async (c) =>
    c.json(await getDeviceGroup(serviceContext(c), c.req.valid('param').id, c.req.valid('query').select), 200),
  );

  app.openapi(deviceOnlineOfflineRatioRoute, async (c) =>
    c.json(await deviceOnlineOfflineRatio(serviceContext(c), c.req.valid('query').search), 200),
  );

  app.openapi(createDeviceGroupRoute, async (c) => {
    const input = { ...c.req.valid('json'), parentId: c.req.valid('param').id, teamIds: c.req.valid('query').teamIds };

    return c.json(await createDeviceGroup(serviceContext(c), input), 201);
  });

  app.openapi(updateDeviceGroupRoute, async (c) =>
    c.json(await updateDeviceGroup(serviceContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(moveDeviceGroupRoute, async (c) => {
    const { folderId, targetFolderId } = c.req.valid('param');

    return c.json(await moveDeviceGroup(serviceContext(c), folderId, targetFolderId), 200);
  });

  app.openapi(updateDeviceGroupTeamsRoute, async (c) =>
    c.json(await updateDeviceGroupTeamAssignments(serviceContext(c), c.req.valid('query').deviceGroupId, c.req.valid('json')), 200),
  );

  app.openapi(deleteDeviceGroupRoute, async (c) => {
    await deleteDeviceGroup(serviceContext(c), c.req.valid('param').id, c.req.valid('query').targetGroupId);

    return c.body(null, 204);
  });
}
