'use client';

import { useTranslations } from 'next-intl';
import { useCallback, useState } from 'react';
import type { ChannelDraft } from '@/components/channels/channel-draft';
import {
  Chips,
  FieldError,
  FolderChooser,
  QuickFilterField,
  TagCondition,
  toggled,
  type SectionProps,
} from '@/components/channels/channel-parts';
import { DeviceFolderTree } from '@/components/devices/device-folder-tree';
import { TeamChoice } from '@/components/teams/team-choice';
import { MonitorIcon } from '@/components/ui/icons';
import { SearchInput } from '@/components/ui/search-input';
import { Spinner } from '@/components/ui/spinner';
import { useTargetCount } from '@/lib/api/campaigns';
import { useDeviceRoot } from '@/lib/api/device-groups';
import { deviceResource } from '@/lib/api/devices';
import { cn } from '@/lib/cn';

type Props = SectionProps & {
  /** Saved channels keep their device selection (the API ignores a change). */
  isNew: boolean;
  /**
   * A sub-channel's targeting: DYNAMIC without folders means every screen of its channel, and its teams only
   * narrow DYNAMIC screens (no team is required of it, so none is picked by default).
   */
  subChannel?: boolean;
};

const MODES: ReadonlyArray<ChannelDraft['mode']> = ['DYNAMIC', 'STATIC', 'QUICK_FILTER'];

function LiveCount({ draft, noFolders }: { draft: ChannelDraft; noFolders?: string }) {
  const t = useTranslations('channels.where');
  const { count, isFetching } = useTargetCount({
    ...draft,
    folderIds: draft.deviceFolders.map((f) => f.id),
    deviceIds: draft.devices.map((d) => d.id),
    tags: draft.deviceTags,
    quickFilterId: draft.deviceQuickFilterId,
    teamIds: draft.teamIds,
  });
  const unbounded = noFolders !== undefined && draft.mode === 'DYNAMIC' && draft.deviceFolders.length === 0;

  return (
    <p
      aria-live="polite"
      data-testid="target-count"
      className="flex items-center gap-2 rounded-md bg-zinc-50 px-3 py-2 text-sm text-zinc-700 ring-1 ring-zinc-200 ring-inset"
    >
      <MonitorIcon className="size-4 text-zinc-500" />
      {unbounded ? (
        <span>{noFolders}</span>
      ) : count === null ? (
        t('counting')
      ) : (
        <span>{t(draft.mode === 'DYNAMIC' && draft.teamIds.length > 0 ? 'matchesOfTeams' : 'matches', { count })}</span>
      )}
      {isFetching && !unbounded ? <Spinner className="size-3.5" /> : null}
    </p>
  );
}

/** Where the channel plays: folders with tags and teams, chosen screens, or a screen quick filter, with a live count. */
export function ChannelWhere({ draft, set, errors, disabled, isNew, subChannel = false }: Props) {
  const t = useTranslations('channels.where');
  const root = useDeviceRoot();
  const [selected, setSelected] = useState('');
  const [text, setText] = useState('');
  const screens = deviceResource.useList(
    { page: 0, size: 50, sort: 'name,asc', text, status: 'all' },
    { enabled: draft.mode === 'STATIC' },
  );
  const setTeams = useCallback((ids: string[]) => set('teamIds', ids), [set]);

  return (
    <div className="space-y-4">
      <fieldset className="space-y-2" disabled={disabled || !isNew}>
        <legend className="mb-1 text-sm font-medium text-zinc-800">{isNew ? t('mode') : t('modeFixed')}</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {MODES.map((m) => (
            <label
              key={m}
              className={cn(
                'flex cursor-pointer flex-col rounded-lg p-3 text-sm ring-1 ring-inset',
                draft.mode === m ? 'bg-brand-50 ring-brand-500' : 'ring-zinc-200 hover:bg-zinc-50',
                !isNew && draft.mode !== m && 'opacity-50',
              )}
            >
              <span className="flex items-center gap-2 font-medium text-zinc-900">
                <input
                  type="radio"
                  name="deviceSelectionMode"
                  value={m}
                  checked={draft.mode === m}
                  onChange={() => set('mode', m)}
                  className="accent-brand-600"
                />
                {t(`modes.${m}.label`)}
              </span>
              <span className="mt-1 text-zinc-500">{t(`modes.${m}.hint`)}</span>
            </label>
          ))}
        </div>
      </fieldset>

      {draft.mode === 'DYNAMIC' ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <div className="space-y-1">
            <p className="text-sm font-medium text-zinc-800">{t('folders')}</p>
            <FolderChooser
              hint={t('folderHint')}
              tree={
                root.data ? (
                  <DeviceFolderTree
                    root={root.data}
                    selectedId={selected}
                    openPath={[]}
                    onSelect={(folder) => {
                      if (disabled) return;
                      setSelected(folder.id);
                      set(
                        'deviceFolders',
                        toggled(draft.deviceFolders, {
                          id: folder.id,
                          name: folder.id === root.data?.id ? t('allScreens') : (folder.name ?? t('folder')),
                        }),
                      );
                    }}
                  />
                ) : null
              }
              // The root folder is "All screens" here as in the tree, whatever its stored name.
              chosen={draft.deviceFolders.map((f) => (f.id === root.data?.id ? { ...f, name: t('allScreens') } : f))}
              label={t('chosenFolders')}
              onRemove={(id) =>
                set(
                  'deviceFolders',
                  draft.deviceFolders.filter((f) => f.id !== id),
                )
              }
              error={errors.deviceFolders}
              disabled={disabled}
            />
          </div>
          <div className="space-y-4">
            <TagCondition
              id="channel-device-tags"
              label={t('tags')}
              subject={t('screensNeed')}
              suggest="deviceTags"
              tags={draft.deviceTags}
              operator={draft.tagOperator}
              onTags={(tags) => set('deviceTags', tags)}
              onOperator={(op) => set('tagOperator', op)}
              disabled={disabled}
              conditionLabel={t('tagCondition')}
            />
            <TeamChoice
              value={draft.teamIds}
              onChange={setTeams}
              disabled={disabled}
              error={errors.teamAccessList}
              hint={t('teamsHint')}
              empty={t('noTeams')}
              defaultToOwn={isNew && !subChannel}
            />
          </div>
        </div>
      ) : null}

      {draft.mode === 'STATIC' ? (
        <div className="space-y-2">
          <SearchInput
            label={t('search')}
            placeholder={t('searchPlaceholder')}
            value={text}
            onChange={setText}
            className="w-full max-w-sm"
          />
          <ul
            aria-label={t('screens')}
            className="max-h-64 divide-y divide-zinc-100 overflow-y-auto rounded-md ring-1 ring-zinc-200 ring-inset"
          >
            {(screens.data?.content ?? []).map((screen) => (
              <li key={screen.id}>
                <label className="flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm hover:bg-zinc-50">
                  <input
                    type="checkbox"
                    className="accent-brand-600"
                    disabled={disabled}
                    checked={draft.devices.some((d) => d.id === screen.id)}
                    onChange={(e) =>
                      set(
                        'devices',
                        e.target.checked
                          ? [...draft.devices, { id: screen.id, name: screen.name ?? screen.id }]
                          : draft.devices.filter((d) => d.id !== screen.id),
                      )
                    }
                  />
                  {screen.name}
                </label>
              </li>
            ))}
          </ul>
          <Chips
            items={draft.devices}
            label={t('chosenScreens')}
            disabled={disabled}
            onRemove={(id) =>
              set(
                'devices',
                draft.devices.filter((d) => d.id !== id),
              )
            }
          />
          <FieldError message={errors.devices} />
        </div>
      ) : null}

      {draft.mode === 'QUICK_FILTER' ? (
        <QuickFilterField
          id="channel-device-filter"
          label={t('modes.QUICK_FILTER.label')}
          type="DEVICE"
          value={draft.deviceQuickFilterId}
          onChange={(id) => set('deviceQuickFilterId', id)}
          error={errors.deviceQuickFilterId}
          disabled={disabled}
        />
      ) : null}

      {draft.mode !== 'DYNAMIC' && !subChannel ? (
        <TeamChoice
          value={draft.teamIds}
          onChange={setTeams}
          disabled={disabled}
          error={errors.teamAccessList}
          hint={t('teamsOfChannel')}
          defaultToOwn={isNew}
        />
      ) : null}

      <LiveCount draft={draft} noFolders={subChannel ? t('noFolders') : undefined} />
    </div>
  );
}
