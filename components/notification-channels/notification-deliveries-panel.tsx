'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { AttemptSummary } from '@/components/notification-channels/notification-channel-actions';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Pagination } from '@/components/ui/pagination';
import { Spinner } from '@/components/ui/spinner';
import { useNotificationDeliveries, type NotificationChannel, type NotificationDelivery } from '@/lib/api/notification-channels';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useFormat } from '@/lib/i18n/use-format';

/** The payload types as message keys (next-intl keys hold no dots). */
const TYPE_KEYS = {
  'alert.device.offline': 'deviceOffline',
  'alert.device.online': 'deviceOnline',
  'alert.datasource.error': 'datasourceError',
  'alert.datasource.fixed': 'datasourceFixed',
  test: 'test',
} as const satisfies Record<NotificationDelivery['type'], string>;

const STATE_TONES: Record<NotificationDelivery['state'], BadgeTone> = { PENDING: 'warning', DELIVERED: 'success', FAILED: 'danger' };

/** A channel's delivery log beside the list: newest first, each with its state, attempts and the last attempt's outcome. */
export function NotificationDeliveriesPanel({ channel, onClose }: { channel: NotificationChannel | null; onClose: () => void }) {
  const t = useTranslations('notificationChannels.deliveries');
  const format = useFormat();
  const errorMessage = useErrorMessage();
  const [paging, setPaging] = useState({ channelId: channel?.id ?? null, page: 0, size: 20 });
  // Another channel starts at its first page.
  const current = paging.channelId === (channel?.id ?? null) ? paging : { channelId: channel?.id ?? null, page: 0, size: paging.size };
  if (current !== paging) setPaging(current);
  const deliveries = useNotificationDeliveries(channel?.id ?? null, { page: current.page, size: current.size });
  const page = deliveries.data;

  return (
    <Dialog open={channel !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        placement="right"
        title={t('title', { name: channel?.name ?? '' })}
        description={channel && channel.enabled === false ? t('disabled', { reason: channel.disabledReason ?? '' }) : t('description')}
      >
        <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4" data-testid="channel-deliveries">
          {deliveries.isPending ? <Spinner className="size-5" label={t('loading')} /> : null}
          {deliveries.isError ? <Alert title={t('loadError')}>{errorMessage(deliveries.error)}</Alert> : null}
          {page && page.content.length === 0 ? <p className="text-sm text-zinc-500">{t('empty')}</p> : null}
          {page && page.content.length > 0 ? (
            <div className="overflow-x-auto rounded-md ring-1 ring-zinc-200">
              <table className="w-full text-left text-sm" aria-label={t('table')}>
                <thead className="bg-zinc-50 text-xs text-zinc-500">
                  <tr>
                    <th className="px-3 py-2 font-medium">{t('columns.when')}</th>
                    <th className="px-3 py-2 font-medium">{t('columns.type')}</th>
                    <th className="px-3 py-2 font-medium">{t('columns.state')}</th>
                    <th className="px-3 py-2 text-right font-medium">{t('columns.attempts')}</th>
                    <th className="px-3 py-2 font-medium">{t('columns.last')}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-zinc-100 align-top">
                  {page.content.map((delivery) => (
                    <tr key={delivery.id}>
                      <td className="px-3 py-2 whitespace-nowrap text-zinc-700">{format.dateTime(delivery.createdAt)}</td>
                      <td className="px-3 py-2 text-zinc-700">{t(`types.${TYPE_KEYS[delivery.type]}`)}</td>
                      <td className="px-3 py-2">
                        <Badge tone={STATE_TONES[delivery.state]}>{t(`states.${delivery.state}`)}</Badge>
                        {delivery.state === 'PENDING' && delivery.nextAttemptAt ? (
                          <p className="mt-1 text-xs text-zinc-500">{t('next', { at: format.dateTime(delivery.nextAttemptAt) })}</p>
                        ) : null}
                        {delivery.detail ? <p className="mt-1 text-xs text-zinc-500">{delivery.detail}</p> : null}
                      </td>
                      <td className="px-3 py-2 text-right text-zinc-700 tabular-nums">{delivery.attemptCount}</td>
                      <td className="px-3 py-2">
                        <AttemptSummary attempt={delivery.attempts.at(-1)} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pagination
                page={page.number}
                size={page.size}
                totalElements={page.totalElements}
                totalPages={page.totalPages}
                noun={{ one: t('noun.one'), other: t('noun.other') }}
                onPageChange={(next) => setPaging({ ...current, page: next })}
                onSizeChange={(size) => setPaging({ ...current, page: 0, size })}
              />
            </div>
          ) : null}
        </div>
      </DialogContent>
    </Dialog>
  );
}
