'use client';

import { cn } from '@/lib/cn';
import { useEffect, useRef, useState } from 'react';
import { SearchIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { useDebouncedValue } from '@/lib/hooks/use-debounced-value';

/** A search box that reports its value after typing pauses; follows outside changes (back button, clear). */
export function SearchInput({
  value,
  onChange,
  label,
  placeholder,
  disabled = false,
  className,
}: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder?: string;
  disabled?: boolean;
  /** The box's width; the toolbar width (`sm:w-80`) when absent. */
  className?: string;
}) {
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text, 300);
  const reported = useRef(value);

  function report(next: string) {
    reported.current = next;
    onChange(next);
  }

  // Follow outside changes, but not the echo of our own report, which would eat keys typed meanwhile.
  useEffect(() => {
    if (value !== reported.current) {
      reported.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (debounced !== reported.current) report(debounced);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a settled local edit is reported
  }, [debounced]);

  return (
    <div className={cn('relative w-full', className ?? 'sm:w-80')}>
      <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-400" />
      <Input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && text !== reported.current) report(text);
        }}
        className="pl-9"
      />
    </div>
  );
}
