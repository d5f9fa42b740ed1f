import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

export function Card({ className, children }: { className?: string; children: ReactNode }) {
  return <section className={cn('rounded-xl bg-white shadow-xs ring-1 ring-zinc-900/5', className)}>{children}</section>;
}
