import type { ServiceContext } from '@/server/context/service-context';
import { definePlugPoint } from '@/server/plug-point';

/**
 * The folders a file view shows beside its files (GET /api/v2/file/view/summary): those matching `search` that the
 * caller sees, projected by `select`, ordered by name, at most `size`, with their previews. The file-folders module
 * plugs it in (its manifest), so this module names no folder module.
 */
export type FolderView = {
  folders: (
    ctx: ServiceContext,
    input: { search?: string; select?: string; size: number },
  ) => Promise<{ content: Record<string, unknown>[]; totalElements: number }>;
};

export const folderViews = definePlugPoint<FolderView>('fileFolderViews', () => 'fileFolderViews');

export function folderView(): FolderView {
  const view = folderViews.items()[0];
  if (!view) throw new Error('No folder view is installed (the file-folders module plugs it in)');

  return view;
}
