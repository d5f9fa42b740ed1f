/** Whether the console's sidebar is collapsed to an icon rail, kept per browser in a cookie so the server renders it on first paint. */
export const SIDEBAR_COOKIE = 'signage.sidebar';

export function parseSidebarCookie(raw: string | undefined | null): boolean {
  return raw === 'collapsed';
}

export function serializeSidebarCookie(collapsed: boolean): string {
  return `${SIDEBAR_COOKIE}=${collapsed ? 'collapsed' : 'expanded'}; Path=/; SameSite=Lax; Max-Age=${60 * 60 * 24 * 365}`;
}
