import type { ComponentType, SVGProps } from 'react';
import {
  BellIcon,
  BoltIcon,
  BriefcaseIcon,
  CalendarIcon,
  ChartIcon,
  ClipboardIcon,
  DatabaseIcon,
  HomeIcon,
  KeyIcon,
  ListIcon,
  MegaphoneIcon,
  MonitorIcon,
  PhotoIcon,
  PlayIcon,
  PlaylistIcon,
  SettingsIcon,
  SlidersIcon,
  TeamIcon,
  UsersIcon,
  WarningIcon,
} from '@/components/ui/icons';
import type { Role } from '@/lib/api/types';
import type { Messages } from '@/messages/en';
import { canManageCustomers, canSeeAuditLog } from '@/lib/auth/permissions';
import { hasRole } from '@/server/context/roles';

/** What decides whether a page is shown to the signed-in user. */
export type NavAccess = { role: Role; isNetworkOwner: boolean };

/** An entry's name in the `shell.nav` catalogue. */
type NavLabel = Exclude<keyof Messages['shell']['nav'], 'label' | 'apiReference' | 'newTab' | 'awaitingApproval'>;

export type NavItem = {
  href: string;
  label: NavLabel;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Exact match for the overview, prefix match for sections. */
  exact?: boolean;
  /** Hidden from users who cannot use the page; shown to everyone when absent. */
  visible?: (access: NavAccess) => boolean;
  /** The UI-profile key that hides the entry (lib/ui-profile/rules.ts). */
  uiElement?: string;
  /** A count beside the entry, read by the sidebar (sidebar-nav.tsx `NavBadge`) for the users it concerns. */
  badge?: NavBadgeKind;
};

/** The counts an entry can carry: licence orders awaiting the super admin's approval. */
export type NavBadgeKind = 'awaitingApproval';

/** Only pages that exist. Add an entry when a page lands. */
export const NAV_ITEMS: NavItem[] = [
  { href: '/', label: 'overview', icon: HomeIcon, exact: true, uiElement: 'newUi.navigation.overview' },
  { href: '/media', label: 'media', icon: PhotoIcon, visible: (a) => hasRole(a.role, 'VIEWER'), uiElement: 'newUi.navigation.media' },
  {
    href: '/content',
    label: 'content',
    icon: PlaylistIcon,
    visible: (a) => hasRole(a.role, 'VIEWER'),
    uiElement: 'newUi.navigation.content',
  },
  {
    href: '/channels',
    label: 'channels',
    icon: PlayIcon,
    visible: (a) => hasRole(a.role, 'VIEWER'),
    uiElement: 'newUi.navigation.channels',
  },
  {
    href: '/sub-channels',
    label: 'subChannels',
    icon: ListIcon,
    visible: (a) => hasRole(a.role, 'VIEWER'),
    uiElement: 'newUi.navigation.subChannels',
  },
  // Writes need EDITOR (the datasource API's minimum); the page hides them below that.
  {
    href: '/datasources',
    label: 'datasources',
    icon: DatabaseIcon,
    visible: (a) => hasRole(a.role, 'VIEWER'),
    uiElement: 'newUi.navigation.datasources',
  },
  // Writes (create, move, delete) need APPROVER, the campaign API's minimum; the page hides them below that.
  {
    href: '/schedules',
    label: 'schedules',
    icon: CalendarIcon,
    visible: (a) => hasRole(a.role, 'VIEWER'),
    uiElement: 'newUi.navigation.schedules',
  },
  {
    href: '/proof-of-play',
    label: 'proofOfPlay',
    icon: ChartIcon,
    visible: (a) => hasRole(a.role, 'VIEWER'),
    uiElement: 'newUi.navigation.proofOfPlay',
  },
  {
    href: '/screens',
    label: 'screens',
    icon: MonitorIcon,
    visible: (a) => hasRole(a.role, 'VIEWER'),
    uiElement: 'newUi.navigation.screens',
  },
  {
    href: '/advertisers',
    label: 'advertisers',
    icon: MegaphoneIcon,
    visible: (a) => hasRole(a.role, 'VIEWER'),
    uiElement: 'newUi.navigation.advertisers',
  },
  // Alerts: VIEWER reads screens' and datasources' alerts; rules and channels need TECHNICIAN (spec 2).
  {
    href: '/alerts',
    label: 'alerts',
    icon: WarningIcon,
    visible: (a) => hasRole(a.role, 'VIEWER'),
    uiElement: 'newUi.navigation.alerts',
  },
  {
    href: '/alert-rules',
    label: 'alertRules',
    icon: SlidersIcon,
    visible: (a) => hasRole(a.role, 'TECHNICIAN'),
    uiElement: 'newUi.navigation.alertRules',
  },
  {
    href: '/notification-channels',
    label: 'notificationChannels',
    icon: BellIcon,
    visible: (a) => hasRole(a.role, 'TECHNICIAN'),
    uiElement: 'newUi.navigation.notificationChannels',
  },
  // Webhook actions and their API keys: every operation needs TECHNICIAN (spec 3 "Webhook actions and keys").
  {
    href: '/integrations',
    label: 'integrations',
    icon: BoltIcon,
    visible: (a) => hasRole(a.role, 'TECHNICIAN'),
    uiElement: 'newUi.navigation.integrations',
  },
  { href: '/users', label: 'users', icon: UsersIcon, uiElement: 'newUi.navigation.users' },
  { href: '/teams', label: 'teams', icon: TeamIcon, visible: (a) => hasRole(a.role, 'VIEWER'), uiElement: 'newUi.navigation.teams' },
  {
    href: '/customers',
    label: 'customers',
    icon: BriefcaseIcon,
    visible: (a) => canManageCustomers(a.role, a.isNetworkOwner),
    uiElement: 'newUi.navigation.customers',
  },
  // Licences: OWNER orders them (spec 3 createAsCustomer); the super admin approves, with the count awaiting it.
  {
    href: '/licences',
    label: 'licences',
    icon: KeyIcon,
    visible: (a) => hasRole(a.role, 'OWNER'),
    uiElement: 'newUi.navigation.licences',
    badge: 'awaitingApproval',
  },
  {
    href: '/audit-log',
    label: 'auditLog',
    icon: ClipboardIcon,
    visible: (a) => canSeeAuditLog(a.role),
    uiElement: 'newUi.navigation.auditLog',
  },
  {
    href: '/settings',
    label: 'settings',
    icon: SettingsIcon,
    visible: (a) => hasRole(a.role, 'OWNER'),
    uiElement: 'newUi.navigation.settings',
  },
];

/** The entries the user may use and the user's UI profile does not hide. */
export function navItemsFor(items: NavItem[], access: NavAccess, isUiElementVisible: (key: string) => boolean): NavItem[] {
  return items.filter((item) => (!item.visible || item.visible(access)) && (!item.uiElement || isUiElementVisible(item.uiElement)));
}

export function isActive(item: NavItem, pathname: string): boolean {
  return item.exact ? pathname === item.href : pathname === item.href || pathname.startsWith(`${item.href}/`);
}
