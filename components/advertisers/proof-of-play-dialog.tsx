'use client';

import { useTranslations } from 'next-intl';
import { useId, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DialogFooter } from '@/components/ui/field';
import { CheckIcon, CopyIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { useProofOfPlayLinks, useSetProofOfPlayLinks, type Advertiser } from '@/lib/api/advertisers';
import { useErrorMessage } from '@/lib/i18n/errors';

/** Copies `text`; falls back to selecting the field and the legacy copy command where the Clipboard API is refused. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);

    return true;
  } catch {
    field?.select();

    return typeof document.execCommand === 'function' && document.execCommand('copy');
  }
}

/**
 * The proof-of-play links of one advertiser: whether they are on, the public CSV export URL with a copy
 * button, and (for those who may change the advertiser) enable, renew and disable. Renewing and disabling
 * confirm first: the URL handed out stops working.
 */
export function ProofOfPlayDialog({
  advertiser,
  canChange,
  onOpenChange,
}: {
  advertiser: Advertiser | null;
  canChange: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('advertisers.proofOfPlay');
  const errorMessage = useErrorMessage();
  const id = advertiser?.id ?? null;
  const links = useProofOfPlayLinks(id);
  const setLinks = useSetProofOfPlayLinks(id ?? '');
  const [copied, setCopied] = useState(false);
  const [confirm, setConfirm] = useState<'renew' | 'disable' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const urlId = useId();
  const url = links.data?.exportHistoryAsCSV;
  const enabled = links.data?.enabled === true;

  const close = () => {
    setCopied(false);
    setError(null);
    onOpenChange(false);
  };

  const change = async (enable: boolean) => {
    setError(null);
    setCopied(false);
    await setLinks.mutateAsync(enable);
  };

  return (
    <>
      <Dialog open={advertiser !== null} onOpenChange={(open) => (open ? onOpenChange(true) : close())}>
        <DialogContent
          title={t('title')}
          description={t.rich('description', {
            name: advertiser?.name ?? '',
            strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
          })}
          className="max-w-xl"
        >
          <div className="space-y-4 px-5 py-4" data-testid="proof-of-play-panel">
            {error ? <Alert>{error}</Alert> : null}
            {advertiser && !advertiser.enabled ? (
              <Alert tone="info" title={t('disabledTitle')}>
                {t('disabledText')}
              </Alert>
            ) : null}
            {links.isPending ? (
              <p className="flex items-center gap-2 text-sm text-zinc-500">
                <Spinner /> {t('loading')}
              </p>
            ) : links.isError ? (
              <Alert title={t('loadError')}>{errorMessage(links.error)}</Alert>
            ) : (
              <>
                <p className="text-sm text-zinc-700" data-testid="proof-of-play-state">
                  {enabled ? t('on') : t('off')}
                </p>
                {enabled && url ? (
                  <div className="space-y-1.5">
                    <Label htmlFor={urlId}>{t('link')}</Label>
                    <div className="flex gap-2">
                      <Input
                        id={urlId}
                        ref={field}
                        readOnly
                        value={url}
                        className="font-mono text-xs"
                        onFocus={(e) => e.currentTarget.select()}
                      />
                      <Button
                        variant="secondary"
                        aria-label={t('copyLabel')}
                        onClick={async () => {
                          const ok = await copyText(url, field.current);
                          setCopied(ok);
                          if (!ok) setError(t('copyFailed'));
                        }}
                      >
                        {copied ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
                        {copied ? t('copied') : t('copy')}
                      </Button>
                    </div>
                    <p className="text-sm text-zinc-500">{t('csvHint')}</p>
                  </div>
                ) : enabled ? (
                  <p className="text-sm text-zinc-500">{t('lost')}</p>
                ) : (
                  <p className="text-sm text-zinc-500">{t('enableHint')}</p>
                )}
              </>
            )}
          </div>
          <DialogFooter>
            {canChange && links.isSuccess ? (
              enabled ? (
                <>
                  <Button variant="secondary" onClick={() => setConfirm('disable')}>
                    {t('disable')}
                  </Button>
                  <Button variant="secondary" onClick={() => setConfirm('renew')}>
                    {t('renew')}
                  </Button>
                </>
              ) : (
                <Button disabled={setLinks.isPending} onClick={() => change(true).catch((e: unknown) => setError(errorMessage(e)))}>
                  {setLinks.isPending ? <Spinner /> : null}
                  {t('enable')}
                </Button>
              )
            ) : null}
            <Button variant={canChange && !enabled ? 'secondary' : 'primary'} onClick={close}>
              {t('close')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => (open ? undefined : setConfirm(null))}
        title={confirm === 'renew' ? t('renewTitle') : t('disableTitle')}
        description={confirm === 'renew' ? t('renewText') : t('disableText')}
        confirmLabel={confirm === 'renew' ? t('renew') : t('disable')}
        destructive={confirm === 'disable'}
        onConfirm={() => change(confirm === 'renew')}
      />
    </>
  );
}
