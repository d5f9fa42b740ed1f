'use client';

import type { ReactNode } from 'react';
import { TenantPicker } from '@/components/shell/tenant-switcher';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { useTenant } from '@/lib/tenant/tenant-context';

/**
 * A page of one tenant's resources: while a user who can switch tenants has chosen none (all tenants, or a whole
 * network), it says why and offers the tenants to choose from right there instead of rendering `children`.
 */
export function TenantRequired({ title, description, belongs, purpose, children }: { title: string; description: string; belongs: string; purpose: string; children: ReactNode }) {
  const { acrossTenants, tenant, all, selectTenant } = useTenant();
  if (acrossTenants) {
    return (
      <>
        <PageHeader title={title} description={description} />
        <Card className="max-w-xl">
          <div className="px-5 pt-4" data-testid="choose-tenant">
            <h2 className="text-sm font-semibold text-zinc-900">Choose a tenant</h2>
            <p className="mt-1 text-sm text-zinc-600">
              {belongs} to one tenant; you are looking at {all.phrase}. Choose the tenant to {purpose}. The switcher at the top changes it later, and
              the Screens page lists the screens of {all.phrase} together.
            </p>
          </div>
          <TenantPicker current={tenant} allLabel={all.label} onChoose={(next) => next && selectTenant(next)} inline />
        </Card>
      </>
    );
  }

  return children;
}
