'use client';

import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { TenantPicker } from '@/components/shell/tenant-switcher';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { useTenant } from '@/lib/tenant/tenant-context';

/**
 * A page of one tenant's resources: while a user who can switch tenants has chosen none (all tenants, or a whole
 * network), it says why and offers the tenants to choose from right there instead of rendering `children`.
 * `belongs` and `purpose` are the caller's words, in the console's language, set into the sentence
 * `{belongs} to one tenant; … Choose the tenant to {purpose}.` (German: `{belongs} zu genau einem Mandanten; …
 * Wählen Sie den Mandanten, um {purpose}.`): "Plays belong" / "Wiedergaben gehören", "see its proof of play" /
 * "seinen Abspielnachweis zu sehen".
 */
export function TenantRequired({
  title,
  description,
  belongs,
  purpose,
  children,
}: {
  title: string;
  description: string;
  belongs: string;
  purpose: string;
  children: ReactNode;
}) {
  const t = useTranslations('shell.tenantRequired');
  const { acrossTenants, tenant, all, selectTenant } = useTenant();
  if (acrossTenants) {
    return (
      <>
        <PageHeader title={title} description={description} />
        <Card className="max-w-xl">
          <div className="px-5 pt-4" data-testid="choose-tenant">
            <h2 className="text-sm font-semibold text-zinc-900">{t('title')}</h2>
            <p className="mt-1 text-sm text-zinc-600">{t('text', { belongs, purpose, scope: all.scope })}</p>
          </div>
          <TenantPicker current={tenant} allLabel={all.label} onChoose={(next) => next && selectTenant(next)} inline />
        </Card>
      </>
    );
  }

  return children;
}
