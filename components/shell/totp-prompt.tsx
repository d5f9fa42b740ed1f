'use client';

import { useTranslations } from 'next-intl';
import { useCallback, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field, FormFooter } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { withTotp } from '@/lib/api/protected';
import { RunProtectedContext, type RunProtected } from '@/lib/api/run-protected';

/**
 * Protected operations (user changes, password, 2FA, customer delete) need the caller's one-time code
 * when the caller uses 2FA. This provider asks for it when the API says so and retries with `x-totp`.
 */
export function TotpPromptProvider({ children }: { children: ReactNode }) {
  const t = useTranslations('shell.totp');
  const [prompt, setPrompt] = useState<{ retry: boolean } | null>(null);
  const resolver = useRef<((code: string | null) => void) | null>(null);

  const ask = useCallback(
    (options: { retry: boolean }) =>
      new Promise<string | null>((resolve) => {
        resolver.current = resolve;
        setPrompt(options);
      }),
    [],
  );

  const finish = useCallback((code: string | null) => {
    resolver.current?.(code);
    resolver.current = null;
    setPrompt(null);
  }, []);

  const runProtected = useMemo<RunProtected>(() => (run) => withTotp(run, ask), [ask]);

  return (
    <RunProtectedContext.Provider value={runProtected}>
      {children}
      <Dialog open={prompt !== null} onOpenChange={(open) => (open ? undefined : finish(null))}>
        <DialogContent title={t('title')} description={t('description')} className="max-w-sm">
          {prompt ? <TotpForm retry={prompt.retry} onSubmit={finish} onCancel={() => finish(null)} /> : null}
        </DialogContent>
      </Dialog>
    </RunProtectedContext.Provider>
  );
}

function TotpForm({ retry, onSubmit, onCancel }: { retry: boolean; onSubmit: (code: string) => void; onCancel: () => void }) {
  const t = useTranslations('shell.totp');
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState(false);
  const id = useId();

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const clean = code.replace(/\s+/g, '');
        if (!/^\d{6}$/.test(clean)) {
          setInvalid(true);

          return;
        }
        onSubmit(clean);
      }}
    >
      <div className="space-y-4 px-5 py-4">
        {retry ? <Alert>{t('retry')}</Alert> : null}
        <Field id={id} label={t('code')} error={invalid ? t('sixDigits') : undefined}>
          <Input
            id={id}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            placeholder="123456"
            className="font-mono tracking-widest"
            autoFocus
            aria-invalid={invalid || undefined}
            value={code}
            onChange={(e) => {
              setInvalid(false);
              setCode(e.target.value);
            }}
          />
        </Field>
      </div>
      <FormFooter onCancel={onCancel} submitLabel={t('confirm')} />
    </form>
  );
}
