import { listQuery } from '@/server/http/list-query';
import type { RouteRegistrar } from '@/server/http/route';
import { serviceContext } from '@/server/http/service-context';
import { deleteContentGroup, moveToContentGroup } from './content-groups.batch';
import {
  createContentGroupRoute,
  deleteContentGroupRoute,
  getContentGroupRoute,
  listContentGroupsRoute,
  moveContentGroupsRoute,
  renameContentGroupRoute,
  updateContentGroupTeamsRoute,
} from './content-groups.routes';
import {
  createContentGroup,
  getContentGroup,
  listContentGroups,
  renameContentGroup,
  updateContentGroupTeamAssignments,
} from './content-groups.service';

export function registerContentGroupRoutes(app: RouteRegistrar): void {
  app.openapi(listContentGroupsRoute, async (c) => c.json(await listContentGroups(serviceContext(c), listQuery(c)), 200));

  app.openapi(getContentGroupRoute, async (c) =>
    c.json(await getContentGroup(serviceContext(c), c.req.valid('param').id, c.req.valid('query').select), 200),
  );

  app.openapi(createContentGroupRoute, async (c) => {
    const { parentGroupId, teamIds } = c.req.valid('query');

    return c.json(await createContentGroup(serviceContext(c), { parentGroupId, teamIds, name: c.req.valid('json').name }), 201);
  });

  app.openapi(moveContentGroupsRoute, async (c) => c.json(await moveToContentGroup(serviceContext(c), c.req.valid('json')), 200));

  app.openapi(updateContentGroupTeamsRoute, async (c) =>
    c.json(await updateContentGroupTeamAssignments(serviceContext(c), c.req.valid('query').contentGroupId, c.req.valid('json')), 200),
  );

  app.openapi(renameContentGroupRoute, async (c) =>
    c.json(await renameContentGroup(serviceContext(c), c.req.valid('param').id, c.req.valid('json').name), 200),
  );

  app.openapi(deleteContentGroupRoute, async (c) => {
    await deleteContentGroup(serviceContext(c), c.req.valid('param').id, c.req.valid('query').removeContents === true);

    return c.body(null, 204);
  });
}
