'use client';

import { useTranslations } from 'next-intl';
import { useId, useState, type ReactNode } from 'react';
import { Chips, FolderChooser } from '@/components/channels/channel-parts';
import { DeviceFolderTree } from '@/components/devices/device-folder-tree';
import { FolderTree } from '@/components/files/folder-tree';
import { SearchInput } from '@/components/ui/search-input';
import { Spinner } from '@/components/ui/spinner';
import { TagInput } from '@/components/ui/tag-input';
import { needsInternalDatasource } from '@/components/webhooks/webhook-action-form';
import { useChannels } from '@/lib/api/campaigns';
import { contentResource } from '@/lib/api/content';
import { useDatasources } from '@/lib/api/datasources';
import { useDeviceRoot } from '@/lib/api/device-groups';
import { deviceResource } from '@/lib/api/devices';
import { useBreadcrumb, useRootFolder } from '@/lib/api/file-folders';
import { useTargetNames } from '@/lib/api/webhooks';
import { cn } from '@/lib/cn';
import type { ActionTarget } from '@/server/modules/webhooks/webhooks.schemas';

/*
 * The targets of a webhook action, picked with the console's own pickers: the screens' folder tree, the media
 * library's folder tree, the tag box, and searchable lists of screens (ScreenPicker, also the alert rules'),
 * datasources, channels and content.
 */

type Choice = { id: string; name: string; detail?: string };

/** A searchable list of one resource: checkboxes (several) or radio buttons (one), the chosen ones as chips. */
function SearchList({
  label,
  searchLabel,
  text,
  onText,
  items,
  isPending,
  value,
  single,
  names,
  onChange,
  empty,
}: {
  label: string;
  searchLabel: string;
  text: string;
  onText: (text: string) => void;
  items: Choice[];
  isPending: boolean;
  value: readonly string[];
  single: boolean;
  /** The chosen ones' names (they need not be on the listed page). */
  names: Map<string, string>;
  onChange: (ids: string[]) => void;
  empty: string;
}) {
  const t = useTranslations('webhooks.targets');
  const name = useId();
  const toggle = (id: string, checked: boolean) =>
    onChange(single ? (checked ? [id] : []) : checked ? [...value, id] : value.filter((chosen) => chosen !== id));

  return (
    <div className="space-y-2">
      <Chips
        items={value.map((id) => ({ id, name: names.get(id) ?? items.find((item) => item.id === id)?.name ?? t('loadingName') }))}
        label={t('chosen', { label })}
        disabled={false}
        onRemove={(id) => onChange(value.filter((chosen) => chosen !== id))}
      />
      {/* Enter searches at once (SearchInput); it must not submit the dialog's form around the picker. */}
      <div onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}>
        <SearchInput label={searchLabel} placeholder={searchLabel} value={text} onChange={onText} className="w-full" />
      </div>
      <ul
        aria-label={label}
        className="max-h-52 divide-y divide-zinc-100 overflow-y-auto rounded-md bg-white ring-1 ring-zinc-200 ring-inset"
      >
        {items.map((item) => (
          <li key={item.id}>
            <label className="flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm hover:bg-zinc-50">
              <input
                type={single ? 'radio' : 'checkbox'}
                name={name}
                className="accent-brand-600"
                checked={value.includes(item.id)}
                onChange={(e) => toggle(item.id, e.target.checked)}
              />
              <span className="min-w-0 flex-1 truncate text-zinc-900">{item.name}</span>
              {item.detail ? <span className="shrink-0 text-xs text-zinc-500">{item.detail}</span> : null}
            </label>
          </li>
        ))}
        {isPending ? (
          <li className="flex items-center gap-2 px-3 py-2 text-sm text-zinc-500">
            <Spinner /> {t('loading')}
          </li>
        ) : items.length === 0 ? (
          <li className="px-3 py-2 text-sm text-zinc-500">{text.trim() ? t('noMatch') : empty}</li>
        ) : null}
      </ul>
    </div>
  );
}

const FIRST_PAGE = { page: 0, size: 50, sort: 'name,asc' } as const;

/**
 * A searchable list of the tenant's screens, one chosen (`single`) or several, the chosen ones as chips: the console's
 * screen picker (webhook targets, the screens an alert rule leaves out).
 */
export function ScreenPicker({
  value,
  onChange,
  single,
  label,
}: {
  value: readonly string[];
  onChange: (ids: string[]) => void;
  single: boolean;
  /** What the list and its chips are called (default "Screens"). */
  label?: string;
}) {
  const t = useTranslations('webhooks.targets');
  const [text, setText] = useState('');
  const screens = deviceResource.useList({ ...FIRST_PAGE, text, status: 'all' });
  const names = useTargetNames('device', value);

  return (
    <SearchList
      label={label ?? t('screens')}
      searchLabel={t('searchScreens')}
      text={text}
      onText={setText}
      items={(screens.data?.content ?? []).map((d) => ({ id: d.id, name: d.name ?? d.id }))}
      isPending={screens.isPending}
      value={value}
      single={single}
      names={names.data ?? new Map()}
      onChange={onChange}
      empty={t('noScreens')}
    />
  );
}

function DatasourceList(props: PickerProps) {
  const t = useTranslations('webhooks.targets');
  const [text, setText] = useState('');
  const internal = needsInternalDatasource(props.action);
  const datasources = useDatasources({ ...FIRST_PAGE, text, sourceType: internal ? 'INTERNAL' : 'all' });
  const names = useTargetNames('datasource', props.value);

  return (
    <SearchList
      label={t('datasources')}
      searchLabel={t('searchDatasources')}
      text={text}
      onText={setText}
      items={(datasources.data?.content ?? []).map((d) => ({ id: d.id, name: d.name ?? d.id }))}
      isPending={datasources.isPending}
      value={props.value}
      single={false}
      names={names.data ?? new Map()}
      onChange={props.onChange}
      empty={internal ? t('noInternalDatasources') : t('noDatasources')}
    />
  );
}

function ChannelList(props: PickerProps) {
  const t = useTranslations('webhooks.targets');
  const [text, setText] = useState('');
  const channels = useChannels({ ...FIRST_PAGE, text });
  const names = useTargetNames('campaign', props.value);

  return (
    <SearchList
      label={t('channels')}
      searchLabel={t('searchChannels')}
      text={text}
      onText={setText}
      items={(channels.data?.content ?? []).map((c) => ({ id: String(c.id), name: c.name ?? String(c.id) }))}
      isPending={channels.isPending}
      value={props.value}
      single={false}
      names={names.data ?? new Map()}
      onChange={props.onChange}
      empty={t('noChannels')}
    />
  );
}

function DeviceFolders(props: PickerProps) {
  const t = useTranslations('webhooks.targets');
  const root = useDeviceRoot();
  const names = useTargetNames('deviceGroup', props.value, t('allScreens'));
  const nameOf = (id: string) => names.data?.get(id) ?? t('loadingName');

  return (
    <FolderChooser
      hint={t('foldersHint')}
      tree={
        root.data ? (
          <DeviceFolderTree
            root={root.data}
            selectedId={props.value.at(-1) ?? ''}
            openPath={[]}
            onSelect={(folder) =>
              props.onChange(props.value.includes(folder.id) ? props.value.filter((id) => id !== folder.id) : [...props.value, folder.id])
            }
          />
        ) : null
      }
      chosen={props.value.map((id) => ({ id, name: nameOf(id) }))}
      label={t('chosenFolders')}
      onRemove={(id) => props.onChange(props.value.filter((chosen) => chosen !== id))}
      disabled={false}
    />
  );
}

function MediaFolder(props: PickerProps) {
  const t = useTranslations('webhooks.targets');
  const media = useTranslations('media');
  const root = useRootFolder();
  const folderId = props.value[0] ?? '';
  const crumbs = useBreadcrumb(folderId && folderId !== root.data?.id ? folderId : null);
  const path = folderId === root.data?.id ? [] : (crumbs.data ?? []);
  const chosen = !folderId
    ? t('noMediaFolder')
    : folderId === root.data?.id
      ? media('allMedia')
      : path.map((f, i) => (i === 0 ? media('allMedia') : f.name)).join(' / ');

  return (
    <div className="space-y-2">
      <p className="text-sm text-zinc-700" data-testid="webhook-media-folder">
        {chosen}
      </p>
      <div className="max-h-56 overflow-y-auto rounded-md p-1 ring-1 ring-zinc-200">
        {root.data ? (
          <FolderTree
            rootId={root.data.id}
            selectedId={folderId}
            openPath={path.map((f) => f.id)}
            onSelect={(id) => props.onChange([id])}
            onDrop={() => undefined}
          />
        ) : (
          <Spinner className="m-2 size-4" />
        )}
      </div>
    </div>
  );
}

type PickerProps = { action: string; value: readonly string[]; onChange: (ids: string[]) => void };

/** The picker of an action's targets, by what the action type targets; nothing for an action without targets. */
export function TargetPicker({ target, action, value, onChange, error }: PickerProps & { target: ActionTarget; error?: string }) {
  const t = useTranslations('webhooks.targets');
  const id = useId();
  if (target === 'none') return null;
  const isCampaign = action.endsWith('_BY_TAGS');
  const pickers: Record<Exclude<ActionTarget, 'none'>, { label: string; hint?: string; picker: ReactNode }> = {
    device: { label: t('screen'), picker: <ScreenPicker value={value} onChange={onChange} single /> },
    deviceGroup: { label: t('deviceFolders'), picker: <DeviceFolders action={action} value={value} onChange={onChange} /> },
    tag: {
      label: isCampaign ? t('channelTags') : t('screenTags'),
      hint: isCampaign ? t('channelTagsHint') : t('screenTagsHint'),
      picker: <TagInput id={`${id}-tags`} value={[...value]} onChange={onChange} suggest={isCampaign ? 'campaignTags' : 'deviceTags'} />,
    },
    datasource: { label: t('datasources'), picker: <DatasourceList action={action} value={value} onChange={onChange} /> },
    campaign: { label: t('channels'), picker: <ChannelList action={action} value={value} onChange={onChange} /> },
    fileFolder: { label: t('mediaFolder'), picker: <MediaFolder action={action} value={value} onChange={onChange} /> },
  };
  const { label, hint, picker } = pickers[target];

  return (
    <div role="group" aria-labelledby={`${id}-label`} className="space-y-1.5" data-testid="webhook-target-picker">
      <p id={`${id}-label`} className="text-sm font-medium text-zinc-800">
        {label}
      </p>
      {hint ? <p className="text-sm text-zinc-500">{hint}</p> : null}
      <div className={cn(error && 'rounded-md ring-1 ring-red-300 ring-offset-2')}>{picker}</div>
      {error ? <p className="text-sm text-red-700">{error}</p> : null}
    </div>
  );
}

/** The content an assign or preview action shows: one item of the library, or none (the payload's `contentId`). */
export function ContentPicker({ value, onChange, label }: { value: string; onChange: (id: string) => void; label: string }) {
  const t = useTranslations('webhooks.targets');
  const [text, setText] = useState('');
  const content = contentResource.useList({ ...FIRST_PAGE, text, kind: 'all', folderId: '' });
  const chosen = contentResource.useDetail(value || null, { select: 'name' });
  const names = new Map(value && chosen.data?.name ? [[value, chosen.data.name]] : []);

  return (
    <div role="group" aria-label={label} className="space-y-1.5">
      <p className="text-sm font-medium text-zinc-800">{label}</p>
      <SearchList
        label={label}
        searchLabel={t('searchContent')}
        text={text}
        onText={setText}
        items={(content.data?.content ?? []).map((c) => ({ id: c.id, name: c.name ?? c.id }))}
        isPending={content.isPending}
        value={value ? [value] : []}
        single
        names={names}
        onChange={(ids) => onChange(ids[0] ?? '')}
        empty={t('noContent')}
      />
      <p className="text-sm text-zinc-500">{t('contentHint')}</p>
    </div>
  );
}
