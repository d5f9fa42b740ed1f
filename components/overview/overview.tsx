'use client';

import Link from 'next/link';
import type { ComponentType, ReactNode, SVGProps } from 'react';
import { BuildingIcon, ChevronRightIcon, ClipboardIcon, DocumentIcon, FilmIcon, GlobeIcon, MonitorIcon, MusicIcon, PhotoIcon, UsersIcon } from '@/components/ui/icons';
import { AttentionCard, PlaysCard, TopPlayedCard } from '@/components/overview/plays-cards';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { useAuditLog, useAuditLogScope } from '@/lib/api/audit-log';
import { deviceResource } from '@/lib/api/devices';
import { useStorageStatistics } from '@/lib/api/file-folders';
import { FILE_TYPES, fileTypeSearch, formatBytes, useFileCount, type FileType } from '@/lib/api/files';
import { term } from '@/lib/api/query-language';
import { roleLabel } from '@/lib/api/types';
import { useMe, useUserCount } from '@/lib/api/users';
import { useCurrentUser } from '@/lib/auth/current-user';
import { canSeeAuditLog } from '@/lib/auth/permissions';
import type { SessionUser } from '@/lib/auth/types';
import { cn } from '@/lib/cn';
import { countOf, formatDate, formatDateTime } from '@/lib/format';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';

function Skeleton({ className }: { className?: string }) {
  return <span className={`inline-block animate-pulse rounded bg-zinc-200 ${className ?? ''}`} aria-hidden="true" />;
}

/** A card whose link covers it; the link names where it goes. */
function StatCard({
  icon: Icon,
  title,
  href,
  linkLabel,
  testId,
  children,
}: {
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  title: string;
  href?: string;
  linkLabel?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Card className={cn('relative flex flex-col p-5', href && 'group transition-shadow hover:shadow-sm hover:ring-zinc-900/10')}>
      <h2 className="flex items-center gap-2 text-sm font-medium text-zinc-500">
        <Icon className="size-4" />
        {title}
      </h2>
      <div className="mt-2 flex-1" data-testid={testId}>
        {children}
      </div>
      {href && linkLabel ? (
        <Link href={href} className="mt-3 inline-flex items-center gap-1 self-start text-sm font-medium text-brand-700 hover:text-brand-800">
          <span className="absolute inset-0" aria-hidden="true" />
          {linkLabel}
          <ChevronRightIcon className="size-4 transition-transform group-hover:translate-x-0.5" />
        </Link>
      ) : null}
    </Card>
  );
}

function TenantCard() {
  const { canSwitch, tenant, all } = useTenant();

  return (
    <StatCard icon={tenant ? BuildingIcon : GlobeIcon} title={canSwitch ? 'Selected tenant' : 'Your tenant'}>
      <p className="truncate text-lg font-semibold text-zinc-900" data-testid="overview-tenant">
        {tenant?.name ?? all.label}
      </p>
      <p className="mt-1 text-sm text-zinc-500">
        {canSwitch
          ? tenant
            ? `Customer #${tenant.id}. Lists show this tenant only.`
            : `Lists show ${all.phrase}. Pick one tenant with the tenant switcher above.`
          : 'Everything you see belongs to this tenant.'}
      </p>
    </StatCard>
  );
}

function UsersCard() {
  const count = useUserCount();
  const { tenant, canSwitch, all } = useTenant();

  return (
    <StatCard icon={UsersIcon} title="Users" href="/users" linkLabel="View users" testId="overview-users">
      <p className="text-lg font-semibold text-zinc-900">
        {count.isPending ? (
          <Skeleton className="h-6 w-12 align-middle" />
        ) : count.isError ? (
          <span className="text-sm font-normal text-red-700">Could not be counted</span>
        ) : (
          count.data.toLocaleString()
        )}
      </p>
      <p className="mt-1 text-sm text-zinc-500">{canSwitch && !tenant ? `Across ${all.phrase}.` : 'People who can sign in to this tenant.'}</p>
    </StatCard>
  );
}

function StorageCard() {
  const stats = useStorageStatistics();
  const used = stats.data?.totalUsedStorageSize ?? 0;
  const quota = stats.data?.totalAvailableStorageSize;
  const share = quota ? Math.min(1, used / quota) : 0;

  return (
    <StatCard icon={DocumentIcon} title="Storage" href="/media" linkLabel="Open the media library" testId="overview-storage">
      {stats.isPending ? (
        <Skeleton className="h-6 w-28" />
      ) : stats.isError ? (
        <p className="text-sm text-red-700">Could not be read</p>
      ) : (
        <>
          <p className="text-lg font-semibold text-zinc-900">
            {formatBytes(used)}
            <span className="text-sm font-normal text-zinc-500">{quota ? ` of ${formatBytes(quota)} used` : ' used'}</span>
          </p>
          {quota ? (
            <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-zinc-200" role="meter" aria-label="Storage used" aria-valuemin={0} aria-valuemax={quota} aria-valuenow={used}>
              <div className={cn('h-full rounded-full', share > 0.9 ? 'bg-red-500' : 'bg-brand-500')} style={{ width: `${Math.max(share * 100, 1)}%` }} />
            </div>
          ) : (
            <p className="mt-1 text-sm text-zinc-500">No storage quota is set.</p>
          )}
        </>
      )}
    </StatCard>
  );
}

const TYPE_ICONS: Record<FileType, ComponentType<SVGProps<SVGSVGElement>>> = {
  image: PhotoIcon,
  video: FilmIcon,
  audio: MusicIcon,
  pdf: DocumentIcon,
  font: DocumentIcon,
  json: DocumentIcon,
};

function TypeCount({ type, label }: { type: FileType; label: string }) {
  const count = useFileCount(fileTypeSearch(type));
  const Icon = TYPE_ICONS[type];

  return (
    <li>
      {/* Every file of the type, in any folder. */}
      <Link
        href={`/media?type=${type}&deep=1`}
        className="relative z-10 flex items-center gap-2.5 rounded-md px-2 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900"
      >
        <Icon className="size-4 shrink-0 text-zinc-400" />
        <span className="flex-1">{label}</span>
        <span className="font-medium text-zinc-900 tabular-nums">{count.isPending ? <Skeleton className="h-4 w-6" /> : count.isError ? '—' : count.data.toLocaleString()}</span>
      </Link>
    </li>
  );
}

function MediaCard() {
  const total = useFileCount(undefined);

  return (
    <StatCard icon={PhotoIcon} title="Media" href="/media" linkLabel="Open the media library" testId="overview-media">
      <p className="text-lg font-semibold text-zinc-900">
        {total.isPending ? <Skeleton className="h-6 w-20" /> : total.isError ? <span className="text-sm font-normal text-red-700">Could not be counted</span> : countOf(total.data, { one: 'file', other: 'files' })}
      </p>
      <ul className="mt-2 grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] gap-x-3" aria-label="Files by type">
        {FILE_TYPES.map((t) => (
          <TypeCount key={t.value} type={t.value} label={t.label} />
        ))}
      </ul>
    </StatCard>
  );
}

/** Screens online and offline (the offline ones are listed under "Screens needing attention"). */
function ScreensCard() {
  const online = deviceResource.useCount(term('deviceStatus', '=', 'ONLINE').text);
  const total = deviceResource.useCount();
  const offline = (total.data ?? 0) - (online.data ?? 0);

  return (
    <StatCard icon={MonitorIcon} title="Screens" href="/screens" linkLabel="View screens" testId="overview-screens">
      <p className="text-lg font-semibold text-zinc-900">
        {online.isPending || total.isPending ? (
          <Skeleton className="h-6 w-12 align-middle" />
        ) : online.isError || total.isError ? (
          <span className="text-sm font-normal text-red-700">Could not be counted</span>
        ) : (
          <>
            {online.data.toLocaleString()} <span className="text-sm font-normal text-zinc-500">of {total.data.toLocaleString()} online</span>
          </>
        )}
      </p>
      {total.data && offline > 0 ? (
        <p className="mt-1 text-sm">
          <Link href="/screens?status=offline" className="relative z-10 text-red-700 hover:underline">
            {offline.toLocaleString()} offline
          </Link>
        </p>
      ) : (
        <p className="mt-1 text-sm text-zinc-500">{total.data ? 'Every screen is online.' : 'No screens claimed yet.'}</p>
      )}
    </StatCard>
  );
}

function ChooseTenantCard() {
  const { all } = useTenant();

  return (
    <Card className="flex flex-col p-5 sm:col-span-2 lg:col-span-1" >
      <h2 className="flex items-center gap-2 text-sm font-medium text-zinc-500">
        <PhotoIcon className="size-4" />
        Storage and media
      </h2>
      <p className="mt-2 text-sm text-zinc-600" data-testid="overview-media-choose-tenant">
        Media and storage belong to one tenant, and {all.phrase} can hold many. Pick a tenant in the switcher above to see its storage and files.
      </p>
    </Card>
  );
}

function ActivityCard() {
  const { tenant } = useTenant();
  const { allTenants } = useAuditLogScope();
  const log = useAuditLog({ text: '', from: '', to: '', order: 'DESC', page: 0, size: 6 });
  const entries = log.data?.content ?? [];

  return (
    <StatCard icon={ClipboardIcon} title="Recent activity" href="/audit-log" linkLabel="View the audit log" testId="overview-activity">
      {log.isPending ? (
        <div className="space-y-2">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="block h-4 w-full" />
          ))}
        </div>
      ) : log.isError ? (
        <p className="text-sm text-red-700">The audit log could not be read.</p>
      ) : entries.length === 0 ? (
        <p className="text-sm text-zinc-500">Nothing has changed {tenant ? `in ${tenant.name}` : ''} yet.</p>
      ) : (
        <ol className="divide-y divide-zinc-100" aria-label="Latest changes">
          {entries.map((entry, i) => (
            <li key={`${entry.time}-${i}`} className="py-2 text-sm first:pt-0">
              <p className="line-clamp-2 text-zinc-800">{entry.message}</p>
              <p className="mt-0.5 truncate text-xs text-zinc-500">
                {formatDateTime(entry.time)}
                {entry.userEmail ? ` · ${entry.userEmail}` : ''}
                {allTenants && entry.customerName ? ` · ${entry.customerName}` : ''}
              </p>
            </li>
          ))}
        </ol>
      )}
    </StatCard>
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
        <dl className="grid grid-cols-1 gap-x-6 gap-y-4 px-5 py-4 text-sm sm:grid-cols-3">
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
            <dd className="mt-0.5 text-zinc-900">{me.isPending ? <Skeleton className="h-4 w-40" /> : formatDateTime(me.data?.lastLogin, 'Not recorded')}</dd>
          </div>
          <div>
            <dt className="text-zinc-500">Member since</dt>
            <dd className="mt-0.5 text-zinc-900">{me.isPending ? <Skeleton className="h-4 w-28" /> : formatDate(me.data?.createdDate)}</dd>
          </div>
        </dl>
      )}
    </Card>
  );
}

/**
 * What exists today, each linking to its page: the tenant, users, storage, screens, media by type, the
 * latest audit entries, plays today and over the last 7 days, the most played content, channels and files,
 * and the screens needing attention. Media, storage, screens and plays need one tenant; the audit log needs
 * a role that may read it.
 */
export function Overview({ user }: { user: SessionUser }) {
  const firstName = user.name.split(/\s+/)[0] ?? user.name;
  const me = useCurrentUser();
  const { canSwitch, tenant } = useTenant();
  const hasTenant = !canSwitch || Boolean(tenant);
  const seesMedia = hasRole(me.role, 'VIEWER');
  const seesActivity = canSeeAuditLog(me.role);

  return (
    <>
      <PageHeader title={`Welcome, ${firstName}`} description="Here is where things stand." />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <TenantCard />
        <UsersCard />
        {seesMedia ? hasTenant ? <StorageCard /> : <ChooseTenantCard /> : null}
      </div>
      {(seesMedia && hasTenant) || seesActivity ? (
        <div className={cn('mt-4 grid gap-4', seesMedia && hasTenant && seesActivity ? 'lg:grid-cols-3' : seesMedia && hasTenant && 'lg:grid-cols-2')}>
          {seesMedia && hasTenant ? <ScreensCard /> : null}
          {seesMedia && hasTenant ? <MediaCard /> : null}
          {seesActivity ? <ActivityCard /> : null}
        </div>
      ) : null}
      {seesMedia && hasTenant ? (
        <>
          <div className="mt-4 grid gap-4 lg:grid-cols-3">
            <PlaysCard />
            <AttentionCard />
          </div>
          <div className="mt-4 grid gap-4 md:grid-cols-3">
            <TopPlayedCard kind="content" />
            <TopPlayedCard kind="campaign" />
            <TopPlayedCard kind="file" />
          </div>
        </>
      ) : null}
      <div className="mt-4">
        <AccountCard user={user} />
      </div>
    </>
  );
}
