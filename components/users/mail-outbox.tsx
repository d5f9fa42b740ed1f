'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { LoadError } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useMailStatus, useOutbox } from '@/lib/api/mail';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useFormat } from '@/lib/i18n/use-format';

/**
 * The mail outbox for the super admin: every message with its recipient, subject and times (never its
 * body: bodies hold password-setup links). Without SMTP this is the only place queued mail shows.
 */
export function MailOutbox() {
  const me = useCurrentUser();
  const t = useTranslations('users');
  const format = useFormat();
  const [page, setPage] = useState(0);
  const status = useMailStatus();
  // Open by default only when there is no SMTP server, where the outbox is the only place queued mail shows; with
  // one it is a delivery log, one click away, and its rows do not sit under the users list.
  const [open, setOpen] = useState<boolean | null>(null);
  const shown = open ?? status.data?.smtpConfigured === false;
  const outbox = useOutbox(page, shown);
  if (me.role !== 'ADMIN') return null;
  const data = outbox.data;

  return (
    <Card className="mt-6 overflow-hidden">
      <section aria-labelledby="mail-outbox-title">
        <div className="border-b border-zinc-200 px-5 py-4">
          <div className="flex items-center justify-between gap-3">
            <h2 id="mail-outbox-title" className="text-base font-semibold text-zinc-900">
              {t('outbox.title')}
            </h2>
            <Button variant="secondary" size="sm" aria-expanded={shown} aria-controls="mail-outbox-list" onClick={() => setOpen(!shown)}>
              {shown ? t('outbox.hide') : t('outbox.show')}
            </Button>
          </div>
          <p className="mt-0.5 text-sm text-zinc-500">
            {status.data?.smtpConfigured === false ? (
              <>
                {t('resend.noSmtp')} {t('outbox.noSmtpHint')}
              </>
            ) : (
              t('outbox.hint')
            )}
          </p>
        </div>
        {!shown ? null : outbox.isError ? (
          <LoadError className="m-4" title={t('outbox.loadError')} error={outbox.error} onRetry={() => void outbox.refetch()} />
        ) : outbox.isPending ? (
          <p className="flex items-center gap-2 px-5 py-6 text-sm text-zinc-500">
            <Spinner /> {t('outbox.loading')}
          </p>
        ) : data && data.content.length === 0 ? (
          <p className="px-5 py-6 text-sm text-zinc-500">{t('outbox.empty')}</p>
        ) : data ? (
          <>
            <div className="overflow-x-auto" id="mail-outbox-list">
              <table className="w-full text-left text-sm" aria-label={t('outbox.title')}>
                <thead className="border-b border-zinc-200 bg-zinc-50/80">
                  <tr>
                    {(['to', 'subject', 'status', 'queued'] as const).map((column) => (
                      <th
                        key={column}
                        scope="col"
                        className="px-4 py-2.5 text-xs font-medium tracking-wide whitespace-nowrap text-zinc-500 uppercase"
                      >
                        {t(`outbox.columns.${column}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-zinc-100">
                  {data.content.map((m) => (
                    <tr key={m.id}>
                      <td className="max-w-56 truncate px-4 py-2.5 text-zinc-800" title={m.to}>
                        {m.to}
                      </td>
                      <td className="px-4 py-2.5 text-zinc-600">
                        {m.subject}
                        <span className="block text-xs text-zinc-400">{t(`outbox.kind.${m.kind}`)}</span>
                      </td>
                      <td className="px-4 py-2.5">
                        <Badge tone={m.status === 'FAILED' ? 'danger' : m.status === 'SENT' ? 'success' : 'warning'}>
                          {t(`outbox.status.${m.status}`)}
                        </Badge>
                        {m.lastError ? (
                          <span className="mt-0.5 block max-w-64 truncate text-xs text-red-700" title={m.lastError}>
                            {m.lastError}
                          </span>
                        ) : null}
                      </td>
                      <td className="px-4 py-2.5 whitespace-nowrap text-zinc-600">
                        {format.dateTime(m.createdAt)}
                        {m.sentAt ? (
                          <span className="block text-xs text-zinc-400">{t('outbox.sentAt', { date: format.dateTime(m.sentAt) })}</span>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {data.totalPages > 1 ? (
              <div className="flex items-center justify-between border-t border-zinc-200 px-4 py-3 text-sm text-zinc-600">
                <span>
                  {t('outbox.range', {
                    from: format.number(data.number * data.size + 1),
                    to: format.number(data.number * data.size + data.numberOfElements),
                    total: data.totalElements,
                  })}
                </span>
                <span className="flex gap-2">
                  <Button variant="secondary" size="sm" disabled={data.first} onClick={() => setPage((p) => p - 1)}>
                    {t('outbox.newer')}
                  </Button>
                  <Button variant="secondary" size="sm" disabled={data.last} onClick={() => setPage((p) => p + 1)}>
                    {t('outbox.older')}
                  </Button>
                </span>
              </div>
            ) : null}
          </>
        ) : null}
      </section>
    </Card>
  );
}
