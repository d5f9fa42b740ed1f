'use client';

import { useState, type ReactNode } from 'react';
import { Brand } from '@/components/shell/brand';
import { BuildingIcon, MenuIcon } from '@/components/ui/icons';
import { SessionWatcher } from '@/components/shell/session-watcher';
import { SidebarNav } from '@/components/shell/sidebar-nav';
import { TenantSwitcher } from '@/components/shell/tenant-switcher';
import { TotpPromptProvider } from '@/components/shell/totp-prompt';
import { UserMenu } from '@/components/shell/user-menu';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import type { SessionUser } from '@/lib/auth/types';
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

export function AppShell({ user, children }: { user: SessionUser; children: ReactNode }) {
  const [isNavOpen, setIsNavOpen] = useState(false);

  return (
    <div className="min-h-dvh lg:pl-64">
      <SessionWatcher />
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow"
      >
        Skip to content
      </a>

      <aside className="fixed inset-y-0 left-0 hidden w-64 flex-col border-r border-zinc-200 bg-white lg:flex">
        <div className="flex h-16 items-center px-5">
          <Brand />
        </div>
        <SidebarNav />
      </aside>

      <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b border-zinc-200 bg-white/90 px-4 backdrop-blur sm:px-6 lg:px-8">
        <Dialog open={isNavOpen} onOpenChange={setIsNavOpen}>
          <DialogTrigger asChild>
            <Button variant="ghost" size="sm" className="lg:hidden" aria-label="Open navigation">
              <MenuIcon className="size-5" />
            </Button>
          </DialogTrigger>
          <DialogContent title="Navigation" placement="left">
            <SidebarNav onNavigate={() => setIsNavOpen(false)} />
          </DialogContent>
        </Dialog>
        <div className="min-w-0 flex-1">
          <TenantIndicator />
        </div>
        <UserMenu user={user} />
      </header>

      <main id="main" className="px-4 py-8 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-6xl">
          <TotpPromptProvider>{children}</TotpPromptProvider>
        </div>
      </main>
    </div>
  );
}
