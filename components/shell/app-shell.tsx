'use client';

import { useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import { Brand, BrandMark } from '@/components/shell/brand';
import { BuildingIcon, ChevronLeftIcon, ChevronRightIcon, MenuIcon } from '@/components/ui/icons';
import { NotificationBell } from '@/components/shell/notification-bell';
import { SessionWatcher } from '@/components/shell/session-watcher';
import { SidebarNav } from '@/components/shell/sidebar-nav';
import { TenantSwitcher } from '@/components/shell/tenant-switcher';
import { TotpPromptProvider } from '@/components/shell/totp-prompt';
import { UserMenu } from '@/components/shell/user-menu';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import type { SessionUser } from '@/lib/auth/types';
import { cn } from '@/lib/cn';
import { serializeSidebarCookie } from '@/lib/shell/sidebar-cookie';
import { useTenant } from '@/lib/tenant/tenant-context';

function TenantIndicator() {
  const { canSwitch, tenant } = useTenant();
  if (canSwitch) return <TenantSwitcher />;
  if (!tenant) return null;

  return (
    <span className="inline-flex min-w-0 items-center gap-2 text-sm text-zinc-600">
      <BuildingIcon className="size-4 shrink-0 text-zinc-400" />
      <span className="truncate" data-testid="current-tenant">
        {tenant.name}
      </span>
    </span>
  );
}

/**
 * The console's frame. From `lg` up the sidebar is a column of 256 px or, collapsed, a 64 px rail of icons
 * (remembered per browser in a cookie the server reads); below `lg` it opens as a drawer from the header.
 */
export function AppShell({
  user,
  initialCollapsed = false,
  children,
}: {
  user: SessionUser;
  initialCollapsed?: boolean;
  children: ReactNode;
}) {
  const t = useTranslations('shell');
  const [isNavOpen, setIsNavOpen] = useState(false);
  const [collapsed, setCollapsed] = useState(initialCollapsed);
  const toggle = () => {
    const next = !collapsed;
    setCollapsed(next);
    document.cookie = serializeSidebarCookie(next);
  };

  // The one-time-code prompt wraps the header too: the user menu's language switch is a protected user change.
  return (
    <TotpPromptProvider>
      <div className={cn('min-h-dvh', collapsed ? 'lg:pl-16' : 'lg:pl-64')} data-sidebar={collapsed ? 'collapsed' : 'expanded'}>
        <SessionWatcher />
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow"
        >
          {t('skipToContent')}
        </a>

        <aside
          id="sidebar"
          aria-label={t('sidebar')}
          className={cn(
            'fixed inset-y-0 left-0 z-40 hidden flex-col border-r border-zinc-200 bg-white lg:flex',
            collapsed ? 'w-16' : 'w-64',
          )}
        >
          <div className={cn('flex h-16 shrink-0 items-center', collapsed ? 'justify-center' : 'px-5')}>
            {collapsed ? <BrandMark /> : <Brand />}
          </div>
          <SidebarNav collapsed={collapsed} />
          {/* Above the list: on a short screen the entries run past the footer, which must stay reachable. */}
          <div className={cn('relative z-10 border-t border-zinc-200 bg-white py-2', collapsed ? 'px-2' : 'px-3')}>
            <button
              type="button"
              onClick={toggle}
              aria-expanded={!collapsed}
              aria-controls="sidebar"
              title={collapsed ? t('expandSidebar') : undefined}
              className={cn(
                'flex w-full cursor-pointer items-center gap-3 rounded-md py-2 text-sm text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
                collapsed ? 'justify-center px-0' : 'px-2.5',
              )}
            >
              {collapsed ? <ChevronRightIcon className="size-[18px] shrink-0" /> : <ChevronLeftIcon className="size-[18px] shrink-0" />}
              <span className={collapsed ? 'sr-only' : undefined}>{collapsed ? t('expandSidebar') : t('collapseSidebar')}</span>
            </button>
          </div>
        </aside>

        <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b border-zinc-200 bg-white/90 px-4 backdrop-blur sm:px-6 lg:px-8">
          <Dialog open={isNavOpen} onOpenChange={setIsNavOpen}>
            <DialogTrigger asChild>
              <Button variant="ghost" size="sm" className="lg:hidden" aria-label={t('openNavigation')}>
                <MenuIcon className="size-5" />
              </Button>
            </DialogTrigger>
            <DialogContent title={t('navigation')} placement="left">
              <SidebarNav onNavigate={() => setIsNavOpen(false)} />
            </DialogContent>
          </Dialog>
          <div className="min-w-0 flex-1">
            <TenantIndicator />
          </div>
          <NotificationBell />
          <UserMenu user={user} />
        </header>

        <main id="main" className="min-w-0 px-4 py-8 sm:px-6 lg:px-8">
          <div className="mx-auto max-w-6xl">{children}</div>
        </main>
      </div>
    </TotpPromptProvider>
  );
}
