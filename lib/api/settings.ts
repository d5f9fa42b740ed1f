'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import type { Customer, Schemas } from '@/lib/api/types';
import { teamReadKeys } from '@/lib/api/team-reads';
import { wireTimeZone } from '@/lib/time-zones';
import { useTenant } from '@/lib/tenant/tenant-context';

/** The team access settings of a customer (spec 3 "Team access settings"); all default to true. */
export const TEAM_SETTING_FIELDS = [
  {
    name: 'userFullAccessIfNotInTeam',
    label: 'Full access for users outside any team',
    description: 'Users who belong to no team see every resource. When off, they see only the root folders.',
  },
  {
    name: 'accessResourcesWithoutTeam',
    label: 'Team members can use resources without a team',
    description: 'Resources assigned to no team stay available to team members.',
  },
  {
    name: 'isDeviceAndGroupCreationEnabledInRootForTeamUsers',
    label: 'Team members can create devices and device folders in the root',
    description: 'When off, team members create them only inside their teams’ folders.',
  },
  {
    name: 'isContentAndGroupCreationEnabledInRootForTeamUsers',
    label: 'Team members can create contents and content folders in the root',
    description: 'When off, team members create them only inside their teams’ folders.',
  },
  {
    name: 'isFileAndFolderCreationEnabledInRootForTeamUsers',
    label: 'Team members can upload files and create file folders in the root',
    description: 'When off, team members work only inside their teams’ folders.',
  },
] as const;

type TeamSettingName = (typeof TEAM_SETTING_FIELDS)[number]['name'];
export type TeamSettings = Record<TeamSettingName, boolean>;

/** A customer's settings are read from the customer itself. */
export type CustomerSettings = Customer;

export type ResourceLimit = Schemas['CustomerResourceLimit'];

const settingsKeys = {
  all: ['settings'] as const,
  customer: (id: number) => [...settingsKeys.all, 'customer', id] as const,
  limits: (customerId: number | undefined) => [...settingsKeys.all, 'limits', { customerId }] as const,
};

/** Absent flags take the spec's default, true. */
export function teamSettingsOf(customer: CustomerSettings): TeamSettings {
  return Object.fromEntries(TEAM_SETTING_FIELDS.map((f) => [f.name, customer[f.name] ?? true])) as TeamSettings;
}

export function useCustomerSettings(customerId: number | null) {
  return useQuery({
    queryKey: settingsKeys.customer(customerId ?? 0),
    queryFn: ({ signal }) => ok(api.GET('/api/customer/{id}', { params: { path: { id: customerId! } }, signal }), as<CustomerSettings>()),
    enabled: customerId !== null,
  });
}

/** `customerId` selects the tenant (ADMIN); others change their own. */
export function useUpdateTeamSettings(customerId: number | null, asSelector: boolean) {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: (settings: TeamSettings) =>
      ok(
        api.PUT('/api/customer/settings/teams', { params: { query: tenantQuery(asSelector ? customerId : undefined) }, body: settings }),
        as<CustomerSettings>(),
      ),
    onSuccess: (customer) => {
      if (customerId !== null) queryClient.setQueryData(settingsKeys.customer(customerId), customer);

      return queryClient.invalidateQueries({ queryKey: teamReadKeys.all });
    },
  });
}

export function useResourceLimits(customerId: number | undefined, enabled = true) {
  return useQuery({
    queryKey: settingsKeys.limits(customerId),
    queryFn: ({ signal }) => ok(api.GET('/api/customer/resourceLimits', { params: { query: tenantQuery(customerId) }, signal })),
    enabled,
  });
}

/** PUT /api/customer/settings/devices: the zone proposed when a screen is added; '' removes it. */
export function useUpdateDeviceSettings(customerId: number | null, asSelector: boolean) {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: ({ defaultTimeZone }: { defaultTimeZone: string }) =>
      // The picker offers only the server's zones ('' removes the setting).
      ok(
        api.PUT('/api/customer/settings/devices', {
          params: { query: tenantQuery(asSelector ? customerId : undefined) },
          body: { defaultTimeZone: defaultTimeZone === '' ? '' : wireTimeZone(defaultTimeZone) },
        }),
        as<CustomerSettings>(),
      ),
    onSuccess: (customer) => {
      if (customerId !== null) queryClient.setQueryData(settingsKeys.customer(customerId), customer);
    },
  });
}

/** The selected tenant's default zone for new screens (undefined while loading or when none is set). */
export function useTenantDefaultTimeZone(): string | undefined {
  const { tenant } = useTenant();
  const customer = useCustomerSettings(tenant?.id ?? null);

  return customer.data?.defaultTimeZone ?? undefined;
}
