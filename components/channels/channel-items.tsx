'use client';

import { useTranslations } from 'next-intl';
import { useState, type DragEvent } from 'react';
import type { ChannelDraft } from '@/components/channels/channel-draft';
import { typeUses } from '@/components/channels/channel-draft';
import { FieldError, FolderChooser, QuickFilterField, toggled, type SectionProps } from '@/components/channels/channel-parts';
import { ContentFolderTree } from '@/components/content/content-folder-tree';
import { MediaPicker, PICKED_MIME, type PickedItem } from '@/components/content/media-picker';
import { Button } from '@/components/ui/button';
import { ArrowDownIcon, ArrowUpIcon, XIcon } from '@/components/ui/icons';
import { useMessageGroupChoices } from '@/lib/api/campaigns';
import { useContentRoot } from '@/lib/api/content-groups';
import { cn } from '@/lib/cn';
import { useLabel } from '@/lib/i18n/labels';

type Props = SectionProps;

type ListKey = 'contents' | 'files' | 'fileFolders';

/** The draft list a picked library item goes to for the channel's type; null: it does not fit. */
function listFor(type: ChannelDraft['type'], item: PickedItem): ListKey | null {
  const uses = typeUses(type);
  if ((item.type === 'CONTENT' || item.type === 'SIMPLE_LOOP') && uses.contents) return 'contents';
  if (item.type === 'FILE' && uses.files) return 'files';
  if (item.type === 'FILE_FOLDER' && uses.fileFolders) return 'fileFolders';

  return null;
}

/** The ordered items of a static list (first plays first), with drop from the library. */
function PickedList({ list, draft, set, errors, disabled }: Props & { list: ListKey }) {
  const t = useTranslations('channels.items');
  const [over, setOver] = useState(false);
  const items = draft[list];
  const add = (item: PickedItem) => {
    if (listFor(draft.type, item) !== list || items.some((i) => i.id === item.id)) return;
    set(list, [...items, { id: item.id, name: item.name }]);
  };
  const move = (i: number, by: number) => {
    const next = [...items];
    const [moved] = next.splice(i, 1);
    next.splice(i + by, 0, moved!);
    set(list, next);
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const raw = e.dataTransfer.getData(PICKED_MIME);
    if (raw && !disabled) add(JSON.parse(raw) as PickedItem);
  };

  return (
    <div
      data-testid="channel-drop"
      onDragOver={(e) => {
        if (disabled || !e.dataTransfer.types.includes(PICKED_MIME)) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      className={cn(
        'min-h-28 rounded-lg border-2 border-dashed p-2',
        over ? 'border-brand-500 bg-brand-50' : 'border-zinc-200',
        errors[list] && 'border-red-300',
      )}
    >
      <p className="px-1 pb-1 text-sm font-medium text-zinc-800">{t(`${list}.label`)}</p>
      {items.length === 0 ? <p className="px-1 py-4 text-center text-sm text-zinc-500">{t(`${list}.empty`)}</p> : null}
      <ol aria-label={t(`${list}.label`)} className="space-y-1">
        {items.map((item, i) => (
          <li key={item.id} className="flex items-center gap-2 rounded-md bg-white px-2 py-1.5 text-sm ring-1 ring-zinc-200 ring-inset">
            <span className="w-5 text-right text-xs text-zinc-400 tabular-nums">{i + 1}</span>
            <span className="min-w-0 flex-1 truncate text-zinc-800">{item.name}</span>
            {list !== 'fileFolders' ? (
              <>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={t('moveUp', { name: item.name })}
                  disabled={disabled || i === 0}
                  onClick={() => move(i, -1)}
                >
                  <ArrowUpIcon className="size-3.5" />
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={t('moveDown', { name: item.name })}
                  disabled={disabled || i === items.length - 1}
                  onClick={() => move(i, 1)}
                >
                  <ArrowDownIcon className="size-3.5" />
                </Button>
              </>
            ) : null}
            <Button
              variant="ghost"
              size="sm"
              aria-label={t('remove', { name: item.name })}
              disabled={disabled}
              onClick={() =>
                set(
                  list,
                  items.filter((x) => x.id !== item.id),
                )
              }
            >
              <XIcon className="size-3.5" />
            </Button>
          </li>
        ))}
      </ol>
      {errors[list] ? <p className="px-1 pt-1 text-sm text-red-700">{errors[list]}</p> : null}
    </div>
  );
}

/** What the channel plays, by type: picked items, folders, message groups or a quick filter. */
export function ChannelItems(props: Props) {
  const { draft, set, errors, disabled } = props;
  const t = useTranslations('channels.items');
  const label = useLabel();
  const uses = typeUses(draft.type);
  const contentRoot = useContentRoot();
  const groups = useMessageGroupChoices(uses.messageGroups);

  if (uses.contents || uses.files || uses.fileFolders) {
    const list: ListKey = uses.contents ? 'contents' : uses.files ? 'files' : 'fileFolders';

    return <PickedList {...props} list={list} />;
  }
  if (uses.contentFolders) {
    return (
      <FolderChooser
        hint={t('folderHint')}
        tree={
          contentRoot.data ? (
            <ContentFolderTree
              root={contentRoot.data}
              selectedId=""
              openPath={[]}
              onSelect={(folder) =>
                !disabled &&
                set(
                  'contentFolders',
                  toggled(draft.contentFolders, {
                    id: folder.id,
                    name: folder.id === contentRoot.data?.id ? t('allContent') : (folder.name ?? t('folder')),
                  }),
                )
              }
            />
          ) : null
        }
        chosen={draft.contentFolders}
        label={t('chosenFolders')}
        onRemove={(id) =>
          set(
            'contentFolders',
            draft.contentFolders.filter((f) => f.id !== id),
          )
        }
        error={errors.contentFolders}
        disabled={disabled}
      />
    );
  }
  if (uses.messageGroups) {
    return (
      <fieldset className="space-y-1.5" disabled={disabled}>
        <legend className="text-sm font-medium text-zinc-800">{t('messageGroups')}</legend>
        {groups.isSuccess && groups.data.content.length === 0 ? <p className="text-sm text-zinc-500">{t('noMessageGroups')}</p> : null}
        {(groups.data?.content ?? []).map((g) => (
          <label key={g.id} className="flex items-center gap-2 text-sm text-zinc-700">
            <input
              type="checkbox"
              className="accent-brand-600"
              checked={draft.messageGroups.some((m) => m.id === g.id)}
              onChange={() => set('messageGroups', toggled(draft.messageGroups, { id: g.id, name: g.name ?? `#${g.id}` }))}
            />
            {g.name}
          </label>
        ))}
        <FieldError message={errors.messageGroups} />
      </fieldset>
    );
  }
  const filterKey = uses.contentQuickFilter ? 'contentQuickFilterId' : 'fileQuickFilterId';

  return (
    <QuickFilterField
      id="channel-item-filter"
      label={label('channelType', uses.contentQuickFilter ? 'CONTENT_QUICK_FILTER' : 'ASSET_QUICK_FILTER')}
      type={uses.contentQuickFilter ? 'CONTENT' : 'FILE'}
      value={draft[filterKey]}
      onChange={(id) => set(filterKey, id)}
      error={errors[filterKey]}
      disabled={disabled}
    />
  );
}

/** The library beside the editor, for the types that pick items (drag or +). */
export function ChannelLibrary({ draft, set }: Pick<Props, 'draft' | 'set'>) {
  const add = (item: PickedItem) => {
    const list = listFor(draft.type, item);
    if (!list || draft[list].some((i) => i.id === item.id)) return;
    set(list, [...draft[list], { id: item.id, name: item.name }]);
  };

  return <MediaPicker onAdd={add} excludeId="" />;
}
