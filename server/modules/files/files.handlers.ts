import { idAddressedContext } from '@/server/auth/tenant-scope';
import { withTransaction } from '@/server/db/transaction';
import type { RouteRegistrar } from '@/server/http/route';
import { listQuery } from '@/server/http/list-query';
import { serviceContext } from '@/server/http/service-context';
import { replaceFileReference } from './file-references';
import { bulkFileTags, setFileValidity } from './files.bulk';
import * as routes from './files.routes';
import * as service from './files.service';

export function registerFileRoutes(app: RouteRegistrar): void {
  // Static paths before `{param}` paths: Hono answers with the first registered match.
  app.openapi(routes.listFilesRoute, async (c) => c.json(await service.listFiles(serviceContext(c), listQuery(c)), 200));

  app.openapi(routes.fileSummaryRoute, async (c) => c.json(await service.fileSummary(serviceContext(c), listQuery(c)), 200));

  app.openapi(routes.getFileRoute, async (c) =>
    c.json(await service.getFile(serviceContext(c), { id: c.req.valid('param').id, select: c.req.valid('query').select }), 200),
  );

  app.openapi(routes.replaceFileReferenceRoute, async (c) => {
    const ctx = serviceContext(c);
    const q = c.req.valid('query');
    const file = await withTransaction(ctx.db, async (tx) => {
      await replaceFileReference(tx, ctx, {
        fileIdToReplace: q.fileIdToReplace,
        sourceFileId: q.sourceFileId,
        removeOldFile: q.removeOldFile === true,
        teamAssignmentMode: q.teamAssignmentMode ?? 'MERGE',
      });

      return service.readFile(tx, ctx, q.sourceFileId);
    });

    return c.json(file, 200);
  });

  app.openapi(routes.renameFileRoute, async (c) => {
    const { fileId, newName } = c.req.valid('query');

    return c.json(await service.renameFile(await idAddressedContext(serviceContext(c)), { id: fileId, newName }), 200);
  });

  app.openapi(routes.updateFileTeamsRoute, async (c) =>
    c.json(await service.updateFileTeams(serviceContext(c), { fileId: c.req.valid('query').fileId, body: c.req.valid('json') }), 200),
  );

  for (const [verb, route] of [
    ['add', routes.addFileTagsRoute],
    ['set', routes.setFileTagsRoute],
    ['remove', routes.removeFileTagsRoute],
  ] as const) {
    app.openapi(route, async (c) =>
      c.json(await bulkFileTags(serviceContext(c), { verb, search: c.req.valid('query').search, tags: c.req.valid('json') }), 200),
    );
  }

  app.openapi(routes.setFileValidityRoute, async (c) => {
    const { search, validFrom, validTo } = c.req.valid('query');

    return c.json(await setFileValidity(serviceContext(c), { search, validFrom, validTo }), 200);
  });

  app.openapi(routes.updateFileRoute, async (c) => {
    const ctx = await idAddressedContext(serviceContext(c));

    return c.json(await service.updateFile(ctx, { id: c.req.valid('param').fileId, body: c.req.valid('json') }), 200);
  });

  app.openapi(routes.deleteFileRoute, async (c) => {
    const ctx = await idAddressedContext(serviceContext(c));
    await service.deleteFile(ctx, {
      id: c.req.valid('param').fileId,
      removeFromPlaylists: c.req.valid('query').removeFromPlaylists === true,
    });

    return c.body(null, 204);
  });
}
