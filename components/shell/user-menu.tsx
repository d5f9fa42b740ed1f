'use client';

import { useQueryClient } from '@tanstack/react-query';
import { signOut } from 'next-auth/react';
import { useState } from 'react';
import Link from 'next/link';
import { ChevronDownIcon, LogOutIcon, UserCircleIcon } from '@/components/ui/icons';
import { markSigningOut } from '@/lib/auth/sign-out-flag';
import { Badge } from '@/components/ui/badge';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Spinner } from '@/components/ui/spinner';
import { roleLabel } from '@/lib/api/types';
import type { SessionUser } from '@/lib/auth/types';
import { serializeTenantCookie } from '@/lib/tenant/tenant-cookie';

function initials(name: string): string {
  const parts = name.trim().split(/[\s@._-]+/).filter(Boolean);

  return ((parts[0]?.[0] ?? '') + (parts[1]?.[0] ?? '')).toUpperCase() || '?';
}

export function Avatar({ name }: { name: string }) {
  return (
    <span
      aria-hidden="true"
      className="inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-700"
    >
      {initials(name)}
    </span>
  );
}

export function UserMenu({ user }: { user: SessionUser }) {
  const queryClient = useQueryClient();
  const [isSigningOut, setIsSigningOut] = useState(false);

  async function handleSignOut() {
    setIsSigningOut(true);
    markSigningOut();
    document.cookie = serializeTenantCookie(null);
    queryClient.clear();
    await signOut({ callbackUrl: '/login' });
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="flex items-center gap-2.5 rounded-lg py-1 pr-2 pl-1 text-left hover:bg-zinc-100 data-[state=open]:bg-zinc-100"
        aria-label={`Account menu for ${user.name}`}
      >
        <Avatar name={user.name} />
        <span className="hidden min-w-0 sm:block">
          <span className="block max-w-48 truncate text-sm font-medium text-zinc-900">{user.name}</span>
          <span className="block max-w-48 truncate text-xs text-zinc-500">{roleLabel(user.role)}</span>
        </span>
        <ChevronDownIcon className="size-4 text-zinc-400" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-72">
        <DropdownMenuLabel>
          <p className="truncate text-sm font-medium text-zinc-900">{user.name}</p>
          <p className="truncate text-sm text-zinc-500" data-testid="user-email">
            {user.email}
          </p>
          <Badge tone="brand" className="mt-2">
            {roleLabel(user.role)}
          </Badge>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/account">
            <UserCircleIcon className="size-4 text-zinc-500" />
            Your account
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem
          disabled={isSigningOut}
          onSelect={(event) => {
            event.preventDefault();
            void handleSignOut();
          }}
        >
          {isSigningOut ? <Spinner className="text-zinc-500" /> : <LogOutIcon className="size-4 text-zinc-500" />}
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
