'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { useAccessScopeNote } from '@/components/teams/use-access-scope';
import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { airingOf, channelStatus, isOnAir, useChannelWords } from '@/components/channels/channel-words';
import { NoAccess } from '@/components/settings/no-access';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { LockIcon, PlayIcon, PlusIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { PageHeader } from '@/components/ui/page-header';
import { RowActions } from '@/components/ui/row-actions';
import {
  useChannelAirings,
  useChannels,
  useDeleteChannel,
  useUpdateChannel,
  type Campaign,
  type CampaignAiring,
} from '@/lib/api/campaigns';
import { useChannelAccess } from '@/components/channels/channel-access';
import { useLabel, type Label } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import { sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'type', 'enabled', 'weight'] as const;

function EnabledSwitch({ channel, disabled }: { channel: Campaign; disabled: boolean }) {
  const t = useTranslations('channels.list');
  const update = useUpdateChannel();
  const on = channel.enabled !== false;

  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-label={t('enabledSwitch', { name: channel.name ?? '' })}
      disabled={disabled || update.isPending}
      onClick={() => update.mutate({ id: channel.id, body: { enabled: !on } })}
      className="relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full bg-zinc-300 transition-colors disabled:cursor-not-allowed disabled:opacity-50 aria-checked:bg-brand-600"
    >
      <span
        className={`inline-block size-4 rounded-full bg-white shadow transition-transform ${on ? 'translate-x-4.5' : 'translate-x-0.5'}`}
      />
    </button>
  );
}

type Words = { t: Translate<'channels'>; label: Label; words: ReturnType<typeof useChannelWords> };

function buildColumns(
  { t, label, words }: Words,
  canEdit: boolean,
  airings: Map<number, CampaignAiring>,
  onDelete: (c: Campaign) => void,
): ColumnDef<Campaign>[] {
  return [
    {
      id: 'name',
      meta: { size: 200 },
      accessorKey: 'name',
      header: t('channel'),
      cell: ({ row }) => (
        <div className="flex min-w-0 items-center gap-2">
          <Link href={`/channels/${row.original.id}`} className="font-medium text-zinc-900 hover:text-brand-700 hover:underline">
            {row.original.name}
          </Link>
          {row.original.locked ? <LockIcon className="size-3.5 text-zinc-400" aria-label={t('locked')} /> : null}
          {row.original.readOnly ? <Badge>{t('list.readOnly')}</Badge> : null}
        </div>
      ),
    },
    {
      id: 'enabled',
      meta: { priority: 1, size: 150 },
      accessorKey: 'enabled',
      header: t('list.columns.status'),
      cell: ({ row }) => {
        const status = channelStatus(row.original);

        return (
          <div className="flex items-center gap-2">
            {canEdit ? (
              <EnabledSwitch channel={row.original} disabled={row.original.readOnly === true || row.original.locked === true} />
            ) : null}
            <Badge tone={status.tone}>{words.status(status)}</Badge>
          </div>
        );
      },
    },
    {
      id: 'type',
      meta: { priority: 4, size: 110 },
      accessorKey: 'type',
      header: t('list.columns.type'),
      cell: ({ row }) => <span className="text-zinc-600">{label('channelType', row.original.type)}</span>,
    },
    {
      id: 'screens',
      meta: { priority: 3, size: 110 },
      header: t('list.columns.where'),
      enableSorting: false,
      cell: ({ row }) => (
        <span className="whitespace-nowrap text-zinc-600">
          {row.original.affectedScreenCount === undefined ? '—' : t('list.screens', { count: row.original.affectedScreenCount })}
        </span>
      ),
    },
    {
      id: 'airing',
      meta: { priority: 2, size: 180 },
      header: t('nextAiring'),
      enableSorting: false,
      cell: ({ row }) => {
        const airing = airingOf(airings.get(row.original.id), row.original.enabled, row.original.affectedScreenCount);

        return (
          <span
            className={`inline-flex items-center gap-1 whitespace-nowrap ${isOnAir(airing) ? 'font-medium text-emerald-700' : 'text-zinc-600'}`}
          >
            {isOnAir(airing) ? <PlayIcon className="size-3.5" /> : null}
            {words.airing(airing)}
          </span>
        );
      },
    },
    {
      id: 'weight',
      meta: { priority: 5, size: 80 },
      accessorKey: 'weight',
      header: t('order'),
      cell: ({ row }) => <span className="text-zinc-600 tabular-nums">{row.original.weight ?? '—'}</span>,
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('list.columns.actions')}</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const channel = row.original;
        const writable = canEdit && !channel.readOnly && !channel.locked;

        return (
          <RowActions label={t('list.actionsFor', { name: channel.name ?? '' })}>
            <DropdownMenuItem asChild>
              <Link href={`/channels/${channel.id}`}>{writable ? t('list.edit') : t('list.open')}</Link>
            </DropdownMenuItem>
            {writable ? (
              <>
                <DropdownMenuSeparator />
                <DropdownMenuItem
                  className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
                  onSelect={() => onDelete(channel)}
                >
                  {t('list.delete')}
                </DropdownMenuItem>
              </>
            ) : null}
          </RowActions>
        );
      },
    },
  ];
}

export function ChannelsPage() {
  const t = useTranslations('channels');
  const label = useLabel();
  const words = useChannelWords();
  const access = useChannelAccess();
  const scopeNote = useAccessScopeNote('channels');
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE });
  const { params } = list;
  const query = useChannels({ page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text });
  const ids = (query.data?.content ?? []).map((c) => c.id);
  const airingQuery = useChannelAirings(ids);
  const airings = useMemo(() => new Map((airingQuery.data ?? []).map((a) => [a.id, a])), [airingQuery.data]);
  const [deleting, setDeleting] = useState<Campaign | null>(null);
  const remove = useDeleteChannel();
  const columns = useMemo(
    () => buildColumns({ t, label, words }, access.canEdit, airings, setDeleting),
    [t, label, words, access.canEdit, airings],
  );
  if (!access.canView) return <NoAccess title={t('noAccess.title')}>{t('noAccess.body')}</NoAccess>;
  const newButton = access.canEdit ? (
    <Button asChild>
      <Link href="/channels/new">
        <PlusIcon className="size-4" />
        {t('newChannel')}
      </Link>
    </Button>
  ) : null;

  return (
    <>
      <PageHeader title={t('title')} description={`${t('list.description')} ${t('layers')}`} actions={newButton} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t('list.deleteTitle')}
        description={t.rich('list.deleteBody', {
          name: deleting?.name ?? '',
          strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
        })}
        confirmLabel={t('list.deleteConfirm')}
        destructive
        onConfirm={async () => {
          if (deleting) await remove.mutateAsync(deleting.id);
        }}
      />
      <ResourceList
        identity={{ name: 'channels', noun: { one: t('list.noun.one'), other: t('list.noun.other') } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(channel) => String(channel.id)}
        sortable={SORTABLE}
        search={{ label: t('list.searchLabel'), placeholder: t('list.searchPlaceholder') }}
        errorTitle={t('list.loadError')}
        empty={{
          icon: <PlayIcon className="size-5 text-zinc-500" />,
          title: scopeNote ? t('list.emptyScoped') : t('list.empty'),
          body: scopeNote ?? t('list.emptyBody'),
          action: newButton,
        }}
      />
    </>
  );
}
