'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { PlusIcon } from '@/components/ui/icons';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { UiElement } from '@/components/ui-profiles/ui-element';
import { CreateUserDialog } from '@/components/users/user-dialogs';
import { useCurrentUser } from '@/lib/auth/current-user';
import { canManageUsers } from '@/lib/auth/permissions';
import { useTenant } from '@/lib/tenant/tenant-context';

export function UsersPageHeader() {
  const { tenant, canSwitch } = useTenant();
  const me = useCurrentUser();
  const [isCreating, setIsCreating] = useState(false);
  const t = useTranslations('users');
  const scope = tenant
    ? t.rich('header.tenant', { tenant: tenant.name, strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span> })
    : canSwitch
      ? t('header.all')
      : t('header.own');

  return (
    <>
      <PageHeader
        title={t('title')}
        description={scope}
        actions={
          canManageUsers(me.role) ? (
            <UiElement name="newUi.users.create">
              <Button onClick={() => setIsCreating(true)}>
                <PlusIcon className="size-4" />
                {t('header.new')}
              </Button>
            </UiElement>
          ) : null
        }
      />
      {canManageUsers(me.role) ? <CreateUserDialog open={isCreating} onOpenChange={setIsCreating} /> : null}
    </>
  );
}
