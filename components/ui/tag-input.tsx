'use client';

import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { XIcon } from '@/components/ui/icons';
import { tagFormatError, useTags } from '@/lib/api/tags';
import type { TagGroup } from '@/server/modules/tags/tags.schemas';
import { cn } from '@/lib/cn';

/** Tags as removable chips with a text box that adds on Enter or comma, suggesting the tenant's tags of `suggest`. */
export function TagInput({
  id,
  value,
  onChange,
  suggest,
  label,
  autoFocus,
}: {
  id?: string;
  value: string[];
  onChange: (tags: string[]) => void;
  /** The tag listing whose tags are suggested: `fileTags`, `deviceContentTags`, … */
  suggest: TagGroup;
  label?: string;
  autoFocus?: boolean;
}) {
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  const listId = `${inputId}-suggestions`;
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const known = useTags(suggest);
  const t = useTranslations('ui.tags');

  function add(raw: string): boolean {
    const candidates = raw
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    for (const tag of candidates) {
      const problem = tagFormatError(tag);
      if (problem) {
        setError(`“${tag}”: ${t(`problem.${problem}`)}`);
        return false;
      }
    }
    setError(null);
    const next = [...value];
    for (const tag of candidates) if (!next.includes(tag)) next.push(tag);
    if (next.length !== value.length) onChange(next);
    setText('');

    return true;
  }

  return (
    <div>
      <div
        className={cn(
          'flex min-h-9 flex-wrap items-center gap-1.5 rounded-md bg-white px-2 py-1.5 shadow-xs ring-1 ring-zinc-300 ring-inset focus-within:ring-2 focus-within:ring-brand-500',
          error && 'ring-red-400',
        )}
      >
        {value.map((tag) => (
          <span
            key={tag}
            className="inline-flex items-center gap-1 rounded bg-brand-50 py-0.5 pr-1 pl-2 text-xs font-medium text-brand-800 ring-1 ring-brand-200 ring-inset"
          >
            {tag}
            <button
              type="button"
              aria-label={t('removeTag', { tag })}
              onClick={() => onChange(value.filter((t) => t !== tag))}
              className="cursor-pointer rounded p-0.5 hover:bg-brand-100"
            >
              <XIcon className="size-3" />
            </button>
          </span>
        ))}
        <input
          id={inputId}
          aria-label={label ?? t('label')}
          list={listId}
          value={text}
          autoFocus={autoFocus}
          placeholder={value.length ? '' : t('placeholder')}
          onChange={(e) => {
            setError(null);
            if (e.target.value.endsWith(',')) add(e.target.value.slice(0, -1));
            else setText(e.target.value);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && text.trim()) {
              e.preventDefault();
              add(text);
            } else if (e.key === 'Backspace' && !text && value.length) {
              onChange(value.slice(0, -1));
            }
          }}
          onBlur={() => {
            if (text.trim()) add(text);
          }}
          className="min-w-28 flex-1 border-0 bg-transparent p-0.5 text-sm outline-none placeholder:text-zinc-400 focus:ring-0"
        />
        <datalist id={listId}>
          {(known.data ?? [])
            .filter((t) => !value.includes(t.tag))
            .slice(0, 50)
            .map((t) => (
              <option key={t.tag} value={t.tag} />
            ))}
        </datalist>
      </div>
      {error ? <p className="mt-1 text-sm text-red-700">{error}</p> : null}
    </div>
  );
}
