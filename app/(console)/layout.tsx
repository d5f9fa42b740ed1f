import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { AppShell } from '@/components/shell/app-shell';
import { CurrentUserProvider } from '@/lib/auth/current-user';
import { readSessionUser } from '@/lib/auth/session';
import { parseSidebarCookie, SIDEBAR_COOKIE } from '@/lib/shell/sidebar-cookie';
import { TenantProvider } from '@/lib/tenant/tenant-context';
import { parseTenantCookie, TENANT_COOKIE } from '@/lib/tenant/tenant-cookie';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  // proxy.ts redirects first with a callbackUrl; this is the backstop.
  const user = await readSessionUser();
  if (!user) redirect('/login');
  const jar = await cookies();
  const initialSelection = parseTenantCookie(jar.get(TENANT_COOKIE)?.value);
  const sidebarCollapsed = parseSidebarCookie(jar.get(SIDEBAR_COOKIE)?.value);

  return (
    <CurrentUserProvider user={user}>
      <TenantProvider user={user} initialSelection={initialSelection}>
        <AppShell user={user} initialCollapsed={sidebarCollapsed}>
          {children}
        </AppShell>
      </TenantProvider>
    </CurrentUserProvider>
  );
}
