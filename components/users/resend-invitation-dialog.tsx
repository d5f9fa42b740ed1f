'use client';

import { useEffect, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DialogFooter } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useMailStatus } from '@/lib/api/mail';
import { useCopyPasswordSetupLink, useResendPasswordSetup, type CopiedLink, type ResentLink } from '@/lib/api/password-setup';
import { errorMessage } from '@/lib/api/protected';
import type { User } from '@/lib/api/types';
import { useCurrentUser } from '@/lib/auth/current-user';
import { formatDateTime } from '@/lib/format';

/** Without SMTP the message waits in the outbox: what the dialogs say about it. */
export const NO_SMTP_NOTE = 'No mail server is configured for this service, so e-mails wait in the outbox and reach nobody.';

/**
 * Sends the user a fresh password-setup link, then says what happened: e-mailed to whom, or waiting in
 * the outbox when no SMTP server is configured. A super admin, or an OWNER of the user's own tenant, may
 * copy a link instead (the server issues and audits it); older links stop working either way.
 */
export function ResendInvitationDialog({ user, onOpenChange }: { user: User | null; onOpenChange: (open: boolean) => void }) {
  const me = useCurrentUser();
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

  return (
    <Dialog open={user !== null} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent
        title="Resend invitation"
        description={
          user && !done ? (
            <>
              <span className="font-medium text-zinc-800">{user.email}</span> gets an e-mail with a new link to choose their password. The link
              works once, for 7 days; earlier links stop working.
            </>
          ) : null
        }
      >
        <div className="space-y-4 px-5 py-4" data-testid="resend-invitation">
          {!done && noSmtp ? (
            <Alert tone="info" title="The e-mail will not leave the service.">
              {NO_SMTP_NOTE} {canCopy ? 'Copy the link instead and hand it to the user yourself.' : 'Ask a super admin for the link.'}
            </Alert>
          ) : null}
          {sent ? (
            sent.delivery === 'MAIL' ? (
              <Alert tone="info" title="Invitation sent.">
                A new link is on its way to <span className="font-medium">{sent.email}</span>. Earlier links no longer work.
              </Alert>
            ) : (
              <Alert tone="info" title="Not sent: no mail server is configured.">
                The e-mail to <span className="font-medium">{sent.email}</span> waits in the outbox and reaches nobody.{' '}
                {canCopy ? 'Copy the link instead and hand it to the user yourself.' : 'Ask a super admin for the link.'}
              </Alert>
            )
          ) : null}
          {copied ? (
            <div className="space-y-2">
              <Alert tone="info" title={clipboard === 'copied' ? 'Link copied to the clipboard.' : 'A new link is ready.'}>
                Hand it to <span className="font-medium">{copied.email}</span> only: it sets their password. It works once, until{' '}
                {formatDateTime(copied.expiresAt)}; earlier links no longer work.
              </Alert>
              <Input readOnly aria-label="Password-setup link" value={copied.link} onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs" />
              {clipboard === 'failed' ? <p className="text-sm text-zinc-500">The browser did not allow copying: select the link and copy it.</p> : null}
            </div>
          ) : null}
          {error ? <Alert>{error}</Alert> : null}
        </div>
        <DialogFooter>
          {canCopy && !copied && (noSmtp || sent?.delivery === 'OUTBOX') ? (
            <Button variant="secondary" onClick={() => void run('copy')} disabled={pending}>
              {copy.isPending ? <Spinner /> : null}
              Copy link
            </Button>
          ) : null}
          {done ? (
            <Button onClick={() => onOpenChange(false)}>Close</Button>
          ) : (
            <>
              <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={pending}>
                Cancel
              </Button>
              <Button onClick={() => void run('send')} disabled={pending}>
                {resend.isPending ? <Spinner /> : null}
                Send new link
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
