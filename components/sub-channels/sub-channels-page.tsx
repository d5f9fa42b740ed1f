'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { DeleteMessageDialog, DeleteMessageGroupDialog, MessageGroupFormDialog } from '@/components/sub-channels/sub-channel-dialogs';
import { MessageEditorDialog } from '@/components/sub-channels/message-editor';
import { useMessageTypeWords } from '@/components/sub-channels/message-draft';
import { NoAccess } from '@/components/settings/no-access';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { PlaylistIcon, PlusIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { PageHeader } from '@/components/ui/page-header';
import { RowActions } from '@/components/ui/row-actions';
import { useMessageGroups, useMessages, useUpdateMessage, type Message, type MessageGroup } from '@/lib/api/messages';
import { useCurrentUser } from '@/lib/auth/current-user';
import { sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import { useTenant } from '@/lib/tenant/tenant-context';
import type { Translate } from '@/lib/i18n/translate';
import { hasRole } from '@/server/context/roles';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'weight'] as const;

type GroupAction = { kind: 'rename' | 'delete'; group: MessageGroup };

/** VIEWER and above read; APPROVER and above change (the API's roles), in one chosen tenant. */
function useSubChannelAccess() {
  const me = useCurrentUser();
  const { canSwitch, tenant } = useTenant();
  const needsTenant = canSwitch && !tenant;
  const isApprover = hasRole(me.role, 'APPROVER');

  return { tenant, canView: hasRole(me.role, 'VIEWER'), isApprover, needsTenant, canManage: isApprover && !needsTenant };
}

function groupColumns(
  t: Translate<'subChannels'>,
  canManage: boolean,
  selectedId: number | null,
  onSelect: (group: MessageGroup) => void,
  onAction: (action: GroupAction) => void,
): ColumnDef<MessageGroup>[] {
  return [
    {
      id: 'name',
      meta: { size: 180 },
      accessorKey: 'name',
      header: t('groups.group'),
      cell: ({ row }) => (
        <button
          type="button"
          aria-pressed={row.original.id === selectedId}
          className="cursor-pointer text-left font-medium text-zinc-900 hover:text-brand-700 hover:underline aria-pressed:text-brand-700"
          onClick={() => onSelect(row.original)}
        >
          {row.original.name}
        </button>
      ),
    },
    {
      id: 'weight',
      meta: { priority: 1, size: 80 },
      accessorKey: 'weight',
      header: t('order'),
      cell: ({ row }) => <span className="text-zinc-600 tabular-nums">{row.original.weight ?? 0}</span>,
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('actions')}</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const group = row.original;

        return (
          <RowActions label={t('actionsFor', { name: group.name })}>
            <DropdownMenuItem onSelect={() => onSelect(group)}>{t('groups.show')}</DropdownMenuItem>
            {canManage && !group.readOnly ? (
              <>
                <DropdownMenuItem onSelect={() => onAction({ kind: 'rename', group })}>{t('groups.rename')}</DropdownMenuItem>
                <DropdownMenuSeparator />
                <DropdownMenuItem
                  className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
                  onSelect={() => onAction({ kind: 'delete', group })}
                >
                  {t('delete')}
                </DropdownMenuItem>
              </>
            ) : null}
          </RowActions>
        );
      },
    },
  ];
}

function playsText(t: Translate<'subChannels'>, message: Message): string {
  if (message.type === 'CONTENT') return message.contentName ?? '—';
  if (message.type === 'ASSETS_DYNAMIC') return (message.fileFolderAssignments ?? []).map((f) => f.name ?? '').join(', ') || '—';
  if (message.type === 'CONTENT_DYNAMIC') return (message.contentGroupAssignments ?? []).map((f) => f.name ?? '').join(', ') || '—';
  if (message.type === 'ASSETS_STATIC') {
    const files = message.fileAssignments ?? [];

    return files.length === 0 ? '—' : files.length === 1 && files[0]!.name ? files[0]!.name : t('messages.files', { count: files.length });
  }
  if (message.type === 'CONTENT_QUICK_FILTER' || message.type === 'ASSET_QUICK_FILTER') return t('messages.savedFilter');

  return '—';
}

const day = (epochMs: number | null | undefined) => (typeof epochMs === 'number' ? new Date(epochMs).toISOString().slice(0, 10) : null);

function daysText(t: Translate<'subChannels'>, message: Message): string {
  const from = day(message.validFrom);
  const to = day(message.validTo);
  const ranges = ((message.affectedDateRanges as { intervals?: unknown[] } | undefined)?.intervals ?? []).length;
  const dates = from || to ? `${from ?? '…'} – ${to ?? '…'}` : t('messages.always');

  return ranges === 0 ? dates : `${dates} · ${t('messages.dateRanges', { count: ranges })}`;
}

function saturationText(t: Translate<'subChannels'>, saturation: number | null | undefined): string {
  return saturation === 0 ? t('messages.allItems') : t('messages.items', { count: saturation ?? 1 });
}

/** The messages of one group, in play order, with their switches and actions. */
function GroupMessages({ group, canManage }: { group: MessageGroup; canManage: boolean }) {
  const t = useTranslations('subChannels');
  const types = useMessageTypeWords();
  const query = useMessages({ page: 0, size: 200, sort: 'weight,asc', messageGroupId: group.id });
  const toggle = useUpdateMessage();
  const [editing, setEditing] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Message | null>(null);
  const writable = canManage && !group.readOnly;
  const messages = query.data?.content ?? [];

  return (
    <section
      aria-labelledby="sub-channels-heading"
      className="mt-8 rounded-lg border border-zinc-200 bg-white"
      data-testid="group-messages"
    >
      <header className="flex items-center justify-between gap-3 border-b border-zinc-200 px-4 py-3">
        <div>
          <h2 id="sub-channels-heading" className="text-base font-semibold text-zinc-900">
            {t('messages.title', { name: group.name ?? '' })}
          </h2>
          <p className="text-sm text-zinc-600">{t('messages.description')}</p>
        </div>
        {writable ? (
          <Button size="sm" onClick={() => setAdding(true)}>
            <PlusIcon className="size-4" />
            {t('messages.new')}
          </Button>
        ) : null}
      </header>
      {query.isError ? (
        <div className="p-4">
          <Alert tone="error" title={t('messages.loadError')} />
        </div>
      ) : messages.length === 0 ? (
        <p className="p-6 text-center text-sm text-zinc-600">{query.isLoading ? t('messages.loading') : t('messages.empty')}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead className="bg-zinc-50 text-xs font-medium text-zinc-600 uppercase">
            <tr>
              <th className="px-4 py-2">{t('messages.columns.name')}</th>
              <th className="px-4 py-2">{t('messages.columns.plays')}</th>
              <th className="px-4 py-2">{t('messages.columns.perTurn')}</th>
              <th className="px-4 py-2">{t('order')}</th>
              <th className="px-4 py-2">{t('messages.columns.days')}</th>
              <th className="px-4 py-2">{t('messages.columns.status')}</th>
              <th className="px-4 py-2">
                <span className="sr-only">{t('actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {messages.map((message) => (
              <tr key={message.id} data-testid="message-row">
                <td className="px-4 py-2 font-medium text-zinc-900">{message.name}</td>
                <td className="px-4 py-2 text-zinc-700">
                  <span className="text-zinc-500">{types.label(message.type)}: </span>
                  {playsText(t, message)}
                </td>
                <td className="px-4 py-2 text-zinc-700">{saturationText(t, message.saturation)}</td>
                <td className="px-4 py-2 text-zinc-700 tabular-nums">{message.weight ?? '—'}</td>
                <td className="px-4 py-2 whitespace-nowrap text-zinc-700 tabular-nums">{daysText(t, message)}</td>
                <td className="px-4 py-2">
                  {message.enabled ? <Badge tone="brand">{t('messages.enabled')}</Badge> : <Badge>{t('messages.disabled')}</Badge>}
                </td>
                <td className="px-4 py-2 text-right">
                  {writable ? (
                    <RowActions label={t('actionsFor', { name: message.name ?? '' })}>
                      <DropdownMenuItem onSelect={() => setEditing(message.id)}>{t('messages.edit')}</DropdownMenuItem>
                      <DropdownMenuItem onSelect={() => toggle.mutate({ id: message.id, body: { enabled: !message.enabled } })}>
                        {message.enabled ? t('messages.disable') : t('messages.enable')}
                      </DropdownMenuItem>
                      <DropdownMenuSeparator />
                      <DropdownMenuItem
                        className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
                        onSelect={() => setDeleting(message)}
                      >
                        {t('delete')}
                      </DropdownMenuItem>
                    </RowActions>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {writable ? (
        <>
          <MessageEditorDialog open={adding} group={group} onOpenChange={setAdding} />
          <MessageEditorDialog
            open={editing !== null}
            group={group}
            messageId={editing}
            onOpenChange={(open) => (open ? undefined : setEditing(null))}
          />
          <DeleteMessageDialog message={deleting} onOpenChange={(open) => (open ? undefined : setDeleting(null))} />
        </>
      ) : null}
    </section>
  );
}

export function SubChannelsPage() {
  const t = useTranslations('subChannels');
  const channels = useTranslations('channels');
  const access = useSubChannelAccess();
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE });
  const { params } = list;
  const query = useMessageGroups({ page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text });
  const [isCreating, setIsCreating] = useState(false);
  const [action, setAction] = useState<GroupAction | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const groups = query.data?.content ?? [];
  const selected = groups.find((g) => g.id === selectedId) ?? (groups.length === 1 ? groups[0]! : null);
  const columns = useMemo(
    () => groupColumns(t, access.canManage, selected?.id ?? null, (g) => setSelectedId(g.id), setAction),
    [t, access.canManage, selected?.id],
  );
  const close = (open: boolean) => (open ? undefined : setAction(null));
  if (!access.canView) return <NoAccess title={t('noAccess.title')}>{t('noAccess.body')}</NoAccess>;

  return (
    <>
      <PageHeader
        title={t('title')}
        description={`${t('description')} ${channels('layers')}`}
        actions={
          access.canManage ? (
            <Button onClick={() => setIsCreating(true)}>
              <PlusIcon className="size-4" />
              {t('groups.new')}
            </Button>
          ) : null
        }
      />
      {access.canManage ? (
        <>
          <MessageGroupFormDialog open={isCreating} onOpenChange={setIsCreating} />
          <MessageGroupFormDialog
            open={action?.kind === 'rename'}
            group={action?.kind === 'rename' ? action.group : null}
            onOpenChange={close}
          />
          <DeleteMessageGroupDialog group={action?.kind === 'delete' ? action.group : null} onOpenChange={close} />
        </>
      ) : null}
      <ResourceList
        identity={{ name: 'message-groups', noun: { one: t('groups.noun.one'), other: t('groups.noun.other') } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(group) => String(group.id)}
        sortable={SORTABLE}
        search={{ label: t('groups.searchLabel'), placeholder: t('groups.searchPlaceholder') }}
        notices={
          access.isApprover && access.needsTenant ? (
            <Alert tone="info" title={t('chooseTenant.title')}>
              {t('chooseTenant.body')}
            </Alert>
          ) : null
        }
        errorTitle={t('groups.loadError')}
        empty={{
          icon: <PlaylistIcon className="size-5 text-zinc-500" />,
          title: t('groups.empty'),
          body: t('groups.emptyBody'),
          action: access.canManage ? (
            <Button size="sm" onClick={() => setIsCreating(true)}>
              <PlusIcon className="size-4" />
              {t('groups.new')}
            </Button>
          ) : null,
        }}
      />
      {selected ? (
        <GroupMessages key={selected.id} group={selected} canManage={access.canManage} />
      ) : groups.length > 0 ? (
        <p className="mt-6 text-sm text-zinc-600">{t('groups.choose')}</p>
      ) : null}
    </>
  );
}
