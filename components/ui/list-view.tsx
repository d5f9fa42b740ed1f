'use client';

import type { UseQueryResult } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { LoadError } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DataTable, EmptyState } from '@/components/ui/data-table';
import { Pagination } from '@/components/ui/pagination';
import { SearchInput } from '@/components/ui/search-input';
import { UpdatingIndicator } from '@/components/ui/spinner';
import type { Page } from '@/lib/api/types';
import type { Noun } from '@/lib/format';
import type { ListParams } from '@/lib/hooks/use-list-params';
import { cn } from '@/lib/cn';
import { useServerTable } from '@/lib/hooks/use-server-table';

/*
 * The list page of a resource, in two layers: `ListResults` is the card's body under any rendering of a
 * server page (the pagination with the summary that the table is described by, the empty state), and
 * `ResourceList` is the whole list (search and filters, load error, a server-sorted TanStack table,
 * empty, loading and error states, pagination) over one `useListParams` state and one list query.
 */

/** `users` names the ids and test ids of a list: `users-summary`, `users-empty`. */
type ListIdentity = { name: string; noun: Noun };

/** The pagination of a loaded, non-empty page; otherwise the summary the table's `aria-describedby` names. */
export function ListResults<T>({
  identity,
  page,
  isFirstLoad,
  onPageChange,
  onSizeChange,
  empty,
  children,
}: {
  identity: ListIdentity;
  page: Page<T> | undefined;
  isFirstLoad: boolean;
  onPageChange: (page: number) => void;
  onSizeChange: (size: number) => void;
  /** Shown under the content when the page is loaded and empty. */
  empty: ReactNode | null;
  children: ReactNode;
}) {
  const t = useTranslations('ui.list');

  return (
    <>
      {children}
      {empty}
      {page && page.totalElements > 0 ? (
        <Pagination
          id={`${identity.name}-summary`}
          page={page.number}
          size={page.size}
          totalElements={page.totalElements}
          totalPages={page.totalPages}
          noun={identity.noun}
          onPageChange={onPageChange}
          onSizeChange={onSizeChange}
        />
      ) : (
        <span id={`${identity.name}-summary`} className="sr-only">
          {isFirstLoad ? t('loading', { things: identity.noun.other }) : t('none', { things: identity.noun.other })}
        </span>
      )}
    </>
  );
}

export type EmptyContent = { icon: ReactNode; title: string; body?: ReactNode; action?: ReactNode };

/**
 * A server-paged, server-sorted list of one resource. The list's state (page, size, sort, search and its
 * own filters) lives in the URL through `list`; `query` is the resource's list query for that state.
 */
/** What a list needs of `useListParams`: its state and the way to change it. */
export type ListControl = { params: ListParams; update: (patch: Partial<ListParams>) => void };

export function ResourceList<T>({
  identity,
  list,
  query,
  columns,
  getRowId,
  sortable,
  search,
  filters,
  notices,
  isFiltered,
  onClearFilters,
  errorTitle,
  empty,
  filteredHint,
  rowClassName,
  toolbarEnd,
  children,
}: {
  identity: ListIdentity;
  list: ListControl;
  query: UseQueryResult<Page<T>>;
  columns: ColumnDef<T>[];
  getRowId: (row: T, index: number) => string;
  /** Columns the API sorts by (the others' headers are plain text). */
  sortable: readonly string[];
  search: { label: string; placeholder: string };
  /** The list's own filter controls beside the search. */
  filters?: ReactNode;
  /** Messages between the toolbar and the list (a hint, an invalid filter). */
  notices?: ReactNode;
  /** Whether the list's own filters narrow it (the search text counts by itself). */
  isFiltered?: boolean;
  /** Resets the list's own filters (the search text is cleared by the list). */
  onClearFilters?: () => void;
  errorTitle: string;
  /** The empty state of the unfiltered list. */
  empty: EmptyContent;
  /** A hint under "No … match": what to try instead. */
  filteredHint?: string;
  rowClassName?: string;
  /** Controls at the right end of the toolbar (a view toggle). */
  toolbarEnd?: ReactNode;
  /** Another rendering of the same page in place of the table (a grid of cards). */
  children?: ReactNode;
}) {
  const t = useTranslations('ui.list');
  const { params, update } = list;
  const { table, rows } = useServerTable({
    page: query.data,
    columns,
    getRowId,
    sort: params.sort,
    onSortChange: (sort) => update({ sort }),
  });
  const isFirstLoad = query.isPending;
  const text = params.text.trim();
  const filtered = Boolean(text) || Boolean(isFiltered);
  const clear = () => {
    update({ text: '' });
    if (isFiltered) onClearFilters?.();
  };

  const emptyState =
    query.isSuccess && rows.length === 0 ? (
      filtered ? (
        <EmptyState
          testId={`${identity.name}-empty`}
          icon={empty.icon}
          title={
            text && !isFiltered
              ? t('noMatchText', { things: identity.noun.other, text })
              : t('noMatchFilters', { things: identity.noun.other })
          }
        >
          {filteredHint ? <p className="mt-1 text-sm text-zinc-500">{filteredHint}</p> : null}
          {text || onClearFilters ? (
            <Button variant="secondary" size="sm" className="mt-4" onClick={clear}>
              {isFiltered ? t('clearFilters') : t('clearSearch')}
            </Button>
          ) : null}
        </EmptyState>
      ) : (
        <EmptyState testId={`${identity.name}-empty`} icon={empty.icon} title={empty.title}>
          {empty.body ? <p className="mt-1 max-w-sm text-sm text-zinc-500">{empty.body}</p> : null}
          {empty.action ? <div className="mt-4">{empty.action}</div> : null}
        </EmptyState>
      )
    ) : null;

  return (
    <div className="space-y-4">
      <div className={cn('flex flex-wrap gap-3', filters ? 'items-end' : 'items-center justify-between')}>
        <SearchInput
          label={search.label}
          placeholder={search.placeholder}
          value={params.text}
          onChange={(value) => update({ text: value })}
        />
        {filters}
        {toolbarEnd ? (
          <div className="ml-auto flex items-center gap-2 self-center">
            <UpdatingIndicator show={query.isFetching && !isFirstLoad} />
            {toolbarEnd}
          </div>
        ) : (
          <UpdatingIndicator show={query.isFetching && !isFirstLoad} className={filters ? 'ml-auto self-center' : undefined} />
        )}
      </div>

      {notices}
      {query.isError ? <LoadError title={errorTitle} error={query.error} onRetry={() => void query.refetch()} /> : null}

      <Card className="overflow-hidden">
        <ListResults
          identity={identity}
          page={query.data}
          isFirstLoad={isFirstLoad}
          onPageChange={(page) => update({ page })}
          onSizeChange={(size) => update({ size })}
          empty={emptyState}
        >
          {children !== undefined ? (
            children
          ) : (
            <DataTable
              table={table}
              sortable={sortable}
              isFirstLoad={isFirstLoad}
              isFetching={query.isFetching}
              isPlaceholderData={query.isPlaceholderData}
              describedBy={`${identity.name}-summary`}
              rowClassName={rowClassName}
            />
          )}
        </ListResults>
      </Card>
    </div>
  );
}
