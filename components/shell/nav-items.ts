import type { ComponentType, SVGProps } from 'react';
import { HomeIcon, UsersIcon } from '@/components/shell/icons';

export type NavItem = {
  href: string;
  label: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Exact match for the overview, prefix match for sections. */
  exact?: boolean;
};

/** Only pages that exist. Add an entry when a page lands. */
export const NAV_ITEMS: NavItem[] = [
  { href: '/', label: 'Overview', icon: HomeIcon, exact: true },
  { href: '/users', label: 'Users', icon: UsersIcon },
];

export function isActive(item: NavItem, pathname: string): boolean {
  return item.exact ? pathname === item.href : pathname === item.href || pathname.startsWith(`${item.href}/`);
}
