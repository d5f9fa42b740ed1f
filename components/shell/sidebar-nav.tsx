'use client';

import { Link } from '@/components/ui/link';
import { usePathname } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { BookIcon, ExternalIcon } from '@/components/ui/icons';
import { isActive, NAV_ITEMS, navItemsFor, type NavBadgeKind } from '@/components/shell/nav-items';
import { useAwaitingApprovalCount } from '@/lib/api/licences';
import { useIsNetworkOwner } from '@/lib/api/network-owner';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useUiElements } from '@/lib/ui-profile/use-ui-profile';
import { cn } from '@/lib/cn';

/**
 * A collapsed rail's label: shown beside the icon on hover and keyboard focus (the link keeps its name for screen readers).
 * Fixed, at the height `placeRailTooltip` measured: the list scrolls on a short window, and a scrolling box would clip a
 * tooltip that stands outside it.
 */
function RailTooltip({ label }: { label: string }) {
  return (
    <span
      aria-hidden="true"
      className="pointer-events-none fixed top-(--rail-tip-top) left-16 z-50 ml-1 hidden -translate-y-1/2 rounded-md bg-zinc-900 px-2 py-1 text-xs font-medium whitespace-nowrap text-white shadow group-hover:block group-focus-visible:block"
    >
      {label}
    </span>
  );
}

/** Where the hovered or focused rail link is now (the list may have scrolled): its tooltip's height. */
function placeRailTooltip(event: { currentTarget: HTMLElement }) {
  const box = event.currentTarget.getBoundingClientRect();
  event.currentTarget.style.setProperty('--rail-tip-top', `${box.top + box.height / 2}px`);
}

/** The main navigation; `collapsed` draws it as a rail of icons with their labels as tooltips. */
export function SidebarNav({ onNavigate, collapsed = false }: { onNavigate?: () => void; collapsed?: boolean }) {
  const t = useTranslations('shell.nav');
  const pathname = usePathname();
  const user = useCurrentUser();
  const isNetworkOwner = useIsNetworkOwner();
  // Entries wait for the UI profile, so one it hides never flashes into view.
  const ui = useUiElements();
  const items = ui.ready ? navItemsFor(NAV_ITEMS, { role: user.role, isNetworkOwner }, ui.isVisible) : [];

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      {/* The list scrolls when the window is shorter than the entries (1024 × 768 with every entry). */}
      <nav aria-label={t('label')} className={cn('min-h-0 flex-1 overflow-y-auto py-4', collapsed ? 'px-2' : 'px-3')}>
        <ul className="space-y-0.5">
          {!ui.ready ? <NavSkeleton collapsed={collapsed} /> : null}
          {items.map((item) => {
            const active = isActive(item, pathname);
            const badgeId = item.badge ? `nav-badge-${item.badge}` : undefined;

            return (
              <li key={item.href} className="relative">
                <Link
                  href={item.href}
                  aria-describedby={badgeId}
                  onClick={onNavigate}
                  onPointerEnter={collapsed ? placeRailTooltip : undefined}
                  onFocus={collapsed ? placeRailTooltip : undefined}
                  aria-current={active ? 'page' : undefined}
                  className={cn(
                    'group flex items-center gap-3 rounded-md py-2 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
                    collapsed ? 'justify-center px-0' : 'px-2.5',
                    active ? 'bg-brand-50 text-brand-700' : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900',
                  )}
                >
                  <item.icon
                    className={cn('size-[18px] shrink-0', active ? 'text-brand-600' : 'text-zinc-400 group-hover:text-zinc-600')}
                  />
                  <span className={collapsed ? 'sr-only' : undefined}>{t(item.label)}</span>
                  {collapsed ? <RailTooltip label={t(item.label)} /> : null}
                </Link>
                {item.badge && badgeId ? <NavBadge kind={item.badge} id={badgeId} collapsed={collapsed} /> : null}
              </li>
            );
          })}
        </ul>
      </nav>
      <div className={cn('relative border-t border-zinc-200 py-3', collapsed ? 'px-2' : 'px-3')}>
        <a
          href="/api/docs"
          target="_blank"
          rel="noopener"
          onPointerEnter={collapsed ? placeRailTooltip : undefined}
          onFocus={collapsed ? placeRailTooltip : undefined}
          className={cn(
            'group relative flex items-center gap-3 rounded-md py-2 text-sm text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
            collapsed ? 'justify-center px-0' : 'px-2.5',
          )}
        >
          <BookIcon className="size-[18px] shrink-0 text-zinc-400 group-hover:text-zinc-600" />
          <span className={collapsed ? 'sr-only' : undefined}>{t('apiReference')}</span>
          {collapsed ? <RailTooltip label={t('apiReference')} /> : <ExternalIcon className="ml-auto size-3.5 text-zinc-400" />}
          <span className="sr-only">{t('newTab')}</span>
        </a>
      </div>
    </div>
  );
}

/**
 * A count beside an entry, for the users it concerns (awaiting approval: the super admin). It stands beside the link,
 * not in it, so the entry's name stays its label; the link names it through `aria-describedby`.
 */
function NavBadge({ kind, id, collapsed }: { kind: NavBadgeKind; id: string; collapsed: boolean }) {
  const t = useTranslations('shell.nav');
  const user = useCurrentUser();
  const awaiting = useAwaitingApprovalCount({ enabled: kind === 'awaitingApproval' && user.role === 'ADMIN' });
  const count = awaiting.data ?? 0;
  if (count <= 0) return null;

  return (
    <span
      id={id}
      data-testid={`nav-badge-${kind}`}
      title={t('awaitingApproval', { count })}
      className={cn(
        'pointer-events-none absolute rounded-full bg-amber-500 text-center font-semibold text-white tabular-nums',
        collapsed
          ? 'top-0.5 right-0.5 min-w-4 px-1 text-[10px] leading-4'
          : 'top-1/2 right-2.5 min-w-5 -translate-y-1/2 px-1.5 text-xs leading-5',
      )}
    >
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <span className="sr-only">{t('awaitingApproval', { count })}</span>
    </span>
  );
}

function NavSkeleton({ collapsed }: { collapsed: boolean }) {
  return (
    <>
      {[0, 1, 2].map((i) => (
        <li key={i} aria-hidden="true" className={cn('flex items-center gap-3 py-2', collapsed ? 'justify-center' : 'px-2.5')}>
          <span className="size-[18px] animate-pulse rounded bg-zinc-100" />
          {collapsed ? null : <span className="h-3.5 w-20 animate-pulse rounded bg-zinc-100" />}
        </li>
      ))}
    </>
  );
}
