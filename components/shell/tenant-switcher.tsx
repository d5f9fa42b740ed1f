'use client';

import { useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { BuildingIcon, CheckIcon, ChevronUpDownIcon, GlobeIcon, SearchIcon } from '@/components/ui/icons';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { useCustomerSelect } from '@/lib/api/customers';
import { cn } from '@/lib/cn';
import { useDebouncedValue } from '@/lib/hooks/use-debounced-value';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useFormat } from '@/lib/i18n/use-format';
import { useReplaceQuery } from '@/lib/hooks/use-replace-query';
import { useTenant } from '@/lib/tenant/tenant-context';
import type { TenantSelection } from '@/lib/tenant/tenant-cookie';

const PAGE_SIZE = 50;

type Option = { key: string; tenant: TenantSelection | null; label: string };

/** The tenant selector of ADMIN (every customer) and of a network owner's OWNER (its own and its members), plus "all". */
export function TenantSwitcher() {
  const t = useTranslations('shell.tenant');
  const { tenant, all, selectTenant } = useTenant();
  const allLabel = all.label;
  const [open, setOpen] = useState(false);
  const replaceQuery = useReplaceQuery();
  const searchParams = useSearchParams();

  function choose(next: TenantSelection | null) {
    setOpen(false);
    if (next?.id === tenant?.id) return;
    selectTenant(next);
    // Paging positions belong to the previous tenant's lists.
    if (searchParams.has('page'))
      replaceQuery((params) => {
        params.delete('page');

        return params;
      });
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button
          variant="secondary"
          className="max-w-72 justify-start pl-2.5"
          aria-label={t('switcherLabel', { name: tenant?.name ?? allLabel })}
        >
          {tenant ? <BuildingIcon className="size-4 text-zinc-500" /> : <GlobeIcon className="size-4 text-zinc-500" />}
          <span className="truncate" data-testid="current-tenant">
            {tenant?.name ?? allLabel}
          </span>
          <ChevronUpDownIcon className="ml-1 size-4 text-zinc-400" />
        </Button>
      </DialogTrigger>
      <DialogContent title={t('switchTitle')} description={t('switchDescription')}>
        {open ? <TenantPicker current={tenant} allLabel={allLabel} onChoose={choose} /> : null}
      </DialogContent>
    </Dialog>
  );
}

/**
 * The searchable list of the tenants the caller reaches, with "all" first: in the switcher's dialog, and inline on
 * a page of one tenant's resources while none is chosen (`inline`: without "all", no autofocus).
 */
export function TenantPicker({
  current,
  allLabel,
  onChoose,
  inline = false,
}: {
  current: TenantSelection | null;
  allLabel: string;
  onChoose: (t: TenantSelection | null) => void;
  inline?: boolean;
}) {
  const t = useTranslations('shell.tenant');
  const format = useFormat();
  const errorMessage = useErrorMessage();
  const [text, setText] = useState('');
  const debounced = useDebouncedValue(text, 200);
  const query = useCustomerSelect({ text: debounced, page: 0, size: PAGE_SIZE });
  const listId = useId();
  const listRef = useRef<HTMLUListElement | null>(null);

  const options = useMemo<Option[]>(() => {
    const customers = (query.data?.content ?? []).map((c) => ({ key: `c-${c.id}`, tenant: { id: c.id, name: c.name }, label: c.name }));
    const all: Option = { key: 'all', tenant: null, label: allLabel };

    return debounced.trim() || inline ? customers : [all, ...customers];
  }, [query.data, debounced, allLabel, inline]);

  const [activeIndex, setActiveIndex] = useState(0);
  useEffect(() => {
    const selected = options.findIndex((o) => (o.tenant?.id ?? null) === (current?.id ?? null));
    setActiveIndex(selected >= 0 ? selected : 0);
  }, [options, current]);

  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>(`[data-index="${activeIndex}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [activeIndex]);

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (!options.length) return;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActiveIndex((i) => Math.min(i + 1, options.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActiveIndex((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Home') {
      event.preventDefault();
      setActiveIndex(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      setActiveIndex(options.length - 1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      // Never pick from the previous search's results while the new ones are on their way.
      if (text !== debounced || query.isPlaceholderData) return;
      const option = options[activeIndex];
      if (option) onChoose(option.tenant);
    }
  }

  const total = query.data?.totalElements ?? 0;
  const activeOption = options[activeIndex];

  return (
    <div className="mt-3">
      <div className="relative border-y border-zinc-200">
        <SearchIcon className="pointer-events-none absolute top-1/2 left-5 size-4 -translate-y-1/2 text-zinc-400" />
        <input
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeOption ? `${listId}-${activeOption.key}` : undefined}
          aria-label={t('search')}
          placeholder={t('searchPlaceholder')}
          autoFocus={!inline}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          className="h-11 w-full bg-transparent pr-10 pl-11 text-sm text-zinc-900 placeholder:text-zinc-400 focus:outline-none"
        />
        {query.isFetching ? <Spinner className="absolute top-1/2 right-5 -translate-y-1/2 text-zinc-400" /> : null}
      </div>

      {query.isError ? (
        <div className="p-4">
          <Alert
            title={t('loadError')}
            action={
              <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
                {t('retry')}
              </Button>
            }
          >
            {errorMessage(query.error)}
          </Alert>
        </div>
      ) : (
        <ul ref={listRef} id={listId} role="listbox" aria-label={t('list')} className="max-h-80 overflow-y-auto p-2">
          {options.map((option, index) => {
            const isSelected = (option.tenant?.id ?? null) === (current?.id ?? null);

            return (
              <li
                key={option.key}
                id={`${listId}-${option.key}`}
                data-index={index}
                role="option"
                aria-selected={isSelected}
                onMouseMove={() => setActiveIndex(index)}
                onClick={() => onChoose(option.tenant)}
                className={cn(
                  'flex cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-sm',
                  index === activeIndex ? 'bg-zinc-100 text-zinc-900' : 'text-zinc-700',
                )}
              >
                {option.tenant ? (
                  <BuildingIcon className="size-4 shrink-0 text-zinc-400" />
                ) : (
                  <GlobeIcon className="size-4 shrink-0 text-zinc-400" />
                )}
                <span className="min-w-0 flex-1 truncate">{option.label}</span>
                {option.tenant ? <span className="font-mono text-xs text-zinc-400">#{option.tenant.id}</span> : null}
                {isSelected ? <CheckIcon className="size-4 shrink-0 text-brand-600" /> : <span className="size-4" />}
              </li>
            );
          })}
          {query.isPending ? (
            <li className="flex items-center gap-2 px-3 py-3 text-sm text-zinc-500" role="presentation">
              <Spinner /> {t('loading')}
            </li>
          ) : null}
          {query.isSuccess && debounced.trim() && options.length === 0 ? (
            <li className="px-3 py-6 text-center text-sm text-zinc-500" role="presentation">
              {t('noMatch', { text: debounced.trim() })}
            </li>
          ) : null}
        </ul>
      )}
      {query.isSuccess && total > PAGE_SIZE ? (
        <p className="border-t border-zinc-200 px-5 py-2.5 text-xs text-zinc-500">
          {t('showing', { shown: format.number(PAGE_SIZE), total: format.number(total) })}
        </p>
      ) : (
        <div className="h-2" />
      )}
    </div>
  );
}
