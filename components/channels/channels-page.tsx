'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { useAccessScopeNote } from '@/components/teams/use-access-scope';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { airingText, channelStatus, typeLabel } from '@/components/channels/channel-words';
import { NoAccess } from '@/components/settings/no-access';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { LockIcon, PlayIcon, PlusIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { PageHeader } from '@/components/ui/page-header';
import { RowActions } from '@/components/ui/row-actions';
import { useChannelAirings, useChannels, useDeleteChannel, useUpdateChannel, type Campaign, type CampaignAiring } from '@/lib/api/campaigns';
import { useChannelAccess } from '@/components/channels/channel-access';
import { sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import { LAYERS_SENTENCE } from '@/lib/schedule/layer-labels';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'type', 'enabled', 'weight'] as const;

const screensText = (n: number | undefined) => (n === undefined ? '—' : n === 1 ? 'plays on 1 screen' : `plays on ${n} screens`);

function EnabledSwitch({ channel, disabled }: { channel: Campaign; disabled: boolean }) {
  const update = useUpdateChannel();
  const on = channel.enabled !== false;

  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-label={`${channel.name} enabled`}
      disabled={disabled || update.isPending}
      onClick={() => update.mutate({ id: channel.id, body: { enabled: !on } })}
      className="relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full bg-zinc-300 transition-colors disabled:cursor-not-allowed disabled:opacity-50 aria-checked:bg-brand-600"
    >
      <span className={`inline-block size-4 rounded-full bg-white shadow transition-transform ${on ? 'translate-x-4.5' : 'translate-x-0.5'}`} />
    </button>
  );
}

function buildColumns(canEdit: boolean, airings: Map<number, CampaignAiring>, onDelete: (c: Campaign) => void): ColumnDef<Campaign>[] {
  return [
    {
      id: 'name', meta: { size: 200 },
      accessorKey: 'name',
      header: 'Channel',
      cell: ({ row }) => (
        <div className="flex min-w-0 items-center gap-2">
          <Link href={`/channels/${row.original.id}`} className="font-medium text-zinc-900 hover:text-brand-700 hover:underline">
            {row.original.name}
          </Link>
          {row.original.locked ? <LockIcon className="size-3.5 text-zinc-400" aria-label="Locked" /> : null}
          {row.original.readOnly ? <Badge>Read-only</Badge> : null}
        </div>
      ),
    },
    {
      id: 'enabled', meta: { priority: 1, size: 150 },
      accessorKey: 'enabled',
      header: 'Status',
      cell: ({ row }) => {
        const status = channelStatus(row.original);

        return (
          <div className="flex items-center gap-2">
            {canEdit ? <EnabledSwitch channel={row.original} disabled={row.original.readOnly === true || row.original.locked === true} /> : null}
            <Badge tone={status.tone}>{status.label}</Badge>
          </div>
        );
      },
    },
    { id: 'type', meta: { priority: 4, size: 110 }, accessorKey: 'type', header: 'Type', cell: ({ row }) => <span className="text-zinc-600">{typeLabel(row.original.type)}</span> },
    {
      id: 'screens', meta: { priority: 3, size: 110 },
      header: 'Where',
      enableSorting: false,
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{screensText(row.original.affectedScreenCount)}</span>,
    },
    {
      id: 'airing', meta: { priority: 2, size: 180 },
      header: 'Next airing',
      enableSorting: false,
      cell: ({ row }) => {
        const text = airingText(airings.get(row.original.id), row.original.enabled, row.original.affectedScreenCount);

        return (
          <span className={`inline-flex items-center gap-1 whitespace-nowrap ${text.startsWith('On air') ? 'font-medium text-emerald-700' : 'text-zinc-600'}`}>
            {text.startsWith('On air') ? <PlayIcon className="size-3.5" /> : null}
            {text}
          </span>
        );
      },
    },
    { id: 'weight', meta: { priority: 5, size: 80 }, accessorKey: 'weight', header: 'Order', cell: ({ row }) => <span className="text-zinc-600 tabular-nums">{row.original.weight ?? '—'}</span> },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const channel = row.original;
        const writable = canEdit && !channel.readOnly && !channel.locked;

        return (
          <RowActions label={`Actions for ${channel.name}`}>
            <DropdownMenuItem asChild>
              <Link href={`/channels/${channel.id}`}>{writable ? 'Edit' : 'Open'}</Link>
            </DropdownMenuItem>
            {writable ? (
              <>
                <DropdownMenuSeparator />
                <DropdownMenuItem className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800" onSelect={() => onDelete(channel)}>
                  Delete
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
  const columns = useMemo(() => buildColumns(access.canEdit, airings, setDeleting), [access.canEdit, airings]);
  if (!access.canView) return <NoAccess title="Channels are not available to you">Your role cannot see channels.</NoAccess>;
  const newButton = access.canEdit ? (
    <Button asChild>
      <Link href="/channels/new">
        <PlusIcon className="size-4" />
        New channel
      </Link>
    </Button>
  ) : null;

  return (
    <>
      <PageHeader title="Channels" description={`What plays on your screens, where and when: each channel's content, its screens and its hours. ${LAYERS_SENTENCE}`} actions={newButton} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title="Delete channel?"
        description={
          <>
            <span className="font-medium text-zinc-700">{deleting?.name}</span> stops playing on its screens. The content and screens themselves stay. This cannot be undone.
          </>
        }
        confirmLabel="Delete channel"
        destructive
        onConfirm={async () => {
          if (deleting) await remove.mutateAsync(deleting.id);
        }}
      />
      <ResourceList
        identity={{ name: 'channels', noun: { one: 'channel', other: 'channels' } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(channel) => String(channel.id)}
        sortable={SORTABLE}
        search={{ label: 'Search channels by name', placeholder: 'Search by name' }}
        errorTitle="The channels could not be loaded."
        empty={{
          icon: <PlayIcon className="size-5 text-zinc-500" />,
          title: scopeNote ? 'No channels you may see' : 'No channels yet',
          body: scopeNote ?? 'A channel plays slides, playlists or media on the screens you choose, at the hours you choose.',
          action: newButton,
        }}
      />
    </>
  );
}
