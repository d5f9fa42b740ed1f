'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { enabledBody } from '@/components/webhooks/webhook-action-form';
import { DeleteWebhookActionDialog, WebhookActionFormDialog } from '@/components/webhooks/webhook-action-dialogs';
import { useActionWords } from '@/components/webhooks/webhook-action-detail';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { BoltIcon, PlusIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { RowActions } from '@/components/ui/row-actions';
import { useUpdateWebhookAction, useWebhookActions, type WebhookAction } from '@/lib/api/webhooks';
import { sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import type { Translate } from '@/lib/i18n/translate';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'eventId', 'action', 'enabled'] as const;

type RowAction = { kind: 'edit' | 'delete'; action: WebhookAction };

/** The list's switch: PUTs the action with its name, type and parameters (spec 3 sends them together). */
function EnabledSwitch({ action, disabled }: { action: WebhookAction; disabled: boolean }) {
  const t = useTranslations('webhooks.actions');
  const update = useUpdateWebhookAction();
  const on = action.enabled === true;
  const body = enabledBody(action, !on);

  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-label={t('enabledSwitch', { name: action.name })}
      disabled={disabled || !body || update.isPending}
      onClick={() => body && update.mutate({ id: action.id, input: body })}
      className="relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full bg-zinc-300 transition-colors disabled:cursor-not-allowed disabled:opacity-50 aria-checked:bg-brand-600"
    >
      <span
        className={`inline-block size-4 rounded-full bg-white shadow transition-transform ${on ? 'translate-x-4.5' : 'translate-x-0.5'}`}
      />
    </button>
  );
}

function buildColumns(
  t: Translate<'webhooks.actions'>,
  words: ReturnType<typeof useActionWords>,
  canManage: boolean,
  { onOpen, onAction }: { onOpen: (action: WebhookAction) => void; onAction: (action: RowAction) => void },
): ColumnDef<WebhookAction>[] {
  return [
    {
      id: 'name',
      meta: { size: 200 },
      accessorKey: 'name',
      header: t('columns.name'),
      cell: ({ row }) => (
        <div className="flex min-w-0 items-center gap-2">
          <button
            type="button"
            className="cursor-pointer truncate text-left font-medium text-zinc-900 hover:text-brand-700 hover:underline"
            onClick={() => onOpen(row.original)}
          >
            {row.original.name}
          </button>
          {row.original.readOnly ? <Badge>{t('readOnly')}</Badge> : null}
        </div>
      ),
    },
    {
      id: 'eventId',
      meta: { priority: 2, size: 150 },
      accessorKey: 'eventId',
      header: t('columns.eventId'),
      cell: ({ row }) => (
        <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-800" translate="no">
          {row.original.eventId}
        </code>
      ),
    },
    {
      id: 'action',
      meta: { priority: 1, size: 220 },
      accessorKey: 'action',
      header: t('columns.action'),
      cell: ({ row }) => {
        const { what, how } = words(row.original.action);

        return (
          <div className="min-w-0">
            <p className="truncate text-zinc-900">{what}</p>
            {how ? <p className="truncate text-xs text-zinc-500">{how}</p> : null}
          </div>
        );
      },
    },
    {
      id: 'target',
      meta: { priority: 3, size: 180 },
      header: t('columns.target'),
      enableSorting: false,
      cell: ({ row }) => {
        const name = row.original.targetName;

        return name ? (
          <p className="max-w-56 truncate text-zinc-600" title={name} translate="no">
            {name}
          </p>
        ) : (
          <span className="text-zinc-400">—</span>
        );
      },
    },
    {
      id: 'enabled',
      meta: { priority: 1, size: 130 },
      accessorKey: 'enabled',
      header: t('columns.enabled'),
      cell: ({ row }) => (
        <div className="flex items-center gap-2">
          {canManage ? <EnabledSwitch action={row.original} disabled={row.original.readOnly === true} /> : null}
          <span className="text-sm text-zinc-600">{row.original.enabled ? t('on') : t('off')}</span>
        </div>
      ),
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('columns.actions')}</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const action = row.original;

        return (
          <RowActions label={t('actionsFor', { name: action.name })}>
            <DropdownMenuItem onSelect={() => onOpen(action)}>{t('details')}</DropdownMenuItem>
            {canManage && !action.readOnly ? (
              <>
                <DropdownMenuItem onSelect={() => onAction({ kind: 'edit', action })}>{t('edit')}</DropdownMenuItem>
                <DropdownMenuSeparator />
                <DropdownMenuItem
                  className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
                  onSelect={() => onAction({ kind: 'delete', action })}
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

/** The webhook actions: list (with each one's switch), new, edit, delete; a click on one opens its panel. */
export function WebhookActions({
  canManage,
  isCreating,
  onCreating,
  onOpen,
  editing,
  onEditing,
}: {
  canManage: boolean;
  isCreating: boolean;
  onCreating: (open: boolean) => void;
  onOpen: (action: WebhookAction) => void;
  /** The action being edited (from the list or its panel). */
  editing: WebhookAction | null;
  onEditing: (action: WebhookAction | null) => void;
}) {
  const t = useTranslations('webhooks.actions');
  const words = useActionWords();
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE });
  const { params } = list;
  const query = useWebhookActions({ page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text });
  const [deleting, setDeleting] = useState<WebhookAction | null>(null);
  const columns = useMemo(
    () =>
      buildColumns(t, words, canManage, {
        onOpen,
        onAction: ({ kind, action }) => (kind === 'edit' ? onEditing(action) : setDeleting(action)),
      }),
    [t, words, canManage, onOpen, onEditing],
  );

  return (
    <>
      {canManage ? (
        <>
          <WebhookActionFormDialog open={isCreating} onOpenChange={onCreating} onSaved={onOpen} />
          <WebhookActionFormDialog open={editing !== null} action={editing} onOpenChange={(open) => (open ? undefined : onEditing(null))} />
          <DeleteWebhookActionDialog action={deleting} onOpenChange={(open) => (open ? undefined : setDeleting(null))} />
        </>
      ) : null}
      <ResourceList
        identity={{ name: 'webhook-actions', noun: { one: t('noun.one'), other: t('noun.other') } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(action) => String(action.id)}
        sortable={SORTABLE}
        search={{ label: t('search'), placeholder: t('searchPlaceholder') }}
        errorTitle={t('loadError')}
        empty={{
          icon: <BoltIcon className="size-5 text-zinc-500" />,
          title: t('emptyTitle'),
          body: t('emptyText'),
          action: canManage ? (
            <Button size="sm" onClick={() => onCreating(true)}>
              <PlusIcon className="size-4" />
              {t('new')}
            </Button>
          ) : null,
        }}
      />
    </>
  );
}
