'use client';

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
import { errorMessage } from '@/lib/api/protected';

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
export function ProofOfPlayDialog({ advertiser, canChange, onOpenChange }: { advertiser: Advertiser | null; canChange: boolean; onOpenChange: (open: boolean) => void }) {
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
          title="Proof-of-play links"
          description={
            <>
              A public link to the proof-of-play history of <span className="font-medium text-zinc-700">{advertiser?.name}</span>. Opened in a browser
              it shows the plays by day and by screen with the CSV as a download; anyone with the link can read it, without signing in.
            </>
          }
          className="max-w-xl"
        >
          <div className="space-y-4 px-5 py-4" data-testid="proof-of-play-panel">
            {error ? <Alert>{error}</Alert> : null}
            {advertiser && !advertiser.enabled ? (
              <Alert tone="info" title="This advertiser is disabled.">
                Its link is refused and new plays are not credited to it until it is enabled again (Edit advertiser).
              </Alert>
            ) : null}
            {links.isPending ? (
              <p className="flex items-center gap-2 text-sm text-zinc-500">
                <Spinner /> Loading the links…
              </p>
            ) : links.isError ? (
              <Alert title="The links could not be loaded.">{errorMessage(links.error)}</Alert>
            ) : (
              <>
                <p className="text-sm text-zinc-700" data-testid="proof-of-play-state">
                  {enabled ? 'Links are enabled.' : 'Links are disabled.'}
                </p>
                {enabled && url ? (
                  <div className="space-y-1.5">
                    <Label htmlFor={urlId}>Proof-of-play link</Label>
                    <div className="flex gap-2">
                      <Input id={urlId} ref={field} readOnly value={url} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
                      <Button
                        variant="secondary"
                        aria-label="Copy the export URL"
                        onClick={async () => {
                          const ok = await copyText(url, field.current);
                          setCopied(ok);
                          if (!ok) setError('The URL could not be copied. Select it and copy it yourself.');
                        }}
                      >
                        {copied ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
                        {copied ? 'Copied' : 'Copy'}
                      </Button>
                    </div>
                    <p className="text-sm text-zinc-500">
                      A browser shows a summary page; the CSV (its download, or the same URL fetched by a program) lists each play of the advertiser’s
                      channels, newest first.
                    </p>
                  </div>
                ) : enabled ? (
                  <p className="text-sm text-zinc-500">The URL cannot be shown again (the server’s secret changed). Renew the link to get a new one.</p>
                ) : (
                  <p className="text-sm text-zinc-500">Enable the links to get a URL you can hand to the advertiser.</p>
                )}
              </>
            )}
          </div>
          <DialogFooter>
            {canChange && links.isSuccess ? (
              enabled ? (
                <>
                  <Button variant="secondary" onClick={() => setConfirm('disable')}>
                    Disable links
                  </Button>
                  <Button variant="secondary" onClick={() => setConfirm('renew')}>
                    Renew link
                  </Button>
                </>
              ) : (
                <Button
                  disabled={setLinks.isPending}
                  onClick={() => change(true).catch((e: unknown) => setError(errorMessage(e)))}
                >
                  {setLinks.isPending ? <Spinner /> : null}
                  Enable links
                </Button>
              )
            ) : null}
            <Button variant={canChange && !enabled ? 'secondary' : 'primary'} onClick={close}>
              Close
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => (open ? undefined : setConfirm(null))}
        title={confirm === 'renew' ? 'Renew the link?' : 'Disable the links?'}
        description={
          confirm === 'renew'
            ? 'A new URL replaces the current one, which stops working at once.'
            : 'The current URL stops working at once. Enabling the links again gives a new URL.'
        }
        confirmLabel={confirm === 'renew' ? 'Renew link' : 'Disable links'}
        destructive={confirm === 'disable'}
        onConfirm={() => change(confirm === 'renew')}
      />
    </>
  );
}
