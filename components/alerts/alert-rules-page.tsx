'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { AlertRuleFormDialog, DeleteAlertRuleDialog } from '@/components/alerts/alert-rule-dialogs';
import { relativeTime } from '@/components/datasources/datasource-status';
import { NoAccess } from '@/components/settings/no-access';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { PlusIcon, SlidersIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { PageHeader } from '@/components/ui/page-header';
import { RowActions } from '@/components/ui/row-actions';
import { useAlertRules, type AlertRule } from '@/lib/api/alerts';
import { useTargetNames } from '@/lib/api/webhooks';
import { useCurrentUser } from '@/lib/auth/current-user';
import { sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import { useLabel, type Label } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import { useFormat } from '@/lib/i18n/use-format';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'dtype', 'enabled'] as const;

type RuleAction = { kind: 'edit' | 'delete'; rule: AlertRule };

type Words = {
  t: Translate<'alerts.rules'>;
  label: Label;
  format: ReturnType<typeof useFormat>;
  folderName: (id: string) => string;
  now: number;
};

/** Every rule operation needs TECHNICIAN (spec 2); with all tenants shown the list is read-only (a rule needs a tenant). */
function useRuleAccess() {
  const me = useCurrentUser();
  const { canSwitch, tenant } = useTenant();
  const needsTenant = canSwitch && !tenant;
  const isTechnician = hasRole(me.role, 'TECHNICIAN');

  return { tenant, isTechnician, needsTenant, canManage: isTechnician && !needsTenant };
}

const numberOf = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** "Offline 15 min in Lobby (and below) · tags" or "3 failed refreshes". */
function scopeOf(rule: AlertRule, words: Words): string {
  const { t } = words;
  const condition = rule.condition ?? {};
  if ((rule['@type'] ?? rule.dtype) === 'DatasourceError') return t('scope.datasource', { threshold: numberOf(condition.threshold) ?? 0 });
  const folder = typeof condition.deviceGroupId === 'string' ? words.folderName(condition.deviceGroupId) : '';
  const tagFilter = condition.tagFilter as { tags?: unknown } | null | undefined;
  const tags = Array.isArray(tagFilter?.tags) ? tagFilter.tags.length : 0;
  const base = t(condition.recursive === false ? 'scope.deviceOnly' : 'scope.device', {
    minutes: numberOf(condition.inactiveMinutes) ?? 0,
    folder,
  });

  return tags ? `${base} · ${t('scope.tags', { count: tags })}` : base;
}

function buildColumns(words: Words, canManage: boolean, onAction: (action: RuleAction) => void): ColumnDef<AlertRule>[] {
  const { t, label, format } = words;

  return [
    {
      id: 'name',
      meta: { size: 200 },
      accessorKey: 'name',
      header: t('columns.name'),
      cell: ({ row }) => {
        const writable = canManage && !row.original.readOnly;

        return (
          <div className="min-w-0">
            {writable ? (
              <button
                type="button"
                className="cursor-pointer text-left font-medium text-zinc-900 hover:text-brand-700 hover:underline"
                onClick={() => onAction({ kind: 'edit', rule: row.original })}
              >
                {row.original.name}
              </button>
            ) : (
              <span className="font-medium text-zinc-900">{row.original.name}</span>
            )}
            {row.original.readOnly ? <Badge className="ml-2">{t('readOnly')}</Badge> : null}
          </div>
        );
      },
    },
    {
      id: 'dtype',
      meta: { priority: 2, size: 150 },
      header: t('columns.type'),
      cell: ({ row }) => {
        const type = row.original['@type'] ?? row.original.dtype;

        return type ? <span className="whitespace-nowrap text-zinc-700">{label('alertRuleType', type)}</span> : null;
      },
    },
    {
      id: 'enabled',
      meta: { priority: 1, size: 90 },
      header: t('columns.enabled'),
      cell: ({ row }) => (row.original.enabled === false ? <Badge>{t('off')}</Badge> : <Badge tone="success">{t('on')}</Badge>),
    },
    {
      id: 'scope',
      meta: { priority: 3, size: 220 },
      header: t('columns.scope'),
      enableSorting: false,
      cell: ({ row }) => {
        const scope = scopeOf(row.original, words);

        return (
          <p className="max-w-72 truncate text-zinc-600" title={scope}>
            {scope}
          </p>
        );
      },
    },
    {
      id: 'channels',
      meta: { priority: 5, size: 160 },
      header: t('columns.channels'),
      enableSorting: false,
      cell: ({ row }) => {
        const names = (row.original.notificationChannels ?? []).map((c) => c.name).join(', ');

        return names ? (
          <p className="max-w-56 truncate text-zinc-600" title={names} translate="no">
            {names}
          </p>
        ) : (
          <span className="text-zinc-400">{t('noChannels')}</span>
        );
      },
    },
    {
      id: 'evaluation',
      meta: { priority: 4, size: 170 },
      header: t('columns.evaluation'),
      enableSorting: false,
      cell: ({ row }) => {
        const evaluate = row.original.evaluate;
        if (!evaluate?.lastEvaluationDate) return <span className="whitespace-nowrap text-zinc-400">{t('neverEvaluated')}</span>;
        const at = Date.parse(evaluate.lastEvaluationDate);

        return (
          <div className="text-sm whitespace-nowrap">
            <span className="text-zinc-700" title={format.dateTime(at)}>
              {relativeTime(Math.min(at, words.now), words.now, format.locale)}
            </span>
            <p className="text-xs text-zinc-500">
              {t('counts', { evaluations: evaluate.evaluateCount, violations: evaluate.violationCount })}
            </p>
          </div>
        );
      },
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('columns.actions')}</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const rule = row.original;

        return (
          <RowActions label={t('actionsFor', { name: rule.name ?? '' })}>
            <DropdownMenuItem asChild>
              <Link href={`/alerts?rule=${rule.id}${rule['@type'] === 'DatasourceError' ? '&kind=datasource' : ''}`}>
                {t('showAlerts')}
              </Link>
            </DropdownMenuItem>
            {canManage && !rule.readOnly ? (
              <>
                <DropdownMenuItem onSelect={() => onAction({ kind: 'edit', rule })}>{t('edit')}</DropdownMenuItem>
                <DropdownMenuSeparator />
                <DropdownMenuItem
                  className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
                  onSelect={() => onAction({ kind: 'delete', rule })}
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

/** The folders the listed rules watch, by name ("All screens" for the root). */
function useFolderNames(rules: AlertRule[] | undefined, t: Translate<'alerts.rules'>) {
  const ids = [
    ...new Set((rules ?? []).flatMap((r) => (typeof r.condition?.deviceGroupId === 'string' ? [r.condition.deviceGroupId] : []))),
  ];
  const names = useTargetNames('deviceGroup', ids, t('allScreens'));

  return (id: string) => names.data?.get(id) ?? '…';
}

export function AlertRulesPage() {
  const t = useTranslations('alerts.rules');
  const label = useLabel();
  const format = useFormat();
  const access = useRuleAccess();
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE });
  const { params } = list;
  const query = useAlertRules(
    { page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text },
    { enabled: access.isTechnician },
  );
  const [isCreating, setIsCreating] = useState(false);
  const [action, setAction] = useState<RuleAction | null>(null);
  const folderName = useFolderNames(query.data?.content, t);
  const now = query.dataUpdatedAt || Date.now();
  const columns = useMemo(
    () => buildColumns({ t, label, format, folderName, now }, access.canManage, setAction),
    [t, label, format, folderName, now, access.canManage],
  );
  const close = (open: boolean) => (open ? undefined : setAction(null));
  if (!access.isTechnician) return <NoAccess title={t('noAccess.title')}>{t('noAccess.text')}</NoAccess>;
  const newButton = (size?: 'sm') => (
    <Button size={size} onClick={() => setIsCreating(true)}>
      <PlusIcon className="size-4" />
      {t('new')}
    </Button>
  );

  return (
    <>
      <PageHeader
        title={t('title')}
        description={
          access.tenant
            ? t.rich('descriptionOf', {
                name: access.tenant.name,
                strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
              })
            : t('description')
        }
        actions={access.canManage ? newButton() : null}
      />
      {access.canManage ? (
        <>
          <AlertRuleFormDialog open={isCreating} onOpenChange={setIsCreating} tenantName={access.tenant?.name} />
          <AlertRuleFormDialog open={action?.kind === 'edit'} rule={action?.kind === 'edit' ? action.rule : null} onOpenChange={close} />
          <DeleteAlertRuleDialog rule={action?.kind === 'delete' ? action.rule : null} onOpenChange={close} />
        </>
      ) : null}

      <ResourceList
        identity={{ name: 'alert-rules', noun: { one: t('noun.one'), other: t('noun.other') } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(rule) => String(rule.id)}
        sortable={SORTABLE}
        search={{ label: t('search'), placeholder: t('searchPlaceholder') }}
        notices={
          access.needsTenant ? (
            <Alert tone="info" title={t('chooseTenant')}>
              {t('readOnlyAcross')}
            </Alert>
          ) : null
        }
        errorTitle={t('loadError')}
        empty={{
          icon: <SlidersIcon className="size-5 text-zinc-500" />,
          title: t('emptyTitle'),
          body: t('emptyText'),
          action: access.canManage ? newButton('sm') : null,
        }}
      />
    </>
  );
}
