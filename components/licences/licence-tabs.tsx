'use client';

import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useCurrentUser } from '@/lib/auth/current-user';
import { cn } from '@/lib/cn';

const TABS = [
  { key: 'orders', href: '/licences', isAdminOnly: false },
  { key: 'packages', href: '/licences/packages', isAdminOnly: true },
  { key: 'invoices', href: '/licences/invoices', isAdminOnly: true },
] as const;

export type LicenceTab = (typeof TABS)[number]['key'];

/** The licence pages' tab row: orders for everyone, packages and invoices for the super admin (alone: no row). */
export function LicenceTabs({ current }: { current: LicenceTab }) {
  const t = useTranslations('licences.tabs');
  const me = useCurrentUser();
  const tabs = TABS.filter((tab) => !tab.isAdminOnly || me.role === 'ADMIN');
  if (tabs.length < 2) return null;

  return (
    <nav aria-label={t('label')} className="mb-4 flex gap-1 overflow-x-auto border-b border-zinc-200">
      {tabs.map((tab) => (
        <Link
          key={tab.key}
          href={tab.href}
          aria-current={tab.key === current ? 'page' : undefined}
          className={cn(
            '-mb-px border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap',
            tab.key === current ? 'border-brand-600 text-brand-700' : 'border-transparent text-zinc-500 hover:text-zinc-800',
          )}
        >
          {t(tab.key)}
        </Link>
      ))}
    </nav>
  );
}
