'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { z } from 'zod';
import { TeamChoice } from '@/components/teams/team-choice';
import { CodeBlock } from '@/components/webhooks/code-block';
import { curlExample, EVENT_ID_PLACEHOLDER } from '@/components/webhooks/trigger-example';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DialogFooter } from '@/components/ui/field';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { FormDialog } from '@/components/ui/form-dialog';
import { LockIcon, PlusIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { RowActions } from '@/components/ui/row-actions';
import { useOwnTeams } from '@/lib/api/teams';
import {
  useCreateWebhookApiKey,
  useDeleteWebhookApiKey,
  useUpdateWebhookApiKey,
  useWebhookApiKeys,
  type WebhookApiKey,
  type WebhookApiKeyInput,
} from '@/lib/api/webhooks';
import { sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import { useFormat } from '@/lib/i18n/use-format';
import type { Translate } from '@/lib/i18n/translate';
import { resourceName } from '@/server/http/wire.schemas';

const DEFAULT_SORT: SortState = { field: 'createdAt', direction: 'desc' };
const SORTABLE = ['name', 'createdAt', 'restricted'] as const;

type KeyAction = { kind: 'edit' | 'revoke'; key: WebhookApiKey };

/** The key form's rules: a name; a restricted key acts only on its teams' resources, so it needs one. */
const keyFormSchema = (t: Translate<'webhooks.keys.form'>, needsTeam: boolean) =>
  z.object({ name: resourceName, restricted: z.boolean(), teamIds: z.array(z.string()) }).superRefine((v, ctx) => {
    if (v.teamIds.length > 0) return;
    if (needsTeam) ctx.addIssue({ code: 'custom', path: ['teamIds'], message: t('teamRequired') });
    else if (v.restricted) ctx.addIssue({ code: 'custom', path: ['teamIds'], message: t('restrictedNeedsTeam') });
  });

/** Creates a key (then shows its token once, through `onCreated`) or renames, restricts and re-teams one. */
function KeyFormDialog({
  open,
  apiKey,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  apiKey?: WebhookApiKey | null;
  onOpenChange: (open: boolean) => void;
  onCreated?: (key: WebhookApiKey) => void;
}) {
  const t = useTranslations('webhooks.keys.form');
  const formWords = useTranslations('common.form');
  const create = useCreateWebhookApiKey();
  const update = useUpdateWebhookApiKey();
  const own = useOwnTeams();
  const isNew = !apiKey;
  const schema = useMemo(() => keyFormSchema(t, isNew && own.scoped), [t, isNew, own.scoped]);
  // A new key of a team-scoped user starts with the user's teams: the form opens once they are known.
  if (isNew && open && !own.ready) return null;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={isNew ? t('new') : t('edit')}
      schema={schema}
      required={{ name: formWords('enterName') }}
      values={{
        name: apiKey?.name ?? '',
        restricted: apiKey?.restricted ?? false,
        teamIds: apiKey ? apiKey.teamAccessList.teams.map((team) => team.id) : own.scoped ? own.teams.map((team) => team.id) : [],
      }}
      submitLabel={isNew ? t('create') : t('save')}
      onSubmit={async (input: WebhookApiKeyInput) => {
        if (apiKey) await update.mutateAsync({ id: apiKey.id, input });
        else onCreated?.(await create.mutateAsync(input));
      }}
    >
      {(fields, form) => (
        <>
          {fields.text('name', { label: t('name'), autoFocus: true, hint: t('nameHint') })}
          {fields.checkbox('restricted', { label: t('restricted'), description: t('restrictedHint') })}
          <TeamChoice
            value={form.watch('teamIds')}
            onChange={(ids) => form.setValue('teamIds', ids, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
            error={(form.formState.errors.teamIds as { message?: string } | undefined)?.message}
            hint={t('teamsHint')}
          />
        </>
      )}
    </FormDialog>
  );
}

/** The token of a key just made, once: with its copy button, a curl example, and the warning that it is gone after. */
function KeyCreatedDialog({ apiKey, onClose }: { apiKey: WebhookApiKey | null; onClose: () => void }) {
  const t = useTranslations('webhooks.keys.created');
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const token = apiKey?.token ?? '';

  return (
    <Dialog open={apiKey !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title={t('title')}
        description={t.rich('description', {
          name: apiKey?.name ?? '',
          strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
        })}
        // A variant wins over the dialog's own `max-w-lg` (`cn` joins, it does not merge).
        className="sm:max-w-2xl"
        // The token is shown once: a stray click beside the dialog must not lose it.
        onInteractOutside={(e) => e.preventDefault()}
      >
        <div className="space-y-4 px-5 py-4" data-testid="webhook-key-created">
          <Alert tone="info" title={t('onceTitle')}>
            {t('onceText')}
          </Alert>
          <CodeBlock label={t('token')} value={token} copyLabel={t('copyToken')} testId="webhook-key-token" wrap />
          <CodeBlock
            label={t('curl')}
            value={curlExample({ origin, apiKey: token, payload: { event_id: EVENT_ID_PLACEHOLDER } })}
            copyLabel={t('copyCurl')}
            testId="webhook-key-curl"
          />
          <p className="text-sm text-zinc-500">
            {t.rich('curlHint', { placeholder: EVENT_ID_PLACEHOLDER, code: (chunks) => <code translate="no">{chunks}</code> })}
          </p>
        </div>
        <DialogFooter>
          <Button onClick={onClose}>{t('done')}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function RevokeKeyDialog({ apiKey, onOpenChange }: { apiKey: WebhookApiKey | null; onOpenChange: (open: boolean) => void }) {
  const t = useTranslations('webhooks.keys.revoke');
  const remove = useDeleteWebhookApiKey();

  return (
    <ConfirmDialog
      open={apiKey !== null}
      onOpenChange={onOpenChange}
      title={t('title')}
      description={t.rich('text', {
        name: apiKey?.name ?? '',
        strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
      })}
      confirmLabel={t('confirm')}
      destructive
      onConfirm={async () => {
        if (apiKey) await remove.mutateAsync(apiKey.id);
      }}
    />
  );
}

function buildColumns(
  t: Translate<'webhooks.keys'>,
  format: ReturnType<typeof useFormat>,
  canManage: boolean,
  onAction: (action: KeyAction) => void,
): ColumnDef<WebhookApiKey>[] {
  return [
    {
      id: 'name',
      meta: { size: 200 },
      accessorKey: 'name',
      header: t('columns.name'),
      cell: ({ row }) => {
        const key = row.original;
        const writable = canManage && !key.readOnly;

        return (
          <div className="flex min-w-0 items-center gap-2">
            {writable ? (
              <button
                type="button"
                className="cursor-pointer truncate text-left font-medium text-zinc-900 hover:text-brand-700 hover:underline"
                onClick={() => onAction({ kind: 'edit', key })}
              >
                {key.name}
              </button>
            ) : (
              <span className="truncate font-medium text-zinc-900">{key.name}</span>
            )}
            {key.readOnly ? <Badge>{t('readOnly')}</Badge> : null}
          </div>
        );
      },
    },
    {
      id: 'createdAt',
      meta: { priority: 2, size: 160 },
      accessorKey: 'createdAt',
      header: t('columns.created'),
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{format.dateTime(row.original.createdAt)}</span>,
    },
    {
      id: 'restricted',
      meta: { priority: 1, size: 150 },
      accessorKey: 'restricted',
      header: t('columns.scope'),
      cell: ({ row }) =>
        row.original.restricted ? (
          <Badge tone="warning">
            <LockIcon className="mr-1 size-3" />
            {t('restricted')}
          </Badge>
        ) : (
          <Badge>{t('unrestricted')}</Badge>
        ),
    },
    {
      id: 'teams',
      meta: { priority: 3, size: 180 },
      header: t('columns.teams'),
      enableSorting: false,
      cell: ({ row }) => {
        const names = row.original.teamAccessList.teams.map((team) => team.name ?? team.id).join(', ');

        return names ? (
          <p className="max-w-64 truncate text-zinc-600" title={names} translate="no">
            {names}
          </p>
        ) : (
          <span className="text-zinc-400">{t('noTeams')}</span>
        );
      },
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('columns.actions')}</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const key = row.original;
        if (!canManage || key.readOnly) return null;

        return (
          <RowActions label={t('actionsFor', { name: key.name })}>
            <DropdownMenuItem onSelect={() => onAction({ kind: 'edit', key })}>{t('edit')}</DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
              onSelect={() => onAction({ kind: 'revoke', key })}
            >
              {t('revokeAction')}
            </DropdownMenuItem>
          </RowActions>
        );
      },
    },
  ];
}

/** The keys a trigger authenticates with: list, new (its token once), edit, revoke. */
export function WebhookApiKeys({
  canManage,
  isCreating,
  onCreating,
}: {
  canManage: boolean;
  isCreating: boolean;
  onCreating: (open: boolean) => void;
}) {
  const t = useTranslations('webhooks.keys');
  const format = useFormat();
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE });
  const { params } = list;
  const query = useWebhookApiKeys({ page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text });
  const [action, setAction] = useState<KeyAction | null>(null);
  const [created, setCreated] = useState<WebhookApiKey | null>(null);
  const columns = useMemo(() => buildColumns(t, format, canManage, setAction), [t, format, canManage]);
  const close = (open: boolean) => (open ? undefined : setAction(null));

  return (
    <>
      {canManage ? (
        <>
          <KeyFormDialog open={isCreating} onOpenChange={onCreating} onCreated={setCreated} />
          <KeyFormDialog open={action?.kind === 'edit'} apiKey={action?.kind === 'edit' ? action.key : null} onOpenChange={close} />
          <RevokeKeyDialog apiKey={action?.kind === 'revoke' ? action.key : null} onOpenChange={close} />
          <KeyCreatedDialog apiKey={created} onClose={() => setCreated(null)} />
        </>
      ) : null}
      <ResourceList
        identity={{ name: 'webhook-api-keys', noun: { one: t('noun.one'), other: t('noun.other') } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(key) => key.id}
        sortable={SORTABLE}
        search={{ label: t('search'), placeholder: t('searchPlaceholder') }}
        errorTitle={t('loadError')}
        empty={{
          icon: <LockIcon className="size-5 text-zinc-500" />,
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
