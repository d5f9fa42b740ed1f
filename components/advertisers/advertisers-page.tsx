'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { AdvertiserFormDialog, DeleteAdvertiserDialog } from '@/components/advertisers/advertiser-dialogs';
import { ProofOfPlayDialog } from '@/components/advertisers/proof-of-play-dialog';
import { NoAccess } from '@/components/settings/no-access';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { MegaphoneIcon, PlusIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { PageHeader } from '@/components/ui/page-header';
import { RowActions } from '@/components/ui/row-actions';
import { useTenantNames, type TenantName } from '@/lib/api/customers';
import { useAdvertisers, type Advertiser } from '@/lib/api/advertisers';
import { useCurrentUser } from '@/lib/auth/current-user';
import { sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import { useTenant } from '@/lib/tenant/tenant-context';
import type { Translate } from '@/lib/i18n/translate';
import { hasRole } from '@/server/context/roles';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'enabled'] as const;

type AdvertiserAction = { kind: 'edit' | 'delete' | 'links'; advertiser: Advertiser };

/**
 * Who may do what here: VIEWER and above read, TECHNICIAN and above change (spec 2 "Advertisers"). An
 * ADMIN or network owner with all tenants shown only reads: a new advertiser needs a tenant.
 */
function useAdvertiserAccess() {
  const me = useCurrentUser();
  const { canSwitch, tenant } = useTenant();
  const needsTenant = canSwitch && !tenant;
  const isTechnician = hasRole(me.role, 'TECHNICIAN');

  return { tenant, canView: hasRole(me.role, 'VIEWER'), isTechnician, needsTenant, canManage: isTechnician && !needsTenant };
}

/** `1 Dec 2026 – 31 Dec 2026 · Europe/Berlin · 0 8 * * *`, or a dash when the advertiser has no validity. */
function validityText(validity: Advertiser['validity']): string {
  if (!validity) return '—';
  const days = validity.fromDate || validity.toDate ? `${validity.fromDate ?? '…'} – ${validity.toDate ?? '…'}` : null;

  return [days, validity.timeZone?.replaceAll('_', ' '), validity.cron].filter(Boolean).join(' · ') || '—';
}

function buildColumns(
  t: Translate<'advertisers'>,
  tenantName: TenantName | null,
  canManage: boolean,
  onAction: (action: AdvertiserAction) => void,
): ColumnDef<Advertiser>[] {
  const columns: ColumnDef<Advertiser>[] = [
    {
      id: 'name',
      meta: { size: 200 },
      accessorKey: 'name',
      header: t('columns.advertiser'),
      cell: ({ row }) => (
        <div className="min-w-0">
          <button
            type="button"
            className="cursor-pointer text-left font-medium text-zinc-900 hover:text-brand-700 hover:underline"
            onClick={() => onAction({ kind: canManage && !row.original.readOnly ? 'edit' : 'links', advertiser: row.original })}
          >
            {row.original.name}
          </button>
          {row.original.readOnly ? <Badge className="ml-2">{t('readOnly')}</Badge> : null}
        </div>
      ),
    },
    {
      id: 'enabled',
      meta: { priority: 1, size: 110 },
      accessorKey: 'enabled',
      header: t('columns.status'),
      cell: ({ row }) =>
        row.original.enabled ? (
          <Badge tone="brand">{t('enabled')}</Badge>
        ) : (
          <span title={t('disabledHint')}>
            <Badge>{t('disabled')}</Badge>
          </span>
        ),
    },
    {
      id: 'validity',
      meta: { priority: 2, size: 170 },
      header: t('columns.validity'),
      enableSorting: false,
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600 tabular-nums">{validityText(row.original.validity)}</span>,
    },
    {
      id: 'links',
      meta: { priority: 3, size: 140 },
      header: t('columns.proofOfPlay'),
      enableSorting: false,
      cell: ({ row }) => (
        <span className="text-zinc-600">{row.original.proofOfPlayAccessSecretConfigured ? t('linkOn') : t('linkOff')}</span>
      ),
    },
    {
      id: 'comment',
      meta: { priority: 4, size: 180 },
      header: t('columns.comment'),
      enableSorting: false,
      cell: ({ row }) => <p className="max-w-xs truncate text-zinc-600">{row.original.comment ?? ''}</p>,
    },
  ];
  if (tenantName) {
    columns.push({
      id: 'tenant',
      meta: { priority: 5, size: 140 },
      header: t('columns.tenant'),
      enableSorting: false,
      cell: ({ row }) => <span className="text-zinc-600">{tenantName(row.original.customerId)}</span>,
    });
  }
  columns.push({
    id: 'actions',
    header: () => <span className="sr-only">{t('columns.actions')}</span>,
    enableSorting: false,
    cell: ({ row }) => {
      const advertiser = row.original;
      const writable = canManage && !advertiser.readOnly;

      return (
        <RowActions label={t('actionsFor', { name: advertiser.name ?? '' })}>
          <DropdownMenuItem onSelect={() => onAction({ kind: 'links', advertiser })}>{t('links')}</DropdownMenuItem>
          {writable ? (
            <>
              <DropdownMenuItem onSelect={() => onAction({ kind: 'edit', advertiser })}>{t('edit')}</DropdownMenuItem>
              <DropdownMenuSeparator />
              <DropdownMenuItem
                className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
                onSelect={() => onAction({ kind: 'delete', advertiser })}
              >
                {t('delete')}
              </DropdownMenuItem>
            </>
          ) : null}
        </RowActions>
      );
    },
  });

  return columns;
}

export function AdvertisersPage() {
  const t = useTranslations('advertisers');
  const access = useAdvertiserAccess();
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE });
  const { params } = list;
  const query = useAdvertisers({ page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text });
  const [isCreating, setIsCreating] = useState(false);
  const [action, setAction] = useState<AdvertiserAction | null>(null);
  const tenantName = useTenantNames(query.data?.content.map((a) => a.customerId) ?? [], access.needsTenant);
  const columns = useMemo(
    () => buildColumns(t, access.needsTenant ? tenantName : null, access.canManage, setAction),
    [t, access.needsTenant, access.canManage, tenantName],
  );
  const close = (open: boolean) => (open ? undefined : setAction(null));
  if (!access.canView) return <NoAccess title={t('noAccess.title')}>{t('noAccess.text')}</NoAccess>;
  const linksOf = action?.kind === 'links' ? action.advertiser : null;

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
        actions={
          access.canManage ? (
            <Button onClick={() => setIsCreating(true)}>
              <PlusIcon className="size-4" />
              {t('new')}
            </Button>
          ) : null
        }
      />
      {access.canManage ? (
        <>
          <AdvertiserFormDialog open={isCreating} onOpenChange={setIsCreating} tenantName={access.tenant?.name} />
          <AdvertiserFormDialog
            open={action?.kind === 'edit'}
            advertiser={action?.kind === 'edit' ? action.advertiser : null}
            onOpenChange={close}
          />
          <DeleteAdvertiserDialog advertiser={action?.kind === 'delete' ? action.advertiser : null} onOpenChange={close} />
        </>
      ) : null}
      <ProofOfPlayDialog advertiser={linksOf} canChange={access.canManage && linksOf?.readOnly !== true} onOpenChange={close} />

      <ResourceList
        identity={{ name: 'advertisers', noun: { one: t('noun.one'), other: t('noun.other') } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(advertiser) => advertiser.id}
        sortable={SORTABLE}
        search={{ label: t('search'), placeholder: t('searchPlaceholder') }}
        notices={
          access.isTechnician && access.needsTenant ? (
            <Alert tone="info" title={t('chooseTenant')}>
              {t('readOnlyAcross')}
            </Alert>
          ) : null
        }
        errorTitle={t('loadError')}
        empty={{
          icon: <MegaphoneIcon className="size-5 text-zinc-500" />,
          title: t('emptyTitle'),
          body: t('emptyText'),
          action: access.canManage ? (
            <Button size="sm" onClick={() => setIsCreating(true)}>
              <PlusIcon className="size-4" />
              {t('new')}
            </Button>
          ) : null,
        }}
      />
    </>
  );
}
