'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';

/*
 * The super admin's invoice views (GET /api/customer/{customerId}/view/invoice and /api/customer/global/view/invoice).
 * The console picks a calendar day; the API takes an instant.
 */

const INVOICES_KEY = ['licenceInvoices'] as const;

/**
 * The instant an invoice "on" a day is computed for: the day's last millisecond in UTC, so an order whose invoice
 * starts at any time of that day counts.
 */
function invoiceInstant(day: string): string {
  return `${day}T23:59:59.999Z`;
}

/** Today as `YYYY-MM-DD` in the browser's calendar. */
export function today(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');

  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function useGlobalInvoice(day: string, options: { enabled: boolean }) {
  return useQuery({
    queryKey: [...INVOICES_KEY, 'global', day],
    queryFn: ({ signal }) => ok(api.GET('/api/customer/global/view/invoice', { params: { query: { date: invoiceInstant(day) } }, signal })),
    placeholderData: keepPreviousData,
    enabled: options.enabled,
  });
}

export function useCustomerInvoice(customerId: number | null, day: string) {
  return useQuery({
    queryKey: [...INVOICES_KEY, 'customer', customerId, day],
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/customer/{customerId}/view/invoice', {
          params: { path: { customerId: customerId ?? 0 }, query: { date: invoiceInstant(day) } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
    enabled: customerId !== null,
  });
}
