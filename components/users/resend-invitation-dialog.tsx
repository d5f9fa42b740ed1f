'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DialogFooter } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useMailStatus } from '@/lib/api/mail';
import { useCopyPasswordSetupLink, useResendPasswordSetup, type CopiedLink, type ResentLink } from '@/lib/api/password-setup';
import type { User } from '@/lib/api/types';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useFormat } from '@/lib/i18n/use-format';

/**
 * Sends the user a fresh password-setup link, then says what happened: e-mailed to whom, or waiting in
 * the outbox when no SMTP server is configured. A super admin, or an OWNER of the user's own tenant, may
 * copy a link instead (the server issues and audits it); older links stop working either way.
 */
export function ResendInvitationDialog({ user, onOpenChange }: { user: User | null; onOpenChange: (open: boolean) => void }) {
  const me = useCurrentUser();
  const t = useTranslations('users.resend');
  const format = useFormat();
  const errorMessage = useErrorMessage();
  const mail = useMailStatus();
  const resend = useResendPasswordSetup();
  const copy = useCopyPasswordSetupLink();
  const [sent, setSent] = useState<ResentLink | null>(null);
  const [copied, setCopied] = useState<CopiedLink | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [clipboard, setClipboard] = useState<'copied' | 'failed' | null>(null);
  const noSmtp = mail.data?.smtpConfigured === false;
  const canCopy = user !== null && (me.role === 'ADMIN' || (me.role === 'OWNER' && user.customerId === me.customerId));
  const pending = resend.isPending || copy.isPending;

  useEffect(() => {
    if (user) {
      setSent(null);
      setCopied(null);
      setError(null);
      setClipboard(null);
    }
  }, [user]);

  async function run(action: 'send' | 'copy') {
    if (!user) return;
    setError(null);
    try {
      if (action === 'send') setSent(await resend.mutateAsync(user.email));
      else {
        const link = await copy.mutateAsync(user.email);
        setCopied(link);
        await toClipboard(link.link);
      }
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  async function toClipboard(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setClipboard('copied');
    } catch {
      setClipboard('failed');
    }
  }

  const done = sent !== null || copied !== null;
  const instead = canCopy ? t('copyInstead') : t('askAdmin');

  return (
    <Dialog open={user !== null} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent
        title={t('title')}
        description={
          user && !done
            ? t.rich('description', { email: user.email, strong: (chunks) => <span className="font-medium text-zinc-800">{chunks}</span> })
            : null
        }
      >
        <div className="space-y-4 px-5 py-4" data-testid="resend-invitation">
          {!done && noSmtp ? (
            <Alert tone="info" title={t('notLeaving')}>
              {t('noSmtp')} {instead}
            </Alert>
          ) : null}
          {sent ? (
            sent.delivery === 'MAIL' ? (
              <Alert tone="info" title={t('sentTitle')}>
                {t.rich('sentBody', { email: sent.email, strong: (chunks) => <span className="font-medium">{chunks}</span> })}
              </Alert>
            ) : (
              <Alert tone="info" title={t('outboxTitle')}>
                {t.rich('outboxBody', { email: sent.email, strong: (chunks) => <span className="font-medium">{chunks}</span> })} {instead}
              </Alert>
            )
          ) : null}
          {copied ? (
            <div className="space-y-2">
              <Alert tone="info" title={clipboard === 'copied' ? t('copiedTitle') : t('readyTitle')}>
                {t.rich('handTo', {
                  email: copied.email,
                  expires: format.dateTime(copied.expiresAt),
                  strong: (chunks) => <span className="font-medium">{chunks}</span>,
                })}
              </Alert>
              <Input
                readOnly
                aria-label={t('linkLabel')}
                value={copied.link}
                onFocus={(e) => e.currentTarget.select()}
                className="font-mono text-xs"
              />
              {clipboard === 'failed' ? <p className="text-sm text-zinc-500">{t('copyFailed')}</p> : null}
            </div>
          ) : null}
          {error ? <Alert>{error}</Alert> : null}
        </div>
        <DialogFooter>
          {canCopy && !copied && (noSmtp || sent?.delivery === 'OUTBOX') ? (
            <Button variant="secondary" onClick={() => void run('copy')} disabled={pending}>
              {copy.isPending ? <Spinner /> : null}
              {t('copy')}
            </Button>
          ) : null}
          {done ? (
            <Button onClick={() => onOpenChange(false)}>{t('close')}</Button>
          ) : (
            <>
              <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={pending}>
                {t('cancel')}
              </Button>
              <Button onClick={() => void run('send')} disabled={pending}>
                {resend.isPending ? <Spinner /> : null}
                {t('send')}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
