'use client';

import { useTranslations } from 'next-intl';
import { useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { CheckIcon, CopyIcon } from '@/components/ui/icons';

/** Copies `text`; where the Clipboard API is refused (no secure context), selects the block and copies the old way. */
async function copyText(text: string, block: HTMLElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);

    return true;
  } catch {
    const selection = window.getSelection();
    if (!block || !selection) return false;
    selection.selectAllChildren(block);

    return typeof document.execCommand === 'function' && document.execCommand('copy');
  }
}

/**
 * A labelled piece of code to paste elsewhere (a URL, a curl command, a key) with its Copy button. What it shows is
 * code, not the console's words: `translate="no"` keeps page translation (and the German check) off it.
 */
export function CodeBlock({
  label,
  value,
  copyLabel,
  testId,
  wrap = false,
}: {
  label: string;
  value: string;
  /** The copy button's accessible name ("Copy the curl command"). */
  copyLabel: string;
  testId?: string;
  /** Long one-line values (a token) wrap anywhere instead of scrolling. */
  wrap?: boolean;
}) {
  const t = useTranslations('webhooks.code');
  const id = useId();
  const block = useRef<HTMLPreElement>(null);
  const [state, setState] = useState<'copied' | 'failed' | null>(null);

  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <p id={id} className="text-sm font-medium text-zinc-800">
          {label}
        </p>
        <Button
          variant="secondary"
          size="sm"
          aria-label={copyLabel}
          onClick={async () => setState((await copyText(value, block.current)) ? 'copied' : 'failed')}
        >
          {state === 'copied' ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
          {state === 'copied' ? t('copied') : t('copy')}
        </Button>
      </div>
      <pre
        ref={block}
        aria-labelledby={id}
        data-testid={testId}
        translate="no"
        className={
          wrap
            ? 'rounded-md bg-zinc-900 px-3 py-2 font-mono text-xs break-all whitespace-pre-wrap text-zinc-100'
            : 'overflow-x-auto rounded-md bg-zinc-900 px-3 py-2 font-mono text-xs whitespace-pre text-zinc-100'
        }
      >
        {value}
      </pre>
      {state === 'failed' ? <p className="text-sm text-red-700">{t('copyFailed')}</p> : null}
    </div>
  );
}
