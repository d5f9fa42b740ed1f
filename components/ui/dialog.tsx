'use client';

import * as DialogPrimitive from '@radix-ui/react-dialog';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '@/lib/cn';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;

export function DialogContent({
  className,
  title,
  description,
  children,
  placement = 'center',
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & {
  title: string;
  description?: ReactNode;
  /** `left`: the narrow menu drawer; `right`: a detail panel beside the page it belongs to. */
  placement?: 'center' | 'left' | 'right';
}) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-zinc-950/30 backdrop-blur-[1px]" />
      <DialogPrimitive.Content
        className={cn(
          'fixed z-50 bg-white shadow-2xl ring-1 ring-zinc-900/10 focus:outline-none',
          placement === 'center'
            ? 'top-[12vh] left-1/2 w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 rounded-xl'
            : placement === 'left'
              ? 'inset-y-0 left-0 flex w-72 flex-col'
              : 'inset-y-0 right-0 flex w-[min(44rem,calc(100vw-2rem))] flex-col',
          className,
        )}
        {...(description ? {} : { 'aria-describedby': undefined })}
        {...props}
      >
        {/* A side panel keeps room at the right for its close button. */}
        <div className={cn('px-5 pt-4', placement === 'right' && 'pr-12')}>
          <DialogPrimitive.Title className="text-base font-semibold text-zinc-900">{title}</DialogPrimitive.Title>
          {description ? (
            <DialogPrimitive.Description className="mt-1 text-sm text-zinc-500">{description}</DialogPrimitive.Description>
          ) : null}
        </div>
        {children}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
