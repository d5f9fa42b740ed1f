'use client';

import { useFormat } from '@/lib/i18n/use-format';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TagInput } from '@/components/ui/tag-input';
import type { Noun } from '@/lib/format';
import type { TagGroup } from '@/server/modules/tags/tags.schemas';

/** Adding or removing tags on the items selected in a list. */
export type BulkTagsRequest = { ids: string[]; verb: 'add' | 'remove' };

function TagsDialog({
  open,
  onOpenChange,
  title,
  label,
  initial,
  suggest,
  confirmLabel,
  allowEmpty,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  label: string;
  initial: readonly string[];
  suggest: TagGroup;
  confirmLabel: string;
  /** An empty list is a valid answer (clearing one item's tags), not a forgotten field. */
  allowEmpty: boolean;
  onSubmit: (tags: string[]) => Promise<unknown>;
}) {
  const [tags, setTags] = useState<string[]>([]);
  const start = initial.join('\u0000');
  const t = useTranslations('ui.tags');
  useEffect(() => {
    if (open) setTags(start ? start.split('\u0000') : []);
  }, [open, start]);

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      confirmLabel={confirmLabel}
      onConfirm={async () => {
        if (tags.length === 0 && !allowEmpty) throw new Error(t('atLeastOne'));
        await onSubmit(tags);
      }}
    >
      <TagInput value={tags} onChange={setTags} suggest={suggest} label={label} autoFocus />
    </ConfirmDialog>
  );
}

/** Adds tags to, or removes them from, the selected items (`noun` names them: "Add tags to 3 files"). */
export function BulkTagsDialog({
  request,
  noun,
  suggest,
  onOpenChange,
  onSubmit,
}: {
  request: BulkTagsRequest | null;
  noun: Noun;
  suggest: TagGroup;
  onOpenChange: (open: boolean) => void;
  onSubmit: (request: BulkTagsRequest, tags: string[]) => Promise<unknown>;
}) {
  const adding = request?.verb === 'add';
  const t = useTranslations('ui.tags');
  const count = useFormat().count(request?.ids.length ?? 0, noun);

  return (
    <TagsDialog
      open={request !== null}
      onOpenChange={onOpenChange}
      title={adding ? t('addTo', { what: count }) : t('removeFrom', { what: count })}
      label={adding ? t('toAdd') : t('toRemove')}
      initial={[]}
      suggest={suggest}
      confirmLabel={adding ? t('add') : t('remove')}
      allowEmpty={false}
      onSubmit={(tags) => onSubmit(request!, tags)}
    />
  );
}

/** Replaces the tags of one item. */
export function EditTagsDialog({
  item,
  suggest,
  onOpenChange,
  onSubmit,
}: {
  item: { name?: string; tags?: string[] } | null;
  suggest: TagGroup;
  onOpenChange: (open: boolean) => void;
  onSubmit: (tags: string[]) => Promise<unknown>;
}) {
  const t = useTranslations('ui.tags');

  return (
    <TagsDialog
      open={item !== null}
      onOpenChange={onOpenChange}
      title={t('of', { name: item?.name ?? '' })}
      label={t('label')}
      initial={item?.tags ?? []}
      suggest={suggest}
      confirmLabel={t('save')}
      allowEmpty
      onSubmit={onSubmit}
    />
  );
}
