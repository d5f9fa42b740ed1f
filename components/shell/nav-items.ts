import type { ComponentType, SVGProps } from 'react';
import { BriefcaseIcon, ClipboardIcon, HomeIcon, UsersIcon } from '@/components/shell/icons';
import type { Role } from '@/lib/api/types';
import { canManageCustomers, canSeeAuditLog } from '@/lib/auth/permissions';

/** What decides whether a page is shown to the signed-in user. */
export type NavAccess = { role: Role; isNetworkOwner: boolean };

export type NavItem = {
  href: string;
  label: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Exact match for the overview, prefix match for sections. */
  exact?: boolean;
  /** Hidden from users who cannot use the page; shown to everyone when absent. */
  visible?: (access: NavAccess) => boolean;
};

/** Only pages that exist. Add an entry when a page lands. */
export const NAV_ITEMS: NavItem[] = [
  { href: '/', label: 'Overview', icon: HomeIcon, exact: true },
  { href: '/users', label: 'Users', icon: UsersIcon },
  { href: '/customers', label: 'Customers', icon: BriefcaseIcon, visible: (a) => canManageCustomers(a.role, a.isNetworkOwner) },
  { href: '/audit-log', label: 'Audit log', icon: ClipboardIcon, visible: (a) => canSeeAuditLog(a.role) },
];

export function visibleNavItems(access: NavAccess): NavItem[] {
  return NAV_ITEMS.filter((item) => !item.visible || item.visible(access));
}

export function isActive(item: NavItem, pathname: string): boolean {
  return item.exact ? pathname === item.href : pathname === item.href || pathname.startsWith(`${item.href}/`);
}
