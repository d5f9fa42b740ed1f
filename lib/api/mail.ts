'use client';

import { useQuery } from '@tanstack/react-query';
import { api, as, ok } from '@/lib/api/client';
import type { Page } from '@/lib/api/types';
import { useCurrentUser } from '@/lib/auth/current-user';
import { hasRole } from '@/server/context/roles';
import type { MailStatus, OutboxMessage } from '@/server/modules/mail/mail.schemas';

export type { OutboxMessage };

const mailKeys = {
  all: ['mail'] as const,
  status: () => [...mailKeys.all, 'status'] as const,
  outbox: (page: number) => [...mailKeys.all, 'outbox', { page }] as const,
};

/** Whether mail leaves the service (an SMTP server is configured); asked only by those who manage users. */
export function useMailStatus() {
  const me = useCurrentUser();

  return useQuery({
    queryKey: mailKeys.status(),
    queryFn: ({ signal }) => ok(api.GET('/api/mail/status', { signal }), as<MailStatus>()),
    enabled: hasRole(me.role, 'OWNER'),
    staleTime: 10 * 60_000,
  });
}

/** The outbox, newest first (super admin only): recipients, subjects and times, never bodies. */
export function useOutbox(page: number, shown = true) {
  const me = useCurrentUser();

  return useQuery({
    queryKey: mailKeys.outbox(page),
    queryFn: ({ signal }) => ok(api.GET('/api/mail/outbox', { params: { query: { page, size: 20 } }, signal }), as<Page<OutboxMessage>>()),
    enabled: me.role === 'ADMIN' && shown,
  });
}
