'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { PlusIcon } from '@/components/ui/icons';
import { AssignUiProfileDialog, UiProfileDialog } from '@/components/ui-profiles/ui-profile-dialogs';
import { LoadError } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { Pagination } from '@/components/ui/pagination';
import { RowActions } from '@/components/ui/row-actions';
import { useDeleteUiProfile, useUiProfiles, type UiProfile } from '@/lib/api/ui-profiles';
import { useFormat } from '@/lib/i18n/use-format';
import { flattenSection, TRI_STATE_SECTIONS } from '@/lib/ui-profile/rules';

type Action = { kind: 'edit' | 'assign' | 'delete'; profile: UiProfile };

function hiddenCount(profile: UiProfile): number {
  const rules = profile.hiddenUIElementRules ?? {};

  return TRI_STATE_SECTIONS.reduce(
    (sum, section) => sum + Object.values(flattenSection(rules[section])).filter((v) => v === false).length,
    0,
  );
}

export function UiProfilesCard({ customerId }: { customerId: number | undefined }) {
  const t = useTranslations('uiProfiles');
  const format = useFormat();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const query = useUiProfiles(customerId, { page, size });
  const remove = useDeleteUiProfile(customerId);
  const [creating, setCreating] = useState(false);
  const [action, setAction] = useState<Action | null>(null);
  const close = (open: boolean) => (open ? undefined : setAction(null));
  const rows = query.data?.content ?? [];

  return (
    <Card className="overflow-hidden">
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-zinc-200 px-5 py-4">
        <div>
          <h2 className="text-base font-semibold text-zinc-900">{t('card.title')}</h2>
          <p className="mt-0.5 text-sm text-zinc-500">{t('card.description')}</p>
        </div>
        <Button size="sm" onClick={() => setCreating(true)}>
          <PlusIcon className="size-4" />
          {t('card.new')}
        </Button>
      </div>
      <UiProfileDialog open={creating} profile={null} customerId={customerId} onOpenChange={setCreating} />
      <UiProfileDialog
        open={action?.kind === 'edit'}
        profile={action?.kind === 'edit' ? action.profile : null}
        customerId={customerId}
        onOpenChange={close}
      />
      <AssignUiProfileDialog profile={action?.kind === 'assign' ? action.profile : null} customerId={customerId} onOpenChange={close} />
      <ConfirmDialog
        open={action?.kind === 'delete'}
        onOpenChange={close}
        title={t('delete.title')}
        description={t.rich('delete.text', {
          name: action?.profile.name ?? '',
          strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
        })}
        confirmLabel={t('delete.confirm')}
        destructive
        onConfirm={() => (action ? remove.mutateAsync(action.profile.id) : Promise.resolve())}
      />
      {query.isError ? (
        <LoadError className="m-5" title={t('card.loadError')} error={query.error} onRetry={() => void query.refetch()} />
      ) : query.isPending ? (
        <div className="space-y-3 px-5 py-4" aria-hidden="true">
          {[0, 1].map((i) => (
            <span key={i} className="block h-4 animate-pulse rounded bg-zinc-100" />
          ))}
        </div>
      ) : rows.length === 0 ? (
        <div className="px-5 py-10 text-center" data-testid="ui-profiles-empty">
          <p className="text-sm font-medium text-zinc-900">{t('card.emptyTitle')}</p>
          <p className="mt-1 text-sm text-zinc-500">{t('card.emptyText')}</p>
        </div>
      ) : (
        <table className="w-full text-left text-sm" aria-label={t('card.title')}>
          <thead className="border-b border-zinc-200 bg-zinc-50/80">
            <tr>
              <th scope="col" className="px-5 py-2.5 text-xs font-medium tracking-wide text-zinc-500 uppercase">
                {t('card.profile')}
              </th>
              <th scope="col" className="px-5 py-2.5 text-xs font-medium tracking-wide text-zinc-500 uppercase">
                {t('card.rules')}
              </th>
              <th scope="col" className="w-12">
                <span className="sr-only">{t('card.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {rows.map((profile) => {
              const hidden = hiddenCount(profile);

              return (
                <tr key={profile.id} className="hover:bg-zinc-50/60">
                  <td className="px-5 py-3">
                    <p className="font-medium text-zinc-900">{profile.name}</p>
                    {profile.comment ? <p className="mt-0.5 text-xs text-zinc-500">{profile.comment}</p> : null}
                  </td>
                  <td className="px-5 py-3">
                    {hidden > 0 ? (
                      <Badge>{t('card.hidden', { count: format.number(hidden) })}</Badge>
                    ) : (
                      <span className="text-zinc-500">{t('card.nothingHidden')}</span>
                    )}
                  </td>
                  <td className="px-3 py-3 text-right">
                    <RowActions label={t('card.actionsFor', { name: profile.name })}>
                      <DropdownMenuItem onSelect={() => setAction({ kind: 'edit', profile })}>{t('card.edit')}</DropdownMenuItem>
                      <DropdownMenuItem onSelect={() => setAction({ kind: 'assign', profile })}>{t('card.assign')}</DropdownMenuItem>
                      <DropdownMenuSeparator />
                      <DropdownMenuItem
                        className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
                        onSelect={() => setAction({ kind: 'delete', profile })}
                      >
                        {t('card.delete')}
                      </DropdownMenuItem>
                    </RowActions>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {query.data && query.data.totalElements > size ? (
        <Pagination
          page={query.data.number}
          size={query.data.size}
          totalElements={query.data.totalElements}
          totalPages={query.data.totalPages}
          noun={{ one: t('card.noun.one'), other: t('card.noun.other') }}
          onPageChange={setPage}
          onSizeChange={(next) => {
            setSize(next);
            setPage(0);
          }}
        />
      ) : null}
    </Card>
  );
}
