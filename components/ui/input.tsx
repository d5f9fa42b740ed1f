import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    <input
      className={cn(
        'block h-9 w-full rounded-md border-0 bg-white px-3 text-sm text-zinc-900 shadow-xs ring-1 ring-inset ring-zinc-300 placeholder:text-zinc-400',
        'focus:ring-2 focus:ring-brand-500 focus:outline-none focus-visible:outline-none aria-[invalid=true]:ring-red-400',
        'disabled:bg-zinc-50 disabled:text-zinc-500',
        className,
      )}
      {...props}
    />
  );
}
