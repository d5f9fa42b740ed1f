import { cn } from '@/lib/cn';

export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('size-8', className)} aria-hidden="true">
      <rect width="32" height="32" rx="7" className="fill-brand-600" />
      <rect x="7" y="9" width="18" height="11" rx="1.5" fill="none" stroke="#fff" strokeWidth="2" />
      <path d="M12 24h8M16 20v4" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function Brand() {
  return (
    <div className="flex items-center gap-2.5">
      <BrandMark />
      <span className="text-[15px] font-semibold tracking-tight text-zinc-900">Signage Console</span>
    </div>
  );
}
