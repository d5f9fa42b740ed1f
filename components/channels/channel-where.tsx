'use client';

import { useCallback, useState } from 'react';
import type { ChannelDraft } from '@/components/channels/channel-draft';
import { Chips, FieldError, FolderChooser, QuickFilterField, TagCondition, toggled, type SectionProps } from '@/components/channels/channel-parts';
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

const MODES: Array<{ value: ChannelDraft['mode']; label: string; hint: string }> = [
  { value: 'DYNAMIC', label: 'Folders and tags', hint: 'Screens in the folders (and below), optionally with tags or of teams; new screens there join' },
  { value: 'STATIC', label: 'Chosen screens', hint: 'Exactly the screens you pick' },
  { value: 'QUICK_FILTER', label: 'Screen quick filter', hint: 'The screens a saved screen filter matches' },
];

function LiveCount({ draft, noFolders }: { draft: ChannelDraft; noFolders?: string }) {
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
    <p aria-live="polite" data-testid="target-count" className="flex items-center gap-2 rounded-md bg-zinc-50 px-3 py-2 text-sm text-zinc-700 ring-1 ring-zinc-200 ring-inset">
      <MonitorIcon className="size-4 text-zinc-500" />
      {unbounded ? (
        <span>{noFolders}</span>
      ) : count === null ? (
        'Counting screens…'
      ) : (
        <span>
          {count === 1 ? 'Matches 1 screen' : `Matches ${count} screens`}
          {draft.mode === 'DYNAMIC' && draft.teamIds.length > 0 ? ' of the chosen teams' : ''}
        </span>
      )}
      {isFetching && !unbounded ? <Spinner className="size-3.5" /> : null}
    </p>
  );
}

/** Where the channel plays: folders with tags and teams, chosen screens, or a screen quick filter, with a live count. */
export function ChannelWhere({ draft, set, errors, disabled, isNew, subChannel = false }: Props) {
  const root = useDeviceRoot();
  const [selected, setSelected] = useState('');
  const [text, setText] = useState('');
  const screens = deviceResource.useList({ page: 0, size: 50, sort: 'name,asc', text, status: 'all' }, { enabled: draft.mode === 'STATIC' });
  const setTeams = useCallback((ids: string[]) => set('teamIds', ids), [set]);

  return (
    <div className="space-y-4">
      <fieldset className="space-y-2" disabled={disabled || !isNew}>
        <legend className="mb-1 text-sm font-medium text-zinc-800">Choose screens by {isNew ? '' : '(fixed once saved)'}</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {MODES.map((m) => (
            <label
              key={m.value}
              className={cn('flex cursor-pointer flex-col rounded-lg p-3 text-sm ring-1 ring-inset', draft.mode === m.value ? 'bg-brand-50 ring-brand-500' : 'ring-zinc-200 hover:bg-zinc-50', !isNew && draft.mode !== m.value && 'opacity-50')}
            >
              <span className="flex items-center gap-2 font-medium text-zinc-900">
                <input type="radio" name="deviceSelectionMode" value={m.value} checked={draft.mode === m.value} onChange={() => set('mode', m.value)} className="accent-brand-600" />
                {m.label}
              </span>
              <span className="mt-1 text-zinc-500">{m.hint}</span>
            </label>
          ))}
        </div>
      </fieldset>

      {draft.mode === 'DYNAMIC' ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <div className="space-y-1">
            <p className="text-sm font-medium text-zinc-800">Screen folders</p>
            <FolderChooser
              hint={<>Click a folder to add or remove it; &ldquo;All screens&rdquo; means every screen.</>}
              tree={
                root.data ? (
                  <DeviceFolderTree
                    root={root.data}
                    selectedId={selected}
                    openPath={[]}
                    onSelect={(folder) => {
                      if (disabled) return;
                      setSelected(folder.id);
                      set('deviceFolders', toggled(draft.deviceFolders, { id: folder.id, name: folder.id === root.data?.id ? 'All screens' : (folder.name ?? 'Folder') }));
                    }}
                  />
                ) : null
              }
              // The root folder is "All screens" here as in the tree, whatever its stored name.
              chosen={draft.deviceFolders.map((f) => (f.id === root.data?.id ? { ...f, name: 'All screens' } : f))}
              label="Chosen folders"
              onRemove={(id) => set('deviceFolders', draft.deviceFolders.filter((f) => f.id !== id))}
              error={errors.deviceFolders}
              disabled={disabled}
            />
          </div>
          <div className="space-y-4">
            <TagCondition
              id="channel-device-tags"
              label="Screen tags"
              subject="Screens need"
              suggest="deviceTags"
              tags={draft.deviceTags}
              operator={draft.tagOperator}
              onTags={(tags) => set('deviceTags', tags)}
              onOperator={(op) => set('tagOperator', op)}
              disabled={disabled}
              conditionLabel="Tag condition"
            />
            <TeamChoice
              value={draft.teamIds}
              onChange={setTeams}
              disabled={disabled}
              error={errors.teamAccessList}
              hint="Only the screens of the chosen teams play it."
              empty="No teams: every screen of the folders plays it."
              defaultToOwn={isNew && !subChannel}
            />
          </div>
        </div>
      ) : null}

      {draft.mode === 'STATIC' ? (
        <div className="space-y-2">
          <SearchInput label="Search screens" placeholder="Search screens by name" value={text} onChange={setText} className="w-full max-w-sm" />
          <ul aria-label="Screens" className="max-h-64 divide-y divide-zinc-100 overflow-y-auto rounded-md ring-1 ring-zinc-200 ring-inset">
            {(screens.data?.content ?? []).map((screen) => (
              <li key={screen.id}>
                <label className="flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm hover:bg-zinc-50">
                  <input
                    type="checkbox"
                    className="accent-brand-600"
                    disabled={disabled}
                    checked={draft.devices.some((d) => d.id === screen.id)}
                    onChange={(e) => set('devices', e.target.checked ? [...draft.devices, { id: screen.id, name: screen.name ?? screen.id }] : draft.devices.filter((d) => d.id !== screen.id))}
                  />
                  {screen.name}
                </label>
              </li>
            ))}
          </ul>
          <Chips items={draft.devices} label="Chosen screens" disabled={disabled} onRemove={(id) => set('devices', draft.devices.filter((d) => d.id !== id))} />
          <FieldError message={errors.devices} />
        </div>
      ) : null}

      {draft.mode === 'QUICK_FILTER' ? (
        <QuickFilterField
          id="channel-device-filter"
          label="Screen quick filter"
          type="DEVICE"
          value={draft.deviceQuickFilterId}
          onChange={(id) => set('deviceQuickFilterId', id)}
          error={errors.deviceQuickFilterId}
          disabled={disabled}
        />
      ) : null}

      {draft.mode !== 'DYNAMIC' && !subChannel ? (
        <TeamChoice value={draft.teamIds} onChange={setTeams} disabled={disabled} error={errors.teamAccessList} hint="The teams that see and change this channel." defaultToOwn={isNew} />
      ) : null}

      <LiveCount draft={draft} noFolders={subChannel ? 'No folders: every screen the channel plays on' : undefined} />
    </div>
  );
}
