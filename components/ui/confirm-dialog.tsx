'use client';

import { useErrorMessage } from '@/lib/i18n/errors';
import { useTranslations } from 'next-intl';
import { useId, useState, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field, FormFooter } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { isCancelled } from '@/lib/api/protected';
import { cn } from '@/lib/cn';

/**
 * Asks before an action; runs it, keeps the dialog open with the API's message when it fails, closes when
 * it succeeds. `typeToConfirm` makes the user type a name first (for deleting a customer).
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  destructive = false,
  typeToConfirm,
  onConfirm,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  confirmLabel: string;
  destructive?: boolean;
  typeToConfirm?: string;
  onConfirm: () => Promise<unknown>;
  children?: ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [typed, setTyped] = useState('');
  const typedId = useId();
  const t = useTranslations('ui');
  const errorMessage = useErrorMessage();
  const blocked = typeToConfirm !== undefined && typed.trim() !== typeToConfirm.trim();

  function change(next: boolean) {
    if (pending) return;
    if (!next) {
      setError(null);
      setTyped('');
    }
    onOpenChange(next);
  }

  async function confirm() {
    setError(null);
    setPending(true);
    try {
      await onConfirm();
      setPending(false);
      setTyped('');
      onOpenChange(false);
    } catch (e) {
      setPending(false);
      if (!isCancelled(e)) setError(errorMessage(e));
    }
  }

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent title={title} description={description} role="alertdialog">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!blocked) void confirm();
          }}
        >
          <div className="space-y-4 px-5 py-4">
            {children}
            {typeToConfirm !== undefined ? (
              <Field
                id={typedId}
                label={t.rich('typeToConfirm', {
                  value: typeToConfirm,
                  mono: (chunks) => <span className="font-mono font-semibold">{chunks}</span>,
                })}
              >
                <Input id={typedId} autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} autoFocus />
              </Field>
            ) : null}
            {error ? <Alert>{error}</Alert> : null}
          </div>
          <FormFooter
            pending={pending}
            onCancel={() => change(false)}
            submitLabel={confirmLabel}
            submitDisabled={blocked}
            submitClassName={cn(destructive && 'bg-red-600 hover:bg-red-700 disabled:bg-red-600/50')}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
