import type { ComponentType, SVGProps } from 'react';
import { HomeIcon, UsersIcon } from '@/components/shell/icons';
import { SettingsIcon, TeamIcon } from '@/components/teams/icons';
import { hasRole, type Role } from '@/server/auth/roles';

export type NavItem = {
  href: string;
  label: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Exact match for the overview, prefix match for sections. */
  exact?: boolean;
  /** The lowest role that sees the entry; everyone when absent. */
  minRole?: Role;
  /** The UI-profile key that hides the entry (lib/ui-profile/rules.ts). */
  uiElement?: string;
};

/** Only pages that exist. Add an entry when a page lands. */
export const NAV_ITEMS: NavItem[] = [
  { href: '/', label: 'Overview', icon: HomeIcon, exact: true, uiElement: 'newUi.navigation.overview' },
  { href: '/users', label: 'Users', icon: UsersIcon, uiElement: 'newUi.navigation.users' },
  { href: '/teams', label: 'Teams', icon: TeamIcon, minRole: 'VIEWER', uiElement: 'newUi.navigation.teams' },
  { href: '/settings', label: 'Settings', icon: SettingsIcon, minRole: 'OWNER', uiElement: 'newUi.navigation.settings' },
];

/** The entries the role may use and the user's UI profile does not hide. */
export function navItemsFor(items: NavItem[], role: Role, isUiElementVisible: (key: string) => boolean): NavItem[] {
  return items.filter((item) => (!item.minRole || hasRole(role, item.minRole)) && (!item.uiElement || isUiElementVisible(item.uiElement)));
}

export function isActive(item: NavItem, pathname: string): boolean {
  return item.exact ? pathname === item.href : pathname === item.href || pathname.startsWith(`${item.href}/`);
}
