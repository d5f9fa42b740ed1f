import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

// Colours are tones, never extra classes: `cn` only joins, so a second background class would lose or win by
// the order of Tailwind's stylesheet, not by the order written.
const TONES = {
  neutral: 'bg-zinc-100 text-zinc-700 ring-zinc-200',
  brand: 'bg-brand-50 text-brand-700 ring-brand-200',
  success: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  info: 'bg-sky-50 text-sky-800 ring-sky-200',
  warning: 'bg-amber-50 text-amber-800 ring-amber-200',
  danger: 'bg-red-50 text-red-700 ring-red-200',
} as const;

export type BadgeTone = keyof typeof TONES;

/** `className` is for layout (margins, shrink), not colour: colours come from `tone`. */
export function Badge({ tone = 'neutral', children, className }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-md px-2 py-0.5 whitespace-nowrap text-xs font-medium ring-1 ring-inset',
        TONES[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
