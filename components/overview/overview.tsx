'use client';

import Link from 'next/link';
import { BuildingIcon, ChevronRightIcon, GlobeIcon, UsersIcon } from '@/components/shell/icons';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { roleLabel } from '@/lib/api/types';
import { useMe, useUserCount } from '@/lib/api/users';
import type { SessionUser } from '@/lib/auth/types';
import { formatDate, formatDateTime } from '@/lib/format';
import { useTenant } from '@/lib/tenant/tenant-context';

function Skeleton({ className }: { className?: string }) {
  return <span className={`inline-block animate-pulse rounded bg-zinc-200 ${className ?? ''}`} aria-hidden="true" />;
}

function TenantCard() {
  const { canSwitch, tenant, all } = useTenant();

  return (
    <Card className="p-5">
      <div className="flex items-center gap-2 text-sm font-medium text-zinc-500">
        {tenant ? <BuildingIcon className="size-4" /> : <GlobeIcon className="size-4" />}
        {canSwitch ? 'Selected tenant' : 'Your tenant'}
      </div>
      <p className="mt-2 truncate text-lg font-semibold text-zinc-900" data-testid="overview-tenant">
        {tenant?.name ?? all.label}
      </p>
      <p className="mt-1 text-sm text-zinc-500">
        {canSwitch
          ? tenant
            ? `Customer #${tenant.id}. Lists show this tenant only.`
            : `Lists show ${all.phrase}. Pick one tenant with the tenant switcher above.`
          : 'Everything you see belongs to this tenant.'}
      </p>
    </Card>
  );
}

function UsersCard() {
  const count = useUserCount();
  const { tenant, canSwitch, all } = useTenant();

  return (
    <Card className="group relative p-5 transition-shadow hover:shadow-sm hover:ring-zinc-900/10">
      <div className="flex items-center gap-2 text-sm font-medium text-zinc-500">
        <UsersIcon className="size-4" />
        Users
      </div>
      <p className="mt-2 text-lg font-semibold text-zinc-900">
        {count.isPending ? (
          <Skeleton className="h-6 w-12 align-middle" />
        ) : count.isError ? (
          <span className="text-sm font-normal text-red-700">Could not be counted</span>
        ) : (
          count.data.toLocaleString()
        )}
      </p>
      <p className="mt-1 text-sm text-zinc-500">
        {canSwitch && !tenant ? `Across ${all.phrase}.` : 'People who can sign in to this tenant.'}
      </p>
      <Link href="/users" className="mt-3 inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:text-brand-800">
        <span className="absolute inset-0" aria-hidden="true" />
        View users
        <ChevronRightIcon className="size-4 transition-transform group-hover:translate-x-0.5" />
      </Link>
    </Card>
  );
}

function AccountCard({ user }: { user: SessionUser }) {
  const me = useMe();

  return (
    <Card>
      <div className="border-b border-zinc-100 px-5 py-4">
        <h2 className="text-sm font-semibold text-zinc-900">Your account</h2>
      </div>
      {me.isError ? (
        <div className="p-5">
          <Alert title="Your account details could not be loaded.">{me.error.message}</Alert>
        </div>
      ) : (
        <dl className="grid grid-cols-1 gap-x-6 gap-y-4 px-5 py-4 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-zinc-500">Name</dt>
            <dd className="mt-0.5 font-medium text-zinc-900">{user.name}</dd>
          </div>
          <div>
            <dt className="text-zinc-500">E-mail</dt>
            <dd className="mt-0.5 font-medium break-all text-zinc-900">{user.email}</dd>
          </div>
          <div>
            <dt className="text-zinc-500">Role</dt>
            <dd className="mt-1">
              <Badge tone="brand">{roleLabel(user.role)}</Badge>
            </dd>
          </div>
          <div>
            <dt className="text-zinc-500">Home tenant</dt>
            <dd className="mt-0.5 font-medium text-zinc-900">
              {me.isPending ? <Skeleton className="h-4 w-32" /> : (me.data?.customer?.name ?? user.customerName ?? '—')}
            </dd>
          </div>
          <div>
            <dt className="text-zinc-500">Last sign-in</dt>
            <dd className="mt-0.5 text-zinc-900">
              {me.isPending ? <Skeleton className="h-4 w-40" /> : formatDateTime(me.data?.lastLogin, 'Not recorded')}
            </dd>
          </div>
          <div>
            <dt className="text-zinc-500">Member since</dt>
            <dd className="mt-0.5 text-zinc-900">
              {me.isPending ? <Skeleton className="h-4 w-28" /> : formatDate(me.data?.createdDate)}
            </dd>
          </div>
        </dl>
      )}
    </Card>
  );
}

export function Overview({ user }: { user: SessionUser }) {
  const firstName = user.name.split(/\s+/)[0] ?? user.name;

  return (
    <>
      <PageHeader title={`Welcome, ${firstName}`} description="Here is where things stand." />
      <div className="grid gap-4 sm:grid-cols-2">
        <TenantCard />
        <UsersCard />
      </div>
      <div className="mt-4">
        <AccountCard user={user} />
      </div>
    </>
  );
}
