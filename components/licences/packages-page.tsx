'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { z } from 'zod';
import { LicenceTabs } from '@/components/licences/licence-tabs';
import { TemplateFields, templateBody, templateRules, templateShape, templateValues } from '@/components/licences/template-fields';
import { NoAccess } from '@/components/settings/no-access';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { FormDialog } from '@/components/ui/form-dialog';
import { KeyIcon, PlusIcon } from '@/components/ui/icons';
import { ResourceList } from '@/components/ui/list-view';
import { NoticeAlert, useNotice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { RowActions } from '@/components/ui/row-actions';
import { ApiError } from '@/lib/api/client';
import { useDeleteLicensePackage, useLicensePackages, useSaveLicensePackage, type LicensePackage } from '@/lib/api/licences';
import { useCurrentUser } from '@/lib/auth/current-user';
import { sortParam, useListParams, type SortState } from '@/lib/hooks/use-list-params';
import { useLabel, type Label } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import { useFormat } from '@/lib/i18n/use-format';
import { resourceName } from '@/server/http/wire.schemas';

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
const SORTABLE = ['name', 'licenseType', 'licensePayType', 'pricePerDevice', 'createdDate'] as const;

type PackageAction = { kind: 'edit' | 'delete'; item: LicensePackage };

const packageSchema = (template: Translate<'licences.template'>) =>
  z
    .object({ name: resourceName, ...templateShape(template) })
    .superRefine((value, ctx) => templateRules(value, ctx, template, { complete: true }));

/** A new package (`item` null) or a change of one: name, tier, pay type, recurrence, price. */
function PackageDialog({
  open,
  item,
  onOpenChange,
}: {
  open: boolean;
  item: LicensePackage | null;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('licences.packages.form');
  const template = useTranslations('licences.template');
  const formWords = useTranslations('common.form');
  const schema = useMemo(() => packageSchema(template), [template]);
  const save = useSaveLicensePackage();

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={item ? t('editTitle') : t('newTitle')}
      schema={schema}
      required={{ name: formWords('enterName') }}
      values={{ name: item?.name ?? '', ...templateValues(item ?? {}) }}
      submitLabel={item ? t('save') : t('create')}
      onSubmit={async ({ name, ...values }) => {
        const body = templateBody(values);
        if (!body.licenseType || !body.licensePayType) return;
        if (item) {
          // A package that loses its price sends "" (the API's way to remove a value).
          await save.mutateAsync({
            id: item.id,
            changes: { name, ...body, ...(body.pricePerDevice === undefined ? { pricePerDevice: '', currency: '' } : {}) },
          });
        } else await save.mutateAsync({ changes: { name, ...body, licenseType: body.licenseType, licensePayType: body.licensePayType } });
      }}
      fieldError={(error) =>
        error instanceof ApiError && error.key === 'licensePackage.error.nameExists'
          ? { field: 'name', message: t('nameExists') }
          : undefined
      }
    >
      {(fields, form) => (
        <>
          {fields.text('name', { label: t('name'), autoFocus: true })}
          <TemplateFields fields={fields} form={form} />
        </>
      )}
    </FormDialog>
  );
}

function packageColumns(
  t: Translate<'licences.packages'>,
  label: Label,
  format: ReturnType<typeof useFormat>,
  onAction: (action: PackageAction) => void,
): ColumnDef<LicensePackage>[] {
  return [
    {
      id: 'name',
      meta: { size: 200 },
      header: t('columns.name'),
      cell: ({ row }) => (
        <button
          type="button"
          className="cursor-pointer truncate text-left font-medium text-zinc-900 hover:text-brand-700 hover:underline"
          onClick={() => onAction({ kind: 'edit', item: row.original })}
        >
          {row.original.name}
        </button>
      ),
    },
    {
      id: 'licenseType',
      meta: { size: 110 },
      header: t('columns.type'),
      cell: ({ row }) => label('licenseType', row.original.licenseType),
    },
    {
      id: 'licensePayType',
      meta: { size: 190, priority: 1 },
      header: t('columns.payType'),
      cell: ({ row }) => {
        const { recurrence } = row.original;
        const pay = label('licensePayType', row.original.licensePayType);

        return recurrence ? t('payEvery', { pay, frequency: recurrence.frequency, period: recurrence.recurrenceType }) : pay;
      },
    },
    {
      id: 'pricePerDevice',
      meta: { size: 130 },
      header: t('columns.price'),
      cell: ({ row }) =>
        row.original.pricePerDevice !== undefined ? (
          <span className="whitespace-nowrap tabular-nums">
            {format.number(row.original.pricePerDevice, 2)} {row.original.currency ?? ''}
          </span>
        ) : (
          <span className="text-zinc-400">—</span>
        ),
    },
    {
      id: 'createdDate',
      meta: { size: 120, priority: 2 },
      header: t('columns.created'),
      cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{format.date(row.original.createdDate)}</span>,
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('columns.actions')}</span>,
      enableSorting: false,
      cell: ({ row }) => (
        <RowActions label={t('actionsFor', { name: row.original.name ?? '' })}>
          <DropdownMenuItem onSelect={() => onAction({ kind: 'edit', item: row.original })}>{t('edit')}</DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem
            className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
            onSelect={() => onAction({ kind: 'delete', item: row.original })}
          >
            {t('delete')}
          </DropdownMenuItem>
        </RowActions>
      ),
    },
  ];
}

/** The super admin's licence packages: templates of tier and pricing that orders copy (spec 5 §6). */
export function PackagesPage() {
  const t = useTranslations('licences.packages');
  const me = useCurrentUser();
  if (me.role !== 'ADMIN') return <NoAccess title={t('noAccess.title')}>{t('noAccess.text')}</NoAccess>;

  return <Packages />;
}

function Packages() {
  const t = useTranslations('licences.packages');
  const licences = useTranslations('licences');
  const label = useLabel();
  const format = useFormat();
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE });
  const { params } = list;
  const query = useLicensePackages({ page: params.page, size: params.size, sort: sortParam(params.sort), text: params.text });
  const remove = useDeleteLicensePackage();
  const { notice, show, clear } = useNotice();
  const [isCreating, setIsCreating] = useState(false);
  const [action, setAction] = useState<PackageAction | null>(null);
  const columns = useMemo(() => packageColumns(t, label, format, setAction), [t, label, format]);
  const close = (open: boolean) => (open ? undefined : setAction(null));
  const deleting = action?.kind === 'delete' ? action.item : null;

  return (
    <>
      <PageHeader
        title={licences('title')}
        description={t('description')}
        actions={
          <Button onClick={() => setIsCreating(true)}>
            <PlusIcon className="size-4" />
            {t('new')}
          </Button>
        }
      />
      <LicenceTabs current="packages" />
      <PackageDialog open={isCreating} item={null} onOpenChange={setIsCreating} />
      <PackageDialog open={action?.kind === 'edit'} item={action?.kind === 'edit' ? action.item : null} onOpenChange={close} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={close}
        title={t('deleteDialog.title')}
        description={t.rich('deleteDialog.text', {
          name: deleting?.name ?? '',
          strong: (chunks) => <span className="font-medium text-zinc-900">{chunks}</span>,
        })}
        confirmLabel={t('deleteDialog.confirm')}
        destructive
        onConfirm={async () => {
          if (!deleting) return;
          await remove.mutateAsync(deleting.id);
          show({ tone: 'info', text: t('deleteDialog.done', { name: deleting.name ?? '' }) });
        }}
      />
      <ResourceList
        identity={{ name: 'licence-packages', noun: { one: t('noun.one'), other: t('noun.other') } }}
        list={list}
        query={query}
        columns={columns}
        getRowId={(item) => String(item.id)}
        sortable={SORTABLE}
        search={{ label: t('search'), placeholder: t('searchPlaceholder') }}
        notices={<NoticeAlert notice={notice} onDismiss={clear} />}
        errorTitle={t('loadError')}
        empty={{
          icon: <KeyIcon className="size-5 text-zinc-500" />,
          title: t('emptyTitle'),
          body: t('emptyText'),
          action: (
            <Button size="sm" onClick={() => setIsCreating(true)}>
              <PlusIcon className="size-4" />
              {t('new')}
            </Button>
          ),
        }}
      />
    </>
  );
}
