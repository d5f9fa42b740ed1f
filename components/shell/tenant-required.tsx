'use client';

import type { ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';
import { useTenant } from '@/lib/tenant/tenant-context';

/**
 * A page of one tenant's resources: while a user who can switch tenants has chosen none (all tenants), it asks
 * for one instead of rendering `children`.
 */
export function TenantRequired({ title, description, belongs, purpose, children }: { title: string; description: string; belongs: string; purpose: string; children: ReactNode }) {
  const { canSwitch, tenant, all } = useTenant();
  if (canSwitch && !tenant) {
    return (
      <>
        <PageHeader title={title} description={description} />
        <Alert tone="info" title="Choose a tenant.">
          {belongs} to one tenant, and {all.phrase} can hold many. Pick the tenant in the switcher above to {purpose}.
        </Alert>
      </>
    );
  }

  return children;
}
