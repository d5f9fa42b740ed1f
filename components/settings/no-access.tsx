import { LockIcon } from '@/components/ui/icons';
import { Card } from '@/components/ui/card';

/** Shown instead of a page the signed-in role cannot use (the navigation hides it too). */
export function NoAccess({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card className="flex flex-col items-center px-6 py-14 text-center">
      <span className="flex size-11 items-center justify-center rounded-full bg-zinc-100">
        <LockIcon className="size-5 text-zinc-500" />
      </span>
      <h1 className="mt-4 text-sm font-medium text-zinc-900">{title}</h1>
      <p className="mt-1 max-w-sm text-sm text-zinc-500">{children}</p>
    </Card>
  );
}
