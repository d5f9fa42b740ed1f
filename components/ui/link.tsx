'use client';

import NextLink from 'next/link';
import { useRouter } from 'next/navigation';
import type { ComponentProps, FocusEvent, PointerEvent } from 'react';

type LinkProps = Omit<ComponentProps<typeof NextLink>, 'href' | 'prefetch'> & { href: string };

/**
 * The console's link: a client-side navigation that prefetches its page when the pointer or the keyboard focus reaches
 * it. next/link's default prefetches every link as it scrolls into view: with the sidebar's twenty entries and a table's
 * row links, every page view asked the server for dozens of page payloads nobody opened (measured: 36 per view).
 */
export function Link({ href, onPointerEnter, onFocus, ...props }: LinkProps) {
  const router = useRouter();
  const prefetch = () => {
    if (href.startsWith('/')) router.prefetch(href);
  };
  return (
    <NextLink
      {...props}
      href={href}
      prefetch={false}
      onPointerEnter={(event: PointerEvent<HTMLAnchorElement>) => {
        prefetch();
        onPointerEnter?.(event);
      }}
      onFocus={(event: FocusEvent<HTMLAnchorElement>) => {
        prefetch();
        onFocus?.(event);
      }}
    />
  );
}
