'use client';

import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useMemo, useState, type ReactNode } from 'react';
import { Alert, LoadError } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ChevronLeftIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api/client';
import {
  DETAIL_REFRESH_MS,
  useClearDatasourceCache,
  useDatasource,
  useDatasourceData,
  useDatasourceUsage,
  useReactivateDatasource,
  useRefreshDatasource,
  type Datasource,
} from '@/lib/api/datasource-data';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';
import { cn } from '@/lib/cn';
import { hasRole } from '@/server/context/roles';
import { DataEditor } from './data-editors';
import { shapeOf } from './data-shapes';
import { DataView } from './data-view';
import { useKindWords, useStructureWord } from './datasource-words';

/*
 * One datasource (spec 3 "Datasource", spec 5 §2): what it is, whether its refreshes work, the content that shows it,
 * and its current data in the form its structure suggests. Editors refresh an external one now, clear its cache or
 * reactivate it; an internal one's data is edited here. Viewers, and members of read-only teams, only look.
 */

/** Spec 5 §2: at this many failed refreshes in a row the datasource is deactivated. */
const DEACTIVATE_AFTER_ERRORS = 25;

type Status = 'ok' | 'failing' | 'deactivated';
const STATUS_TONES: Record<Status, BadgeTone> = { ok: 'success', failing: 'danger', deactivated: 'warning' };

function statusOf(d: Datasource): Status {
  if (d.deactivated) return 'deactivated';

  return (d.errorCounter ?? 0) > 0 || d.lastError ? 'failing' : 'ok';
}

/** What the last action did, worded when shown (the page may change language meanwhile). */
type Outcome =
  { kind: 'refreshed' | 'unchanged' | 'cleared' | 'reactivated' } | { kind: 'failed'; error: string } | { kind: 'error'; error: unknown };

export function DatasourceDetail({ datasourceId }: { datasourceId: string }) {
  const t = useTranslations('datasourceData');
  const datasource = useDatasource(datasourceId);
  const errorMessage = useErrorMessage();

  if (datasource.isPending) {
    return (
      <div className="flex items-center gap-2 py-10 text-sm text-zinc-500">
        <Spinner /> {t('loading')}
      </div>
    );
  }
  if (datasource.isError || !datasource.data) {
    const isMissing = datasource.error instanceof ApiError && datasource.error.status === 404;

    return (
      <div className="space-y-4">
        <BackLink />
        <Alert
          title={isMissing ? t('notFound') : t('loadError')}
          action={
            isMissing ? null : (
              <Button variant="secondary" size="sm" onClick={() => void datasource.refetch()}>
                {t('tryAgain')}
              </Button>
            )
          }
        >
          {isMissing ? t('notFoundBody') : errorMessage(datasource.error)}
        </Alert>
      </div>
    );
  }

  return <Detail datasource={datasource.data} />;
}

function BackLink() {
  const t = useTranslations('datasourceData');

  return (
    <Link href="/datasources" className="inline-flex items-center gap-1 text-sm text-zinc-500 hover:text-zinc-900">
      <ChevronLeftIcon className="size-4" />
      {t('back')}
    </Link>
  );
}

function Detail({ datasource }: { datasource: Datasource }) {
  const t = useTranslations('datasourceData');
  const me = useCurrentUser();
  const kindWords = useKindWords();
  const errorMessage = useErrorMessage();
  const refresh = useRefreshDatasource();
  const reactivate = useReactivateDatasource();
  const clearCache = useClearDatasourceCache();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [isEditing, setEditing] = useState(false);
  const canEdit = hasRole(me.role, 'EDITOR') && !datasource.readOnly;
  const isExternal = datasource.sourceType === 'EXTERNAL';
  const status = statusOf(datasource);
  const isBusy = refresh.isPending || reactivate.isPending || clearCache.isPending;

  const run = async (action: () => Promise<Outcome>) => {
    setOutcome(null);
    try {
      setOutcome(await action());
    } catch (error) {
      setOutcome({ kind: 'error', error });
    }
  };
  const refreshNow = () =>
    run(async () => {
      const after = await refresh.mutateAsync(datasource.id);
      if (after.lastError) return { kind: 'failed', error: after.lastError };

      return { kind: after.lastUpdated !== datasource.lastUpdated ? 'refreshed' : 'unchanged' };
    });

  return (
    <div className="space-y-6">
      <div>
        <BackLink />
        <div className="mt-3 flex flex-wrap items-end justify-between gap-4">
          <div className="min-w-0">
            <h1 className="flex flex-wrap items-center gap-x-3 gap-y-1 text-2xl font-semibold tracking-tight text-zinc-900">
              <span className="break-all" translate="no">
                {datasource.name}
              </span>
              <Badge tone={STATUS_TONES[status]}>
                <span className="sr-only">{t('statusLabel')}: </span>
                {t(`status.${status}`)}
              </Badge>
            </h1>
            <p className="mt-1 text-sm text-zinc-500" data-testid="datasource-kind">
              {kindWords(datasource)}
              {datasource.comment ? (
                <>
                  {' · '}
                  <span translate="no">{datasource.comment}</span>
                </>
              ) : null}
            </p>
          </div>
          {canEdit ? (
            <div className="flex flex-wrap items-center gap-2">
              {datasource.deactivated ? (
                <Button
                  onClick={() => void run(async () => (await reactivate.mutateAsync(datasource.id), { kind: 'reactivated' }))}
                  disabled={isBusy}
                >
                  {reactivate.isPending ? <Spinner /> : null}
                  {t('actions.reactivate')}
                </Button>
              ) : null}
              {isExternal ? (
                <>
                  <Button
                    variant="secondary"
                    title={t('actions.clearCacheHint')}
                    onClick={() => void run(async () => (await clearCache.mutateAsync(datasource.id), { kind: 'cleared' }))}
                    disabled={isBusy}
                  >
                    {clearCache.isPending ? <Spinner /> : null}
                    {t('actions.clearCache')}
                  </Button>
                  {datasource.deactivated ? null : (
                    <Button onClick={() => void refreshNow()} disabled={isBusy}>
                      {refresh.isPending ? <Spinner /> : null}
                      {refresh.isPending ? t('actions.refreshing') : t('actions.refresh')}
                    </Button>
                  )}
                </>
              ) : null}
            </div>
          ) : null}
        </div>
      </div>
      {outcome ? (
        <Alert
          tone={outcome.kind === 'failed' || outcome.kind === 'error' ? 'error' : 'info'}
          action={
            <Button variant="ghost" size="sm" onClick={() => setOutcome(null)}>
              {t('dismiss')}
            </Button>
          }
        >
          <span data-testid="datasource-outcome">
            {outcome.kind === 'failed' ? (
              <>
                {t('outcome.failed')} <span translate="no">{outcome.error}</span>
              </>
            ) : outcome.kind === 'error' ? (
              errorMessage(outcome.error)
            ) : (
              t(`outcome.${outcome.kind}`)
            )}
          </span>
        </Alert>
      ) : null}
      {datasource.deactivated ? (
        <Alert tone="info" title={t('deactivatedTitle')}>
          {t('deactivatedBody', { limit: DEACTIVATE_AFTER_ERRORS })}
          {datasource.lastError ? (
            <p className="mt-1" translate="no">
              {datasource.lastError}
            </p>
          ) : null}
        </Alert>
      ) : status === 'failing' ? (
        <Alert title={t('failingTitle')}>
          {datasource.lastError ? (
            <p translate="no" data-testid="datasource-last-error">
              {datasource.lastError}
            </p>
          ) : null}
          <p className="mt-1">{t('failingCount', { count: datasource.errorCounter ?? 0, limit: DEACTIVATE_AFTER_ERRORS })}</p>
        </Alert>
      ) : null}
      {/* The editor takes the whole width (a table's columns need it); the details go below it meanwhile. */}
      <div className={cn('grid grid-cols-1 gap-6', !isEditing && 'xl:grid-cols-[minmax(0,1fr)_20rem]')}>
        <DataSection datasource={datasource} canEdit={canEdit} isEditing={isEditing} onEditing={setEditing} />
        <div className={cn('space-y-6', isEditing && 'xl:grid xl:grid-cols-2 xl:items-start xl:gap-6 xl:space-y-0')}>
          <Facts datasource={datasource} />
          <UsedBy datasourceId={datasource.id} />
        </div>
      </div>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-2 text-sm xl:block">
      <dt className="shrink-0 text-zinc-500">{label}</dt>
      <dd className="min-w-0 text-right text-zinc-900 xl:mt-0.5 xl:text-left">{children}</dd>
    </div>
  );
}

function Facts({ datasource: d }: { datasource: Datasource }) {
  const t = useTranslations('datasourceData.facts');
  const format = useFormat();
  const structureWord = useStructureWord();
  const isExternal = d.sourceType === 'EXTERNAL';
  const seconds = d.refreshFrequency ?? undefined;

  return (
    <Card className="px-5 py-3">
      <h2 className="py-1 text-sm font-semibold text-zinc-900">{t('title')}</h2>
      <dl className="divide-y divide-zinc-100">
        <Fact label={t('structure')}>{structureWord(d.structureType)}</Fact>
        {d.remoteUrl ? (
          <Fact label={t('source')}>
            <span className="block truncate" title={d.remoteUrl} translate="no">
              {d.remoteUrl}
            </span>
          </Fact>
        ) : null}
        {isExternal ? (
          <>
            <Fact label={t('refresh')}>
              {d.cronExpressionParameters ? (
                <span translate="no">
                  {d.cronExpressionParameters.cronExpression} ({d.cronExpressionParameters.timeZone})
                </span>
              ) : seconds !== undefined && seconds % 60 === 0 ? (
                t('everyMinutes', { minutes: seconds / 60 })
              ) : seconds !== undefined ? (
                t('everySeconds', { seconds })
              ) : (
                '—'
              )}
            </Fact>
            <Fact label={t('lastRefresh')}>{d.lastRefreshTime ? format.dateTime(d.lastRefreshTime) : t('never')}</Fact>
            <Fact label={t('nextRefresh')}>
              {d.deactivated ? t('stopped') : d.nextRefreshTime ? format.dateTime(d.nextRefreshTime) : '—'}
            </Fact>
          </>
        ) : null}
        {/* A system datasource is computed when read: it has no stored document that changes or takes room. */}
        {d.sourceType === 'SYSTEM' ? null : (
          <>
            <Fact label={t('lastUpdated')}>{d.lastUpdated ? format.dateTime(d.lastUpdated) : t('never')}</Fact>
            <Fact label={t('size')}>{format.bytes(d.dataSize ?? 0)}</Fact>
          </>
        )}
        {d.timeZone ? (
          <Fact label={t('timeZone')}>
            <span translate="no">{d.timeZone}</span>
          </Fact>
        ) : null}
        {d.sourceType === 'INTERNAL' ? <Fact label={t('editableByDisplay')}>{d.editableByDisplay ? t('yes') : t('no')}</Fact> : null}
        {d.createdDate ? <Fact label={t('created')}>{format.date(d.createdDate)}</Fact> : null}
      </dl>
    </Card>
  );
}

function UsedBy({ datasourceId }: { datasourceId: string }) {
  const t = useTranslations('datasourceData.usage');
  const label = useLabel();
  const usage = useDatasourceUsage(datasourceId);
  const content = usage.data?.usageDetails ?? [];

  return (
    <Card className="px-5 py-4">
      <h2 className="text-sm font-semibold text-zinc-900">{t('title')}</h2>
      {usage.isError ? (
        <LoadError className="mt-3" title={t('loadError')} error={usage.error} onRetry={() => void usage.refetch()} />
      ) : usage.isPending ? (
        <p className="mt-3 flex items-center gap-2 text-sm text-zinc-500">
          <Spinner /> {t('loading')}
        </p>
      ) : content.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-500">{t('empty')}</p>
      ) : (
        <ul className="mt-2 space-y-2.5" aria-label={t('title')}>
          {content.map((c) => (
            <li key={c.contentId} className="text-sm">
              <div className="flex items-center justify-between gap-2">
                <Link
                  href={`/content/${c.contentId}`}
                  className="min-w-0 truncate font-medium text-brand-700 hover:underline"
                  translate="no"
                >
                  {c.contentName}
                </Link>
                <Badge className="shrink-0">{label('contentType', c.deviceContentType)}</Badge>
              </div>
              {c.widgets.length > 0 ? (
                <p className="mt-0.5 truncate text-xs text-zinc-500" translate="no">
                  {c.widgets.map((w) => `${w.page} · ${w.widgetName || label('widgetType', 'datasource')}`).join(', ')}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function DataSection({
  datasource,
  canEdit,
  isEditing,
  onEditing,
}: {
  datasource: Datasource;
  canEdit: boolean;
  isEditing: boolean;
  onEditing: (isEditing: boolean) => void;
}) {
  const t = useTranslations('datasourceData.data');
  const data = useDatasourceData(datasource.id, { refetchInterval: DETAIL_REFRESH_MS });
  const shape = useMemo(() => shapeOf(datasource.structureType, data.data), [datasource.structureType, data.data]);
  const source = datasource.sourceType === 'EXTERNAL' ? 'external' : datasource.sourceType === 'SYSTEM' ? 'system' : 'internal';
  const canEditData = canEdit && source === 'internal';

  return (
    <Card className="min-w-0 self-start overflow-hidden">
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-zinc-200 px-5 py-4">
        <div>
          <h2 className="text-base font-semibold text-zinc-900">{isEditing ? t('editTitle') : t('title')}</h2>
          <p className="mt-0.5 text-sm text-zinc-500">{t(`about.${source}`)}</p>
        </div>
        {canEditData && !isEditing && data.isSuccess ? (
          <Button variant="secondary" size="sm" onClick={() => onEditing(true)}>
            {t('edit')}
          </Button>
        ) : null}
      </div>
      {data.isError ? (
        <LoadError className="m-4" title={t('loadError')} error={data.error} onRetry={() => void data.refetch()} />
      ) : data.isPending ? (
        <p className="flex items-center gap-2 px-5 py-6 text-sm text-zinc-500">
          <Spinner /> {t('loading')}
        </p>
      ) : isEditing ? (
        <DataEditor datasource={datasource} current={data.data} onClose={() => onEditing(false)} />
      ) : (
        <DataView
          shape={shape}
          timeZone={datasource.timeZone ?? undefined}
          empty={
            <>
              <p className="text-sm font-medium text-zinc-900">{t('emptyTitle')}</p>
              <p className="mt-1 text-sm text-zinc-500">{canEditData ? t('emptyEdit') : t(`empty.${source}`)}</p>
            </>
          }
        />
      )}
    </Card>
  );
}
