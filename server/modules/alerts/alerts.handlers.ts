import { listQuery, scopedQuery } from '@/server/http/list-query';
import type { RouteRegistrar } from '@/server/http/route';
import { serviceContext } from '@/server/http/service-context';
import * as ruleRoutes from './alert-rules.routes';
import * as rules from './alert-rules.service';
import * as routes from './alerts.routes';
import * as service from './alerts.service';

export function registerAlertRoutes(app: RouteRegistrar) {
  app.openapi(ruleRoutes.listAlertRulesRoute, async (c) => c.json(await rules.listAlertRules(serviceContext(c), listQuery(c)), 200));

  app.openapi(ruleRoutes.listSimpleAlertRulesRoute, async (c) =>
    c.json(await rules.listSimpleAlertRules(serviceContext(c), scopedQuery(c)), 200),
  );

  app.openapi(ruleRoutes.listSimpleAlertRulesPagedRoute, async (c) =>
    c.json(await rules.listSimpleAlertRulesPaged(serviceContext(c), listQuery(c)), 200),
  );

  app.openapi(ruleRoutes.getAlertRuleRoute, async (c) =>
    c.json(await rules.getAlertRule(serviceContext(c), { id: c.req.valid('param').alertRuleId, select: c.req.valid('query').select }), 200),
  );

  app.openapi(ruleRoutes.createAlertRuleRoute, async (c) =>
    c.json(await rules.createAlertRule(serviceContext(c), { body: c.req.valid('json'), teamIds: c.req.valid('query').teamIds }), 201),
  );

  app.openapi(ruleRoutes.updateAlertRuleRoute, async (c) =>
    c.json(await rules.updateAlertRule(serviceContext(c), { id: c.req.valid('param').alertRuleId, body: c.req.valid('json') }), 200),
  );

  app.openapi(ruleRoutes.deleteAlertRuleRoute, async (c) => {
    await rules.deleteAlertRule(serviceContext(c), { id: c.req.valid('param').alertRuleId });

    return c.body(null, 204);
  });

  app.openapi(ruleRoutes.updateAlertRuleTeamsRoute, async (c) =>
    c.json(await rules.updateAlertRuleTeams(serviceContext(c), { id: c.req.valid('query').alertRuleId, body: c.req.valid('json') }), 200),
  );

  app.openapi(routes.listAlertsRoute, async (c) => c.json(await service.listAlerts(serviceContext(c), listQuery(c)), 200));

  app.openapi(routes.listDeviceAlertsRoute, async (c) => c.json(await service.listDeviceAlerts(serviceContext(c), listQuery(c)), 200));

  app.openapi(routes.listDatasourceAlertsRoute, async (c) =>
    c.json(await service.listDatasourceAlerts(serviceContext(c), listQuery(c)), 200),
  );

  app.openapi(routes.listAllDeviceAlertsRoute, async (c) =>
    c.json(await service.listAllDeviceAlerts(serviceContext(c), scopedQuery(c)), 200),
  );
}
