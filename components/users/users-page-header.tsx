'use client';

import { PageHeader } from '@/components/ui/page-header';
import { useTenant } from '@/lib/tenant/tenant-context';

export function UsersPageHeader() {
  const { tenant, canSwitch } = useTenant();
  const scope = tenant ? (
    <>
      People who can sign in to <span className="font-medium text-zinc-700">{tenant.name}</span>.
    </>
  ) : canSwitch ? (
    'People who can sign in, across all tenants.'
  ) : (
    'People who can sign in.'
  );

  return <PageHeader title="Users" description={scope} />;
}
