import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '@/server/http/context';
import { listQuery } from '@/server/http/list-query';
import { serviceContext } from '@/server/http/service-context';
import {
  createTeamRoute,
  deleteTeamRoute,
  listResourceTeamsRoute,
  listTeamAssignmentsRoute,
  listTeamsRoute,
  updateTeamResourcesRoute,
  updateTeamRoute,
  updateUserTeamAssignmentsRoute,
} from './teams.routes';
import {
  createTeam,
  deleteTeam,
  listResourceTeams,
  listTeamAssignments,
  listTeams,
  updateTeam,
  updateTeamResources,
  updateUserTeamAssignments,
} from './teams.service';

export function registerTeamRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listTeamsRoute, async (c) => c.json(await listTeams(serviceContext(c), listQuery(c)), 200));

  app.openapi(createTeamRoute, async (c) => c.json(await createTeam(serviceContext(c), c.req.valid('json')), 201));

  app.openapi(updateTeamRoute, async (c) =>
    c.json(await updateTeam(serviceContext(c), c.req.valid('query').teamId, c.req.valid('json')), 200),
  );

  app.openapi(deleteTeamRoute, async (c) => {
    await deleteTeam(serviceContext(c), c.req.valid('param').segment);

    return c.body(null, 204);
  });

  app.openapi(listTeamAssignmentsRoute, async (c) =>
    c.json(await listTeamAssignments(serviceContext(c), c.req.valid('param').segment, c.req.valid('query').teamId), 200),
  );

  app.openapi(listResourceTeamsRoute, async (c) => {
    const { resourceType, resourceId } = c.req.valid('param');

    return c.json(await listResourceTeams(serviceContext(c), resourceType, resourceId), 200);
  });

  app.openapi(updateTeamResourcesRoute, async (c) =>
    c.json(
      await updateTeamResources(serviceContext(c), c.req.valid('param').segment, c.req.valid('query').teamId, c.req.valid('json')),
      200,
    ),
  );

  app.openapi(updateUserTeamAssignmentsRoute, async (c) =>
    c.json(await updateUserTeamAssignments(serviceContext(c), c.req.valid('query').email, c.req.valid('json')), 200),
  );
}
