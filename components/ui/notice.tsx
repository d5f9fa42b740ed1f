'use client';

import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/** A page's one-line report of what an action did: information fades after a while, an error stays. */
export type Notice = { tone: 'info' | 'error'; text: string };

const FADE_MS = 6000;

export function useNotice() {
  const [notice, setNotice] = useState<Notice | null>(null);
  useEffect(() => {
    if (!notice || notice.tone === 'error') return;
    const timer = setTimeout(() => setNotice(null), FADE_MS);

    return () => clearTimeout(timer);
  }, [notice]);
  const clear = useCallback(() => setNotice(null), []);

  return { notice, show: setNotice, clear };
}

export function NoticeAlert({ notice, onDismiss }: { notice: Notice | null; onDismiss: () => void }) {
  const t = useTranslations('ui');
  if (!notice) return null;

  return (
    <Alert
      tone={notice.tone}
      action={
        <Button variant="ghost" size="sm" onClick={onDismiss}>
          {t('dismiss')}
        </Button>
      }
    >
      {notice.text}
    </Alert>
  );
}
