'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { BookIcon, ExternalIcon } from '@/components/ui/icons';
import { isActive, NAV_ITEMS, navItemsFor } from '@/components/shell/nav-items';
import { useIsNetworkOwner } from '@/lib/api/network-owner';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useUiElements } from '@/lib/ui-profile/use-ui-profile';
import { cn } from '@/lib/cn';

export function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const pathname = usePathname();
  const user = useCurrentUser();
  const isNetworkOwner = useIsNetworkOwner();
  // Entries wait for the UI profile, so one it hides never flashes into view.
  const ui = useUiElements();
  const items = ui.ready ? navItemsFor(NAV_ITEMS, { role: user.role, isNetworkOwner }, ui.isVisible) : [];

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <nav aria-label="Main" className="flex-1 px-3 py-4">
        <ul className="space-y-0.5">
          {!ui.ready ? <NavSkeleton /> : null}
          {items.map((item) => {
            const active = isActive(item, pathname);

            return (
              <li key={item.href}>
                <Link
                  href={item.href}
                  onClick={onNavigate}
                  aria-current={active ? 'page' : undefined}
                  className={cn(
                    'group flex items-center gap-3 rounded-md px-2.5 py-2 text-sm font-medium transition-colors',
                    active ? 'bg-brand-50 text-brand-700' : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900',
                  )}
                >
                  <item.icon
                    className={cn('size-[18px] shrink-0', active ? 'text-brand-600' : 'text-zinc-400 group-hover:text-zinc-600')}
                  />
                  {item.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="border-t border-zinc-200 px-3 py-3">
        <a
          href="/api/docs"
          target="_blank"
          rel="noopener"
          className="group flex items-center gap-3 rounded-md px-2.5 py-2 text-sm text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900"
        >
          <BookIcon className="size-[18px] shrink-0 text-zinc-400 group-hover:text-zinc-600" />
          API reference
          <ExternalIcon className="ml-auto size-3.5 text-zinc-400" />
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      </div>
    </div>
  );
}

function NavSkeleton() {
  return (
    <>
      {[0, 1, 2].map((i) => (
        <li key={i} aria-hidden="true" className="flex items-center gap-3 px-2.5 py-2">
          <span className="size-[18px] animate-pulse rounded bg-zinc-100" />
          <span className="h-3.5 w-20 animate-pulse rounded bg-zinc-100" />
        </li>
      ))}
    </>
  );
}
