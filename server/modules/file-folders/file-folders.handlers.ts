import type { RouteRegistrar } from '@/server/http/route';
import { listQuery } from '@/server/http/list-query';
import { serviceContext } from '@/server/http/service-context';
import { deleteBatch, deleteFileFolder, moveBatchToFolder } from './file-folders.batch';
import {
  breadcrumbRoute,
  createFileFolderRoute,
  createFilteredFileFolderRoute,
  deleteBatchRoute,
  deleteFileFolderRoute,
  getFileFolderRoute,
  listFileFoldersRoute,
  moveBatchRoute,
  renameFileFolderRoute,
  setCleanupOutdatedFilesRoute,
  storageStatisticsRoute,
  updateFileFolderTeamsRoute,
} from './file-folders.routes';
import {
  breadcrumb,
  createFileFolder,
  createFilteredFileFolder,
  getFileFolder,
  listFileFolders,
  renameFileFolder,
  setCleanupOutdatedFiles,
  storageStatistics,
  updateFolderTeamAssignments,
} from './file-folders.service';

/** Static paths first: Hono matches in registration order. */
export function registerFileFolderRoutes(app: RouteRegistrar): void {
  app.openapi(listFileFoldersRoute, async (c) => c.json(await listFileFolders(serviceContext(c), listQuery(c)), 200));

  app.openapi(getFileFolderRoute, async (c) =>
    c.json(await getFileFolder(serviceContext(c), c.req.valid('param').id, c.req.valid('query').select), 200),
  );

  app.openapi(storageStatisticsRoute, async (c) => c.json(await storageStatistics(serviceContext(c)), 200));

  app.openapi(breadcrumbRoute, async (c) => c.json(await breadcrumb(serviceContext(c), c.req.valid('query').folderId), 200));

  app.openapi(createFileFolderRoute, async (c) => c.json(await createFileFolder(serviceContext(c), c.req.valid('query')), 201));

  app.openapi(createFilteredFileFolderRoute, async (c) =>
    c.json(await createFilteredFileFolder(serviceContext(c), c.req.valid('query')), 201),
  );

  app.openapi(renameFileFolderRoute, async (c) => c.json(await renameFileFolder(serviceContext(c), c.req.valid('query')), 200));

  app.openapi(moveBatchRoute, async (c) => c.json(await moveBatchToFolder(serviceContext(c), c.req.valid('json')), 200));

  app.openapi(deleteBatchRoute, async (c) => {
    await deleteBatch(serviceContext(c), c.req.valid('json'), c.req.valid('query').removeFromPlaylists === true);

    return c.body(null, 204);
  });

  app.openapi(setCleanupOutdatedFilesRoute, async (c) => {
    const { folderId, cleanupOutdatedFiles } = c.req.valid('query');

    return c.json(await setCleanupOutdatedFiles(serviceContext(c), { folderId, cleanupOutdatedFiles }), 200);
  });

  app.openapi(updateFileFolderTeamsRoute, async (c) =>
    c.json(await updateFolderTeamAssignments(serviceContext(c), c.req.valid('query').fileFolderId, c.req.valid('json')), 200),
  );

  app.openapi(deleteFileFolderRoute, async (c) => {
    await deleteFileFolder(serviceContext(c), c.req.valid('param').id, c.req.valid('query').removeFromPlaylists === true);

    return c.body(null, 204);
  });
}
