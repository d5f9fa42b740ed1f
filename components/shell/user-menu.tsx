'use client';

import { useQueryClient } from '@tanstack/react-query';
import { signOut, useSession } from 'next-auth/react';
import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { Link } from '@/components/ui/link';
import { useRouter } from 'next/navigation';
import { CheckIcon, ChevronDownIcon, LogOutIcon, UserCircleIcon } from '@/components/ui/icons';
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
import { isCancelled } from '@/lib/api/protected';
import { useUpdateUser } from '@/lib/api/users';
import type { SessionUser } from '@/lib/auth/types';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel } from '@/lib/i18n/labels';
import { LOCALES, type Locale } from '@/i18n/locales';
import { serializeTenantCookie } from '@/lib/tenant/tenant-cookie';

function initials(name: string): string {
  const parts = name
    .trim()
    .split(/[\s@._-]+/)
    .filter(Boolean);

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

/**
 * The console's languages, the current one ticked: choosing one saves it as the user's `language` and the console
 * speaks it at once, as the account page's language field does (session update, then a server render).
 */
function LanguageItems({ email }: { email: string }) {
  const t = useTranslations('shell.userMenu');
  const label = useLabel();
  const locale = useLocale();
  const update = useUpdateUser();
  const session = useSession();
  const router = useRouter();
  const errorMessage = useErrorMessage();
  const [pending, setPending] = useState<Locale | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function choose(language: Locale) {
    if (language === locale || pending) return;
    setError(null);
    setPending(language);
    try {
      await update.mutateAsync({ email, changes: { language } });
      await session.update({ language });
      router.refresh();
    } catch (e) {
      if (!isCancelled(e)) setError(errorMessage(e));
    } finally {
      setPending(null);
    }
  }

  return (
    <>
      <DropdownMenuLabel className="pb-1 text-xs font-medium text-zinc-500">{t('language')}</DropdownMenuLabel>
      {LOCALES.map((code) => (
        <DropdownMenuItem
          key={code}
          lang={code}
          aria-current={code === locale ? 'true' : undefined}
          disabled={pending !== null}
          onSelect={(event) => {
            // The menu stays open: the tick moves once the console speaks the new language.
            event.preventDefault();
            void choose(code);
          }}
        >
          {pending === code ? (
            <Spinner className="text-zinc-500" />
          ) : code === locale ? (
            <CheckIcon className="size-4 text-brand-600" />
          ) : (
            <span className="size-4" />
          )}
          {label('language', code)}
        </DropdownMenuItem>
      ))}
      {error ? (
        <p role="alert" className="px-2.5 py-1.5 text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </>
  );
}

export function UserMenu({ user }: { user: SessionUser }) {
  const t = useTranslations('shell.userMenu');
  const label = useLabel();
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
        aria-label={t('trigger', { name: user.name })}
      >
        <Avatar name={user.name} />
        <span className="hidden min-w-0 sm:block">
          <span className="block max-w-48 truncate text-sm font-medium text-zinc-900">{user.name}</span>
          <span className="block max-w-48 truncate text-xs text-zinc-500">{label('role', user.role)}</span>
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
            {label('role', user.role)}
          </Badge>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/account">
            <UserCircleIcon className="size-4 text-zinc-500" />
            {t('account')}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <LanguageItems email={user.email} />
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={isSigningOut}
          onSelect={(event) => {
            event.preventDefault();
            void handleSignOut();
          }}
        >
          {isSigningOut ? <Spinner className="text-zinc-500" /> : <LogOutIcon className="size-4 text-zinc-500" />}
          {t('signOut')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
