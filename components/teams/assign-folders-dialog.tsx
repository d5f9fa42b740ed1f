'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useId, useState } from 'react';
import { FolderTree } from '@/components/files/folder-tree';
import { Alert } from '@/components/ui/alert';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { AssignmentFooter, ReadOnlyField } from './assignment-dialog-parts';
import { Spinner } from '@/components/ui/spinner';
import { useRootFolder } from '@/lib/api/file-folders';
import { useUpdateTeamAssignments } from '@/lib/api/teams';
import { useErrorMessage } from '@/lib/i18n/errors';

/** Picks media folders of the team's tenant (never the root: it is everyone's) to assign to a team. */
export function AssignFoldersDialog({
  open,
  onOpenChange,
  teamId,
  teamName,
  assignedIds,
  customerId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  teamId: string;
  teamName: string;
  assignedIds: ReadonlySet<string>;
  customerId: number | undefined;
}) {
  const root = useRootFolder();
  const update = useUpdateTeamAssignments(teamId, 'fileFolder', customerId);
  const [picked, setPicked] = useState<Map<string, string>>(new Map());
  const [readOnly, setReadOnly] = useState(false);
  const [apiError, setApiError] = useState<string | null>(null);
  const readOnlyId = useId();
  const t = useTranslations('teams');
  const errorMessage = useErrorMessage();

  useEffect(() => {
    if (open) {
      setPicked(new Map());
      setReadOnly(false);
      setApiError(null);
    }
  }, [open]);

  async function submit() {
    setApiError(null);
    try {
      await update.mutateAsync({ resourcesToAdd: [...picked.keys()].map((id) => ({ id, readOnly })) });
      onOpenChange(false);
    } catch (error) {
      setApiError(errorMessage(error));
    }
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !update.isPending && onOpenChange(next)}>
      <DialogContent
        title={t('assignFolders.title')}
        description={t.rich('assignFolders.description', {
          team: teamName,
          strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
        })}
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (picked.size > 0) void submit();
          }}
        >
          <div className="space-y-4 px-5 py-4">
            {apiError ? <Alert>{apiError}</Alert> : null}
            <div className="max-h-72 overflow-y-auto rounded-md p-1 ring-1 ring-zinc-200">
              {root.data ? (
                <FolderTree
                  rootId={root.data.id}
                  selectedId=""
                  openPath={[]}
                  onSelect={() => undefined}
                  onDrop={() => undefined}
                  pick={{
                    picked: new Set(picked.keys()),
                    disabled: assignedIds,
                    onToggle: (folder) =>
                      setPicked((current) => {
                        const next = new Map(current);
                        if (next.has(folder.id)) next.delete(folder.id);
                        else next.set(folder.id, folder.name ?? '');

                        return next;
                      }),
                  }}
                />
              ) : root.isError ? (
                <p className="px-3 py-4 text-sm text-red-700">{t('assignFolders.loadError', { message: errorMessage(root.error) })}</p>
              ) : (
                <p className="flex items-center gap-2 px-3 py-4 text-sm text-zinc-500">
                  <Spinner /> {t('assignFolders.loading')}
                </p>
              )}
            </div>
            <p className="text-sm text-zinc-500">{t('assignFolders.topLevel')}</p>
            <ReadOnlyField id={readOnlyId} checked={readOnly} onChange={setReadOnly} description={t('assignFolders.readOnlyHint')} />
          </div>
          <AssignmentFooter
            picked={picked.size}
            isPending={update.isPending}
            onCancel={() => onOpenChange(false)}
            submitLabel={t('assignFolders.submit', { count: picked.size })}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
