/** The ADMIN's tenant selection, kept in a cookie so the server renders the right tenant on first paint. */
export const TENANT_COOKIE = 'signage.tenant';

export type TenantSelection = { id: number; name: string };

export function parseTenantCookie(raw: string | undefined | null): TenantSelection | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(decodeURIComponent(raw)) as unknown;
    if (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as TenantSelection).id === 'number' &&
      typeof (value as TenantSelection).name === 'string'
    ) {
      return { id: (value as TenantSelection).id, name: (value as TenantSelection).name };
    }
  } catch {
    // A malformed cookie means no selection.
  }

  return null;
}

export function serializeTenantCookie(selection: TenantSelection | null): string {
  const attrs = 'Path=/; SameSite=Lax';
  if (!selection) return `${TENANT_COOKIE}=; ${attrs}; Max-Age=0`;

  return `${TENANT_COOKIE}=${encodeURIComponent(JSON.stringify(selection))}; ${attrs}; Max-Age=${60 * 60 * 24 * 365}`;
}
