import type { Context } from 'hono';
import { clientAddress } from '@/server/http/client-address';
import type { AppEnv } from '@/server/http/context';
import { listQuery, scopedQuery } from '@/server/http/list-query';
import { requestOrigin } from '@/server/http/request-origin';
import type { RouteRegistrar } from '@/server/http/route';
import { serviceContext } from '@/server/http/service-context';
import * as routes from './advertisers.routes';
import * as service from './advertisers.service';
import * as links from './proof-of-play.service';
import { pageNonce, proofOfPlayPageHeaders, renderProofOfPlayPage } from './proof-of-play-page';

function linkContext(c: Context<AppEnv>): links.LinkContext {
  return { db: c.var.deps.db, config: c.var.deps.config, address: clientAddress(c) };
}

export function registerAdvertiserRoutes(app: RouteRegistrar): void {
  app.openapi(routes.listAdvertisersRoute, async (c) => c.json(await service.listAdvertisers(serviceContext(c), listQuery(c)), 200));

  app.openapi(routes.listSimpleAdvertisersRoute, async (c) => {
    const query = scopedQuery(c);

    return c.json(await service.listSimpleAdvertisers(serviceContext(c), query), 200);
  });

  app.openapi(routes.listSimpleAdvertisersPagedRoute, async (c) =>
    c.json(await service.listSimpleAdvertisersPaged(serviceContext(c), listQuery(c)), 200),
  );

  app.openapi(routes.getAdvertiserRoute, async (c) =>
    c.json(await service.getAdvertiser(serviceContext(c), { id: c.req.valid('param').advertiserId }), 200),
  );

  app.openapi(routes.createAdvertiserRoute, async (c) =>
    c.json(await service.createAdvertiser(serviceContext(c), { body: c.req.valid('json'), teamIds: c.req.valid('query').teamIds }), 201),
  );

  app.openapi(routes.updateAdvertiserRoute, async (c) =>
    c.json(await service.updateAdvertiser(serviceContext(c), { id: c.req.valid('param').advertiserId, body: c.req.valid('json') }), 200),
  );

  app.openapi(routes.deleteAdvertiserRoute, async (c) => {
    await service.deleteAdvertiser(serviceContext(c), { id: c.req.valid('param').advertiserId });

    return c.body(null, 204);
  });

  app.openapi(routes.updateAdvertiserTeamsRoute, async (c) =>
    c.json(
      await service.updateAdvertiserTeams(serviceContext(c), { id: c.req.valid('query').advertiserId, body: c.req.valid('json') }),
      200,
    ),
  );

  app.openapi(routes.enableProofOfPlayLinksRoute, async (c) => {
    c.header('Cache-Control', 'no-store');

    return c.json(
      await links.enableProofOfPlayLinks(serviceContext(c), { id: c.req.valid('query').advId, baseUrl: requestOrigin(c) }),
      200,
    );
  });

  app.openapi(routes.disableProofOfPlayLinksRoute, async (c) =>
    c.json(await links.disableProofOfPlayLinks(serviceContext(c), { id: c.req.valid('query').advId }), 200),
  );

  app.openapi(routes.getProofOfPlayLinksRoute, async (c) => {
    c.header('Cache-Control', 'no-store');

    return c.json(await links.getProofOfPlayLinks(serviceContext(c), { id: c.req.valid('query').advId, baseUrl: requestOrigin(c) }), 200);
  });

  app.openapi(routes.exportProofOfPlayCsvRoute, async (c) => {
    const query = c.req.valid('query');
    // A person opening the link gets the page; a client of the spec (no text/html in Accept) or the download gets the CSV.
    if (query.format !== 'csv' && /\btext\/html\b/i.test(c.req.header('accept') ?? '')) {
      const days = query.days ?? 30;
      const page = await links.proofOfPlaySummary(linkContext(c), { token: query.token, days });
      const nonce = pageNonce();

      return c.body(
        renderProofOfPlayPage({ ...page, days, token: query.token, path: c.req.path }, nonce),
        200,
        proofOfPlayPageHeaders(nonce),
      );
    }
    const { filename, csv } = await links.exportProofOfPlayCsv(linkContext(c), { token: query.token });

    return c.body(csv, 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
  });
}
