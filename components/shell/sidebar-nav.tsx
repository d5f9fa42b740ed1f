'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { BookIcon, ExternalIcon } from '@/components/shell/icons';
import { isActive, visibleNavItems } from '@/components/shell/nav-items';
import { useIsNetworkOwner } from '@/lib/api/customers';
import { useCurrentUser } from '@/lib/auth/current-user';
import { cn } from '@/lib/cn';

export function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const pathname = usePathname();
  const user = useCurrentUser();
  const isNetworkOwner = useIsNetworkOwner();
  const items = visibleNavItems({ role: user.role, isNetworkOwner });

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <nav aria-label="Main" className="flex-1 px-3 py-4">
        <ul className="space-y-0.5">
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
