'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef, type ReactNode } from 'react';
import { CodeBlock } from '@/components/webhooks/code-block';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DialogFooter } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import {
  useRotateNotificationChannelSecret,
  useSetNotificationChannelEnabled,
  useTestNotificationChannel,
  type NotificationChannel,
  type NotificationDelivery,
} from '@/lib/api/notification-channels';
import { useRefreshNotifications } from '@/lib/api/notifications';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useFormat } from '@/lib/i18n/use-format';

/** A WEBHOOK channel's signing secret as the API answered it, once: on creation or after a rotation. */
export type ShownSecret = { name: string; secret: string; kind: 'created' | 'rotated'; previousValidUntil?: number };

const strong = (chunks: ReactNode) => <span className="font-medium text-zinc-700">{chunks}</span>;

/** The secret, once, with its copy button and how a receiver checks it (Standard Webhooks). */
export function SecretDialog({ shown, onClose }: { shown: ShownSecret | null; onClose: () => void }) {
  const t = useTranslations('notificationChannels.secret');
  const format = useFormat();

  return (
    <Dialog open={shown !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title={shown?.kind === 'rotated' ? t('rotatedTitle') : t('title')}
        description={t.rich('description', { name: shown?.name ?? '', strong })}
        className="sm:max-w-2xl"
        // The secret is shown once: a stray click beside the dialog must not lose it.
        onInteractOutside={(e) => e.preventDefault()}
      >
        <div className="space-y-4 px-5 py-4" data-testid="channel-secret">
          <Alert tone="info" title={t('onceTitle')}>
            {t('onceText')}
          </Alert>
          <CodeBlock label={t('secret')} value={shown?.secret ?? ''} copyLabel={t('copy')} testId="channel-secret-value" wrap />
          <p className="text-sm text-zinc-500">{t.rich('verifyHint', { code: (chunks) => <code translate="no">{chunks}</code> })}</p>
          {shown?.previousValidUntil ? (
            <p className="text-sm text-zinc-500">{t('previousValid', { until: format.dateTime(shown.previousValidUntil) })}</p>
          ) : null}
        </div>
        <DialogFooter>
          <Button onClick={onClose}>{t('done')}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Asks, then rotates; the new secret goes to `onRotated` to be shown once. */
export function RotateSecretDialog({
  channel,
  onOpenChange,
  onRotated,
}: {
  channel: NotificationChannel | null;
  onOpenChange: (open: boolean) => void;
  onRotated: (shown: ShownSecret) => void;
}) {
  const t = useTranslations('notificationChannels.rotate');
  const rotate = useRotateNotificationChannelSecret();

  return (
    <ConfirmDialog
      open={channel !== null}
      onOpenChange={onOpenChange}
      title={t('title')}
      description={t.rich('text', { name: channel?.name ?? '', strong })}
      confirmLabel={t('confirm')}
      onConfirm={async () => {
        if (!channel) return;
        const answer = await rotate.mutateAsync(channel.id);
        onRotated({ name: channel.name, secret: answer.secret, kind: 'rotated', previousValidUntil: answer.previousSecretValidUntil });
      }}
    />
  );
}

/** One attempt in words: delivered or failed, the receiver's status, how long it took, why it failed. */
export function AttemptSummary({ attempt }: { attempt: NotificationDelivery['attempts'][number] | undefined }) {
  const t = useTranslations('notificationChannels.deliveries');
  const format = useFormat();
  if (!attempt) return <span className="text-zinc-400">—</span>;

  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-0.5 text-zinc-600">
      {attempt.statusCode !== undefined ? <span>{t('status', { code: attempt.statusCode })}</span> : null}
      <span>{t('latency', { ms: format.number(attempt.latencyMs) })}</span>
      {attempt.error ? <span className="text-red-700">{attempt.error}</span> : attempt.detail ? <span>{attempt.detail}</span> : null}
    </span>
  );
}

/** Sends a test as soon as it opens for a channel and shows what the first attempt did. */
export function TestResultDialog({ channel, onClose }: { channel: NotificationChannel | null; onClose: () => void }) {
  const t = useTranslations('notificationChannels.test');
  const send = useTestNotificationChannel();
  const refreshBell = useRefreshNotifications();
  const errorMessage = useErrorMessage();
  const sentFor = useRef<number | null>(null);
  const { mutate, reset } = send;
  useEffect(() => {
    if (!channel) {
      sentFor.current = null;
      reset();

      return;
    }
    if (sentFor.current === channel.id) return;
    sentFor.current = channel.id;
    // A USER_NOTIFICATION test may have notified the signed-in user: the bell asks again.
    mutate(channel.id, { onSuccess: () => void refreshBell() });
  }, [channel, mutate, reset, refreshBell]);
  const delivery = send.data;
  const attempt = delivery?.attempts[0];

  return (
    <Dialog open={channel !== null} onOpenChange={(open) => (open || send.isPending ? undefined : onClose())}>
      <DialogContent title={t('title')} description={t.rich('description', { name: channel?.name ?? '', strong })}>
        <div className="space-y-3 px-5 py-4" data-testid="channel-test-result" aria-live="polite">
          {send.isPending ? (
            <p className="flex items-center gap-2 text-sm text-zinc-600">
              <Spinner className="size-4" />
              {t('sending')}
            </p>
          ) : null}
          {send.isError ? <Alert title={t('error')}>{errorMessage(send.error)}</Alert> : null}
          {delivery ? (
            <>
              <p className="flex items-center gap-2 text-sm">
                {attempt?.succeeded ? <Badge tone="success">{t('succeeded')}</Badge> : <Badge tone="danger">{t('failed')}</Badge>}
                <AttemptSummary attempt={attempt} />
              </p>
              {!attempt?.succeeded && delivery.state === 'PENDING' ? <p className="text-sm text-zinc-500">{t('retried')}</p> : null}
            </>
          ) : null}
        </div>
        <DialogFooter>
          <Button onClick={onClose} disabled={send.isPending}>
            {t('close')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** A disabled channel is enabled again (its reason is cleared by the API). */
export function EnableChannelDialog({
  channel,
  onOpenChange,
}: {
  channel: NotificationChannel | null;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('notificationChannels.enable');
  const enable = useSetNotificationChannelEnabled();

  return (
    <ConfirmDialog
      open={channel !== null}
      onOpenChange={onOpenChange}
      title={t('title')}
      description={t.rich('text', { name: channel?.name ?? '', strong })}
      confirmLabel={t('confirm')}
      onConfirm={async () => {
        if (channel) await enable.mutateAsync({ id: channel.id, isEnabled: true });
      }}
    >
      {channel?.disabledReason ? <p className="text-sm text-zinc-600">{channel.disabledReason}</p> : null}
    </ConfirmDialog>
  );
}
