'use client';

import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import type { ComponentType, ReactNode, SVGProps } from 'react';
import {
  BuildingIcon,
  ChevronRightIcon,
  ClipboardIcon,
  DocumentIcon,
  FilmIcon,
  GlobeIcon,
  MonitorIcon,
  MusicIcon,
  PhotoIcon,
  UsersIcon,
} from '@/components/ui/icons';
import { OpenAlertsCard } from '@/components/overview/open-alerts-card';
import { AttentionCard, PlaysCard, TopPlayedCard } from '@/components/overview/plays-cards';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { useAuditLog, useAuditLogScope } from '@/lib/api/audit-log';
import { deviceCountSearch, deviceResource } from '@/lib/api/devices';
import { useStorageStatistics } from '@/lib/api/file-folders';
import { FILE_TYPES, fileTypeSearch, useFileCount, type FileType } from '@/lib/api/files';
import { term } from '@/lib/api/query-language';
import { useMe, useUserCount } from '@/lib/api/users';
import { useCurrentUser } from '@/lib/auth/current-user';
import { canSeeAuditLog } from '@/lib/auth/permissions';
import type { SessionUser } from '@/lib/auth/types';
import { cn } from '@/lib/cn';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';

/** What "no tenant chosen" covers, for sentences that name it: every tenant (ADMIN) or the caller's network. */
function useAllScope(): 'tenants' | 'network' {
  return useCurrentUser().role === 'ADMIN' ? 'tenants' : 'network';
}

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
        <Link
          href={href}
          className="mt-3 inline-flex items-center gap-1 self-start text-sm font-medium text-brand-700 hover:text-brand-800"
        >
          <span className="absolute inset-0" aria-hidden="true" />
          {linkLabel}
          <ChevronRightIcon className="size-4 transition-transform group-hover:translate-x-0.5" />
        </Link>
      ) : null}
    </Card>
  );
}

function TenantCard() {
  const { canSwitch, tenant } = useTenant();
  const scope = useAllScope();
  const t = useTranslations('overview.tenant');

  return (
    <StatCard icon={tenant ? BuildingIcon : GlobeIcon} title={canSwitch ? t('selected') : t('yours')}>
      <p className="truncate text-lg font-semibold text-zinc-900" data-testid="overview-tenant">
        {tenant?.name ?? t('all', { scope })}
      </p>
      <p className="mt-1 text-sm text-zinc-500">{canSwitch ? (tenant ? t('one', { id: tenant.id }) : t('many', { scope })) : t('own')}</p>
    </StatCard>
  );
}

function UsersCard() {
  const count = useUserCount();
  const { tenant, canSwitch } = useTenant();
  const scope = useAllScope();
  const t = useTranslations('overview');
  const format = useFormat();

  return (
    <StatCard icon={UsersIcon} title={t('users.title')} href="/users" linkLabel={t('users.link')} testId="overview-users">
      <p className="text-lg font-semibold text-zinc-900">
        {count.isPending ? (
          <Skeleton className="h-6 w-12 align-middle" />
        ) : count.isError ? (
          <span className="text-sm font-normal text-red-700">{t('couldNotCount')}</span>
        ) : (
          format.number(count.data)
        )}
      </p>
      <p className="mt-1 text-sm text-zinc-500">{canSwitch && !tenant ? t('across', { scope }) : t('users.text')}</p>
    </StatCard>
  );
}

function StorageCard() {
  const stats = useStorageStatistics();
  const { acrossTenants } = useTenant();
  const scope = useAllScope();
  const t = useTranslations('overview');
  const format = useFormat();
  const used = stats.data?.totalUsedStorageSize ?? 0;
  const quota = stats.data?.totalAvailableStorageSize;
  const share = quota ? Math.min(1, used / quota) : 0;

  return (
    <StatCard icon={DocumentIcon} title={t('storage.title')} href="/media" linkLabel={t('openMedia')} testId="overview-storage">
      {stats.isPending ? (
        <Skeleton className="h-6 w-28" />
      ) : stats.isError ? (
        <p className="text-sm text-red-700">{t('couldNotRead')}</p>
      ) : (
        <>
          <p className="text-lg font-semibold text-zinc-900">
            {t.rich(quota ? 'storage.usedOf' : 'storage.used', {
              used: format.bytes(used),
              quota: format.bytes(quota),
              muted: (chunks) => <span className="text-sm font-normal text-zinc-500">{chunks}</span>,
            })}
          </p>
          {quota ? (
            <div
              className="mt-2 h-1.5 overflow-hidden rounded-full bg-zinc-200"
              role="meter"
              aria-label={t('storage.meter')}
              aria-valuemin={0}
              aria-valuemax={quota}
              aria-valuenow={used}
            >
              <div
                className={cn('h-full rounded-full', share > 0.9 ? 'bg-red-500' : 'bg-brand-500')}
                style={{ width: `${Math.max(share * 100, 1)}%` }}
              />
            </div>
          ) : (
            <p className="mt-1 text-sm text-zinc-500">{acrossTenants ? t('storage.someQuotas') : t('storage.noQuota')}</p>
          )}
          {acrossTenants ? <p className="mt-1 text-sm text-zinc-500">{t('storage.summed', { scope })}</p> : null}
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
  const format = useFormat();
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
        <span className="font-medium text-zinc-900 tabular-nums">
          {count.isPending ? <Skeleton className="h-4 w-6" /> : count.isError ? '—' : format.number(count.data)}
        </span>
      </Link>
    </li>
  );
}

function MediaCard() {
  const total = useFileCount(undefined);
  const t = useTranslations('overview');

  return (
    <StatCard icon={PhotoIcon} title={t('media.title')} href="/media" linkLabel={t('openMedia')} testId="overview-media">
      <p className="text-lg font-semibold text-zinc-900">
        {total.isPending ? (
          <Skeleton className="h-6 w-20" />
        ) : total.isError ? (
          <span className="text-sm font-normal text-red-700">{t('couldNotCount')}</span>
        ) : (
          t('media.files', { count: total.data })
        )}
      </p>
      <ul className="mt-2 grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] gap-x-3" aria-label={t('media.byType')}>
        {FILE_TYPES.map((type) => (
          <TypeCount key={type.value} type={type.value} label={t(`media.types.${type.value}`)} />
        ))}
      </ul>
    </StatCard>
  );
}

/** Screens online and offline (the offline ones are listed under "Screens needing attention"), across tenants too. */
function ScreensCard() {
  const { acrossTenants } = useTenant();
  const scope = useAllScope();
  const t = useTranslations('overview');
  const format = useFormat();
  const online = deviceResource.useCount(deviceCountSearch(term('deviceStatus', '=', 'ONLINE'), acrossTenants));
  const total = deviceResource.useCount(deviceCountSearch(null, acrossTenants));
  const offline = (total.data ?? 0) - (online.data ?? 0);

  return (
    <StatCard icon={MonitorIcon} title={t('screens.title')} href="/screens" linkLabel={t('screens.link')} testId="overview-screens">
      <p className="text-lg font-semibold text-zinc-900">
        {online.isPending || total.isPending ? (
          <Skeleton className="h-6 w-12 align-middle" />
        ) : online.isError || total.isError ? (
          <span className="text-sm font-normal text-red-700">{t('couldNotCount')}</span>
        ) : (
          t.rich('screens.online', {
            online: format.number(online.data),
            total: format.number(total.data),
            muted: (chunks) => <span className="text-sm font-normal text-zinc-500">{chunks}</span>,
          })
        )}
      </p>
      {total.data && offline > 0 ? (
        <p className="mt-1 text-sm">
          <Link href="/screens?status=offline" className="relative z-10 text-red-700 hover:underline">
            {t('screens.offline', { count: format.number(offline) })}
          </Link>
        </p>
      ) : (
        <p className="mt-1 text-sm text-zinc-500">{total.data ? t('screens.allOnline') : t('screens.none')}</p>
      )}
      {acrossTenants ? <p className="mt-1 text-sm text-zinc-500">{t('across', { scope })}</p> : null}
    </StatCard>
  );
}

function ChooseTenantCard() {
  const scope = useAllScope();
  const t = useTranslations('overview.chooseTenant');

  return (
    <Card className="flex flex-col p-5">
      <h2 className="flex items-center gap-2 text-sm font-medium text-zinc-500">
        <PhotoIcon className="size-4" />
        {t('title')}
      </h2>
      <p className="mt-2 text-sm text-zinc-600" data-testid="overview-media-choose-tenant">
        {t('text', { scope })}
      </p>
    </Card>
  );
}

function ActivityCard() {
  const { tenant } = useTenant();
  const { allTenants } = useAuditLogScope();
  const log = useAuditLog({ text: '', from: '', to: '', order: 'DESC', page: 0, size: 6 });
  const entries = log.data?.content ?? [];
  const t = useTranslations('overview.activity');
  const format = useFormat();

  return (
    <StatCard icon={ClipboardIcon} title={t('title')} href="/audit-log" linkLabel={t('link')} testId="overview-activity">
      {log.isPending ? (
        <div className="space-y-2">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="block h-4 w-full" />
          ))}
        </div>
      ) : log.isError ? (
        <p className="text-sm text-red-700">{t('loadError')}</p>
      ) : entries.length === 0 ? (
        <p className="text-sm text-zinc-500">{tenant ? t('nothingIn', { name: tenant.name }) : t('nothing')}</p>
      ) : (
        <ol className="divide-y divide-zinc-100" aria-label={t('list')}>
          {entries.map((entry, i) => (
            <li key={`${entry.time}-${i}`} className="py-2 text-sm first:pt-0">
              <p translate="no" className="line-clamp-2 text-zinc-800">
                {entry.message}
              </p>
              <p className="mt-0.5 truncate text-xs text-zinc-500">
                {format.dateTime(entry.time)}
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
  const t = useTranslations('overview.account');
  const label = useLabel();
  const format = useFormat();
  const errorMessage = useErrorMessage();

  return (
    <Card>
      <div className="border-b border-zinc-100 px-5 py-4">
        <h2 className="text-sm font-semibold text-zinc-900">{t('title')}</h2>
      </div>
      {me.isError ? (
        <div className="p-5">
          <Alert title={t('loadError')}>{errorMessage(me.error)}</Alert>
        </div>
      ) : (
        <dl className="grid grid-cols-1 gap-x-6 gap-y-4 px-5 py-4 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-zinc-500">{t('name')}</dt>
            <dd className="mt-0.5 font-medium text-zinc-900">{user.name}</dd>
          </div>
          <div>
            <dt className="text-zinc-500">{t('email')}</dt>
            <dd className="mt-0.5 font-medium break-all text-zinc-900">{user.email}</dd>
          </div>
          <div>
            <dt className="text-zinc-500">{t('role')}</dt>
            <dd className="mt-1">
              <Badge tone="brand">{label('role', user.role)}</Badge>
            </dd>
          </div>
          <div>
            <dt className="text-zinc-500">{t('homeTenant')}</dt>
            <dd className="mt-0.5 font-medium text-zinc-900">
              {me.isPending ? <Skeleton className="h-4 w-32" /> : (me.data?.customer?.name ?? user.customerName ?? '—')}
            </dd>
          </div>
          <div>
            <dt className="text-zinc-500">{t('lastSignIn')}</dt>
            <dd className="mt-0.5 text-zinc-900">
              {me.isPending ? <Skeleton className="h-4 w-40" /> : format.dateTime(me.data?.lastLogin, t('notRecorded'))}
            </dd>
          </div>
          <div>
            <dt className="text-zinc-500">{t('memberSince')}</dt>
            <dd className="mt-0.5 text-zinc-900">{me.isPending ? <Skeleton className="h-4 w-28" /> : format.date(me.data?.createdDate)}</dd>
          </div>
        </dl>
      )}
    </Card>
  );
}

/**
 * What exists today, each linking to its page: the tenant, users, storage, the open alerts, screens, media by type, the
 * latest audit entries, plays today and over the last 7 days, the most played content, channels and files,
 * and the screens needing attention. Across tenants (all, or a whole network) users, storage, screens and the
 * screens needing attention are counted over every tenant; media and plays need one tenant. The audit log needs
 * a role that may read it.
 */
export function Overview({ user }: { user: SessionUser }) {
  const firstName = user.name.split(/\s+/)[0] ?? user.name;
  const me = useCurrentUser();
  const { acrossTenants } = useTenant();
  const hasTenant = !acrossTenants;
  const seesMedia = hasRole(me.role, 'VIEWER');
  const seesActivity = canSeeAuditLog(me.role);
  const t = useTranslations('overview');

  return (
    <>
      <PageHeader title={t('welcome', { name: firstName })} description={t('description')} />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <TenantCard />
        <UsersCard />
        {seesMedia ? <StorageCard /> : null}
      </div>
      {/* Alerts are per tenant (their records name no tenant to open them in): with one tenant chosen. */}
      {seesMedia && hasTenant ? (
        <div className="mt-4">
          <OpenAlertsCard />
        </div>
      ) : null}
      {seesMedia || seesActivity ? (
        <div className={cn('mt-4 grid gap-4', seesMedia && seesActivity ? 'lg:grid-cols-3' : seesMedia && 'lg:grid-cols-2')}>
          {seesMedia ? <ScreensCard /> : null}
          {seesMedia ? hasTenant ? <MediaCard /> : <AttentionCard /> : null}
          {seesActivity ? <ActivityCard /> : null}
        </div>
      ) : null}
      {seesMedia && !hasTenant ? (
        <div className="mt-4">
          <ChooseTenantCard />
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
