import { useTranslations } from 'next-intl';
import { useCallback, useMemo } from 'react';
import type { Device } from '@/lib/api/devices';
import { freeOfOrder, useApprovedOrders, useLicenceDashboard, type LicenseOrderLimited } from '@/lib/api/licences';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';

/*
 * The licences a screen can be given in the console (spec 3 assignToCustomer / updateLicense): none, FREE with a
 * licence type (drawing on the customer's free licences), or LICENSED against an approved licence order of the
 * customer. Only licences that are free are offered (useLicenceOffers). Their words are the label table's
 * (licenseStatus, licenseType: spec 3's names Lite, Professional, Premium, Video Wall).
 */
const FREE_CHOICES = ['FREE:BASIC', 'FREE:PROFESSIONAL', 'FREE:ENTERPRISE'] as const;

type FreeChoice = (typeof FREE_CHOICES)[number];
/** `ORDER:<id>`: LICENSED against that licence order. */
type OrderChoice = `ORDER:${number}`;
export type LicenseChoice = 'UN_LICENSED' | FreeChoice | OrderChoice;

export type LicenseFields = {
  licenseStatus: 'UN_LICENSED' | 'FREE' | 'LICENSED';
  licenseType?: 'BASIC' | 'PROFESSIONAL' | 'ENTERPRISE';
  licenseOrderId?: number;
};

/** How the console words licences: a screen's licence ("Free: Professional", "Licensed: Premium", "No licence"). */
export function useLicenseWords() {
  const t = useTranslations('devices.license');
  const label = useLabel();
  const licenseLabel = useCallback(
    (device: Pick<Device, 'licenseStatus' | 'licenseType'>): string => {
      if (!device.licenseStatus) return '—';
      const status = label('licenseStatus', device.licenseStatus);

      return device.licenseStatus !== 'UN_LICENSED' && device.licenseType
        ? t('withType', { status, type: label('licenseType', device.licenseType) })
        : status;
    },
    [t, label],
  );

  return { licenseLabel };
}

/** The choice a screen's licence is (a TRIAL one, or LICENSED without its order, is none of them: null). */
export function licenseChoiceOf(device: Pick<Device, 'licenseStatus' | 'licenseType' | 'licenseOrderId'>): LicenseChoice | null {
  if (!device.licenseStatus || device.licenseStatus === 'UN_LICENSED') return 'UN_LICENSED';
  if (device.licenseStatus === 'LICENSED') return device.licenseOrderId ? `ORDER:${device.licenseOrderId}` : null;
  if (device.licenseStatus !== 'FREE') return null;
  const free = `FREE:${device.licenseType}`;

  return FREE_CHOICES.find((choice) => choice === free) ?? null;
}

/** A choice as the API's licence fields. */
export function licenseOfChoice(choice: LicenseChoice): LicenseFields {
  if (choice === 'UN_LICENSED') return { licenseStatus: 'UN_LICENSED' };
  if (choice.startsWith('ORDER:')) return { licenseStatus: 'LICENSED', licenseOrderId: Number(choice.slice('ORDER:'.length)) };
  const licenseType = FREE_CHOICES.find((free) => free === choice)!.slice('FREE:'.length) as LicenseFields['licenseType'];

  return { licenseStatus: 'FREE', licenseType };
}

/** Whether a form value is a licence choice (the edit form also holds "keep as it is"). */
export function isLicenseChoice(value: string): value is LicenseChoice {
  return value === 'UN_LICENSED' || (FREE_CHOICES as readonly string[]).includes(value) || /^ORDER:\d+$/.test(value);
}

type LicenceOffer = { value: LicenseChoice; label: string };

/** What decides whether FREE is offered: the dashboard's free licences, or that it cannot be read (or is still read). */
type FreeLicenceState = { usedFreeCount: number; freeCount: number } | 'unreadable' | 'pending';

/**
 * The licences a screen can be given now, in the order offered: none; the FREE types while the customer has free
 * licences left (`usedFreeCount < freeCount`), or where that cannot be read (the API decides: 409
 * `license.error.noFreeLicense`); each approved order with a licence no screen holds. `current` (the screen's own
 * licence) stays offered though nothing is free: its FREE types (changing the type uses no other licence) and its
 * order. `current` itself is not added here (useLicenceOffers words it until its order is read).
 */
export function offeredLicences<O extends Pick<LicenseOrderLimited, 'id' | 'deviceLicenseCount' | 'assignedDeviceCount'>>(input: {
  orders: readonly O[];
  free: FreeLicenceState;
  current?: LicenseChoice | null;
}): Array<{ value: LicenseChoice; order?: O }> {
  const { orders, free, current } = input;
  const hasFreeLeft = free === 'pending' ? false : free === 'unreadable' ? true : free.usedFreeCount < free.freeCount;
  const list: Array<{ value: LicenseChoice; order?: O }> = [{ value: 'UN_LICENSED' }];
  if (hasFreeLeft || Boolean(current?.startsWith('FREE:'))) list.push(...FREE_CHOICES.map((value) => ({ value })));
  for (const order of orders) {
    const value: OrderChoice = `ORDER:${order.id}`;
    if (freeOfOrder(order) > 0 || value === current) list.push({ value, order });
  }

  return list;
}

/**
 * The licences a screen of `customerId` can be given now (offeredLicences), worded. `current`: the screen's own
 * licence, worded `currentLabel` until its order is read: a select must never lose the value it opened with.
 */
export function useLicenceOffers(customerId: number | undefined, current?: LicenseChoice | null, currentLabel?: string) {
  const t = useTranslations('devices.license');
  const format = useFormat();
  const { licenseLabel } = useLicenseWords();
  const orders = useApprovedOrders(customerId);
  const dashboard = useLicenceDashboard(customerId);
  const free: FreeLicenceState = dashboard.data ?? (dashboard.isPending ? 'pending' : 'unreadable');

  const offers = useMemo(() => {
    const list: LicenceOffer[] = offeredLicences({ orders: orders.data ?? [], free, current }).map(({ value, order }) => ({
      value,
      label:
        value === 'UN_LICENSED'
          ? t('none')
          : order
            ? t('order', {
                licence: licenseLabel({ licenseStatus: 'LICENSED', licenseType: order.licenseType }),
                date: format.date(order.orderDate),
                free: freeOfOrder(order),
              })
            : licenseLabel(licenseOfChoice(value)),
    }));
    if (current && !list.some((offer) => offer.value === current)) list.push({ value: current, label: currentLabel ?? current });

    return list;
  }, [t, licenseLabel, format, orders.data, free, current, currentLabel]);

  // Without a customer nothing is read (and nothing is pending).
  const isLoading = customerId !== undefined && (orders.isPending || dashboard.isPending);

  return {
    offers,
    isLoading,
    /** Nothing but "no licence" to offer: the form says where licences come from. */
    isNoneFree: !isLoading && offers.length === 1,
  };
}
