'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';

/** Picks a target folder in a tree (`tree` draws it with the folder chosen so far) and moves there. */
export function MoveDialog({
  open,
  onOpenChange,
  title,
  description,
  tree,
  onMove,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  tree: (target: string | null, choose: (folderId: string) => void) => ReactNode;
  onMove: (targetFolderId: string) => Promise<unknown>;
}) {
  const [target, setTarget] = useState<string | null>(null);
  useEffect(() => {
    if (open) setTarget(null);
  }, [open]);

  const t = useTranslations('ui.move');

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      confirmLabel={t('here')}
      onConfirm={async () => {
        if (!target) throw new Error(t('chooseFolder'));
        await onMove(target);
      }}
    >
      <div className="max-h-72 overflow-y-auto rounded-md p-1 ring-1 ring-zinc-200">{tree(target, setTarget)}</div>
    </ConfirmDialog>
  );
}
