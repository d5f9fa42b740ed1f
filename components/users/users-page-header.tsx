'use client';

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
  const scope = tenant ? (
    <>
      People who can sign in to <span className="font-medium text-zinc-700">{tenant.name}</span>.
    </>
  ) : canSwitch ? (
    'People who can sign in, across all tenants.'
  ) : (
    'People who can sign in.'
  );

  return (
    <>
      <PageHeader
        title="Users"
        description={scope}
        actions={
          canManageUsers(me.role) ? (
            <UiElement name="newUi.users.create">
              <Button onClick={() => setIsCreating(true)}>
                <PlusIcon className="size-4" />
                New user
              </Button>
            </UiElement>
          ) : null
        }
      />
      {canManageUsers(me.role) ? <CreateUserDialog open={isCreating} onOpenChange={setIsCreating} /> : null}
    </>
  );
}
