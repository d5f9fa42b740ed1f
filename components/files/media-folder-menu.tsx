'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { FolderLibraryState } from '@/components/folders/use-folder-library';
import { ResourceTeamsEditor } from '@/components/teams/resource-teams';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { RowActions } from '@/components/ui/row-actions';
import type { FileFolder } from '@/lib/api/file-folders';
import { useTenant } from '@/lib/tenant/tenant-context';

/** The actions of the media folder shown (not the root): rename, move, its teams (OWNER), delete (when the profile allows). */
export function MediaFolderMenu({
  library,
  folder,
  onMove,
  canManageTeams,
  canDelete,
}: {
  library: FolderLibraryState<FileFolder>;
  folder: FileFolder;
  onMove: (folder: FileFolder) => void;
  canManageTeams: boolean;
  canDelete: boolean;
}) {
  const t = useTranslations('media.page');
  const [teams, setTeams] = useState<FileFolder | null>(null);

  return (
    <>
      <RowActions label={t('folderActions', { name: folder.name ?? '' })}>
        <DropdownMenuItem onSelect={() => library.folderDialog.show('rename', folder)}>{t('renameFolder')}</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => onMove(folder)}>{t('moveFolder')}</DropdownMenuItem>
        {canManageTeams ? <DropdownMenuItem onSelect={() => setTeams(folder)}>{t('teams')}</DropdownMenuItem> : null}
        {canDelete ? (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
              onSelect={() => library.folderDialog.show('delete', folder)}
            >
              {t('deleteFolder')}
            </DropdownMenuItem>
          </>
        ) : null}
      </RowActions>
      {canManageTeams ? <FolderTeamsDialog folder={teams} onOpenChange={(open) => !open && setTeams(null)} /> : null}
    </>
  );
}

/** The teams of a media folder (open while `folder` is set; OWNER only). */
function FolderTeamsDialog({ folder, onOpenChange }: { folder: FileFolder | null; onOpenChange: (open: boolean) => void }) {
  const t = useTranslations('media');
  const { customerId } = useTenant();

  return (
    <Dialog open={folder !== null} onOpenChange={onOpenChange}>
      <DialogContent
        title={t('page.folderTeams')}
        description={t.rich('page.folderTeamsText', {
          name: folder?.name ?? '',
          em: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
        })}
      >
        <div className="px-5 py-4">
          {folder ? (
            <ResourceTeamsEditor
              type="fileFolder"
              resourceId={folder.id}
              resourceName={folder.name ?? t('theFolder')}
              customerId={customerId}
              canManage
            />
          ) : null}
        </div>
      </DialogContent>
    </Dialog>
  );
}
