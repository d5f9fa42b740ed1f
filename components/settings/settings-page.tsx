'use client';

import { useTranslations } from 'next-intl';
import { DeviceDefaultsForm } from '@/components/settings/device-defaults-form';
import { NoAccess } from '@/components/settings/no-access';
import { ResourceLimitsCard } from '@/components/settings/resource-limits-card';
import { TeamAccessForm } from '@/components/settings/team-access-form';
import { UiProfilesCard } from '@/components/ui-profiles/ui-profiles-card';
import { Alert } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';

/** Tenant settings: OWNER for their own tenant, ADMIN for the tenant chosen in the switcher. */
export function SettingsPage() {
  const t = useTranslations('settings');
  const me = useCurrentUser();
  const { canSwitch, tenant, customerId } = useTenant();

  if (!hasRole(me.role, 'OWNER')) {
    return <NoAccess title={t('noAccess.title')}>{t('noAccess.text')}</NoAccess>;
  }

  return (
    <>
      <PageHeader
        title={t('title')}
        description={
          tenant
            ? t.rich('of', { name: tenant.name, strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span> })
            : t('ofATenant')
        }
      />
      {!tenant ? (
        <Alert tone="info" title={t('chooseTenant')}>
          {canSwitch ? t('belongsToOne') : t('noTenant')}
        </Alert>
      ) : (
        <div className="grid gap-6 xl:grid-cols-2">
          <div className="space-y-6">
            <TeamAccessForm key={tenant.id} customerId={tenant.id} asSelector={canSwitch} />
            <ResourceLimitsCard customerId={customerId} />
          </div>
          <div className="space-y-6">
            <DeviceDefaultsForm key={tenant.id} customerId={tenant.id} asSelector={canSwitch} />
            <UiProfilesCard key={tenant.id} customerId={customerId} />
          </div>
        </div>
      )}
    </>
  );
}
