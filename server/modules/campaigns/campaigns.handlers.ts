import { idAddressedContext } from '@/server/auth/tenant-scope';
import { listQuery } from '@/server/http/list-query';
import type { RouteRegistrar } from '@/server/http/route';
import { serviceContext } from '@/server/http/service-context';
import { campaignAiringReader } from './campaign-airings';
import { createCampaign, updateCampaign } from './campaign-writes';
import {
  campaignAiringRoute,
  createCampaignRoute,
  deleteCampaignRoute,
  getCampaignRoute,
  listCampaignsRoute,
  playerDevicesRoute,
  updateCampaignRoute,
  updateCampaignTeamsRoute,
} from './campaigns.routes';
import { campaignPlayerDevices, deleteCampaign, getCampaign, listCampaigns, updateCampaignTeamAssignments } from './campaigns.service';

export function registerCampaignRoutes(app: RouteRegistrar): void {
  app.openapi(listCampaignsRoute, async (c) => c.json(await listCampaigns(serviceContext(c), listQuery(c)), 200));

  app.openapi(campaignAiringRoute, async (c) => c.json(await campaignAiringReader().airings(serviceContext(c), c.req.valid('query')), 200));

  app.openapi(getCampaignRoute, async (c) =>
    c.json(await getCampaign(serviceContext(c), c.req.valid('param').id, c.req.valid('query').select), 200),
  );

  app.openapi(playerDevicesRoute, async (c) =>
    c.json(await campaignPlayerDevices(await idAddressedContext(serviceContext(c)), c.req.valid('query').campaignId), 200),
  );

  app.openapi(createCampaignRoute, async (c) =>
    c.json(await createCampaign(serviceContext(c), { ...c.req.valid('json'), teamIds: c.req.valid('query').teamIds }), 201),
  );

  app.openapi(updateCampaignRoute, async (c) =>
    c.json(await updateCampaign(await idAddressedContext(serviceContext(c)), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(deleteCampaignRoute, async (c) => {
    await deleteCampaign(await idAddressedContext(serviceContext(c)), c.req.valid('param').id);

    return c.body(null, 204);
  });

  app.openapi(updateCampaignTeamsRoute, async (c) =>
    c.json(await updateCampaignTeamAssignments(serviceContext(c), c.req.valid('query').campaignId, c.req.valid('json')), 200),
  );
}
