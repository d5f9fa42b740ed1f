'use client';

import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { CodeBlock } from '@/components/webhooks/code-block';
import { curlExample, examplePayload, KEY_PLACEHOLDER, triggerUrl } from '@/components/webhooks/trigger-example';
import { decomposeAction } from '@/components/webhooks/webhook-action-form';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/field';
import { PlayIcon, XIcon } from '@/components/ui/icons';
import { Pagination } from '@/components/ui/pagination';
import { Spinner } from '@/components/ui/spinner';
import {
  useTryWebhookAction,
  useWebhookAction,
  useWebhookExecutions,
  type TriggerAnswer,
  type WebhookAction,
  type WebhookExecution,
} from '@/lib/api/webhooks';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';

/** What an action does and to what, in one line: "Turn emergency content on · Screens in a folder". */
export function useActionWords() {
  const label = useLabel();

  return useCallback(
    (action: string | undefined) => {
      const choice = decomposeAction(action ?? '');
      if (!choice) return { what: action ?? '', how: null };

      return {
        what: label('webhookAction', choice.base),
        how: choice.targeting === 'NONE' ? null : label('webhookTargeting', choice.targeting),
      };
    },
    [label],
  );
}

/** An execution's outcome as a badge: succeeded, failed, or still queued or running. */
function OutcomeBadge({ execution }: { execution: Pick<WebhookExecution, 'outcome' | 'startedAt'> }) {
  const t = useTranslations('webhooks.executions');
  const label = useLabel();
  if (execution.outcome)
    return <Badge tone={execution.outcome === 'SUCCEEDED' ? 'success' : 'danger'}>{label('webhookOutcome', execution.outcome)}</Badge>;

  return (
    <Badge tone="info">
      <Spinner className="mr-1 size-3" />
      {execution.startedAt ? t('running') : t('queued')}
    </Badge>
  );
}

/** The newest executions of the action, read again while one is unfinished or the one just tried is not listed. */
function Executions({ actionId, awaitedId }: { actionId: number; awaitedId: string | null }) {
  const t = useTranslations('webhooks.executions');
  const format = useFormat();
  const errorMessage = useErrorMessage();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const query = useWebhookExecutions(actionId, { page, size, awaitedId: page === 0 ? awaitedId : null });
  const executions = query.data?.content ?? [];

  return (
    <section className="space-y-2" aria-labelledby="webhook-executions-title">
      <h3 id="webhook-executions-title" className="text-sm font-semibold text-zinc-900">
        {t('title')}
      </h3>
      {query.isError ? <Alert title={t('loadError')}>{errorMessage(query.error)}</Alert> : null}
      <div className="overflow-hidden rounded-lg ring-1 ring-zinc-200">
        <table className="w-full text-left text-sm" data-testid="webhook-executions">
          <thead className="border-b border-zinc-200 bg-zinc-50/80">
            <tr>
              {[t('received'), t('outcome'), t('affected'), t('triggeredBy')].map((header) => (
                <th
                  key={header}
                  scope="col"
                  className="px-3 py-2 text-xs font-medium tracking-wide whitespace-nowrap text-zinc-500 uppercase"
                >
                  {header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {executions.map((execution) => (
              <tr key={execution.id} className="align-top" data-execution-id={execution.id}>
                <td className="px-3 py-2 whitespace-nowrap text-zinc-700">{format.dateTime(execution.receivedAt)}</td>
                <td className="px-3 py-2">
                  <OutcomeBadge execution={execution} />
                  {execution.detail ? (
                    <p className="mt-1 max-w-xs text-xs break-words text-zinc-600" translate="no">
                      {execution.detail}
                    </p>
                  ) : null}
                </td>
                <td className="px-3 py-2 text-zinc-700 tabular-nums">
                  {execution.affected === null || execution.affected === undefined ? '—' : format.number(execution.affected)}
                </td>
                <td className="max-w-48 px-3 py-2 break-all text-zinc-600" translate="no">
                  {execution.triggeredBy ?? '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {query.isPending ? (
          <p className="flex items-center gap-2 px-3 py-3 text-sm text-zinc-500">
            <Spinner /> {t('loading')}
          </p>
        ) : executions.length === 0 && query.isSuccess ? (
          <p className="px-3 py-3 text-sm text-zinc-500" data-testid="webhook-executions-empty">
            {t('empty')}
          </p>
        ) : null}
        {query.data && query.data.totalElements > size ? (
          <Pagination
            page={query.data.number}
            size={size}
            totalElements={query.data.totalElements}
            totalPages={query.data.totalPages}
            noun={{ one: t('noun.one'), other: t('noun.other') }}
            onPageChange={setPage}
            onSizeChange={(next) => {
              setSize(next);
              setPage(0);
            }}
          />
        ) : null}
      </div>
    </section>
  );
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A payload typed in the "Try it" box: a JSON object, or nothing (an empty body). */
function parsePayload(text: string): { ok: true; payload: Record<string, unknown> } | { ok: false } {
  if (text.trim() === '') return { ok: true, payload: {} };
  try {
    const value: unknown = JSON.parse(text);

    return isObject(value) ? { ok: true, payload: value } : { ok: false };
  } catch {
    return { ok: false };
  }
}

/** "Try it": fires the action with the payload typed here, says what the trigger answered, then follows the execution. */
function TryIt({ action, onQueued }: { action: WebhookAction; onQueued: (executionId: string | null) => void }) {
  const t = useTranslations('webhooks.tryIt');
  const errorMessage = useErrorMessage();
  const id = useId();
  const tryAction = useTryWebhookAction();
  const [text, setText] = useState(() => JSON.stringify(examplePayload(action), null, 2));
  const [answer, setAnswer] = useState<TriggerAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const parsed = parsePayload(text);

  const run = async () => {
    if (!parsed.ok) return;
    setError(null);
    setAnswer(null);
    try {
      const result = await tryAction.mutateAsync({ id: action.id, payload: parsed.payload });
      setAnswer(result);
      onQueued(result.executionId ?? null);
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <section className="space-y-2" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="text-sm font-semibold text-zinc-900">
        {t('title')}
      </h3>
      <p className="text-sm text-zinc-500">{t('text')}</p>
      <label htmlFor={`${id}-payload`} className="block text-sm font-medium text-zinc-800">
        {t('payload')}
      </label>
      <Textarea
        id={`${id}-payload`}
        rows={4}
        spellCheck={false}
        translate="no"
        className="font-mono text-xs"
        aria-invalid={parsed.ok ? undefined : true}
        aria-describedby={parsed.ok ? undefined : `${id}-payload-error`}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      {parsed.ok ? null : (
        <p id={`${id}-payload-error`} className="text-sm text-red-700">
          {t('notObject')}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={() => void run()} disabled={!parsed.ok || tryAction.isPending}>
          {tryAction.isPending ? <Spinner /> : <PlayIcon className="size-4" />}
          {t('run')}
        </Button>
        {answer ? (
          <p className="text-sm text-zinc-700" role="status" data-testid="webhook-try-answer">
            {answer.errorReason === 'disabled'
              ? t('disabled')
              : answer.executionId
                ? t('queued')
                : t('answered', { message: answer.message })}
          </p>
        ) : null}
      </div>
      {error ? <Alert>{error}</Alert> : null}
    </section>
  );
}

/** The execution the last "Try it" queued, until it has its outcome (the list below has it too). */
function Awaited({ actionId, executionId }: { actionId: number; executionId: string }) {
  const t = useTranslations('webhooks.tryIt');
  const query = useWebhookExecutions(actionId, { page: 0, size: 10, awaitedId: executionId });
  const execution = query.data?.content.find((e) => e.id === executionId);
  const box = useRef<HTMLDivElement>(null);
  // The result appears below the button, where a short window would not show it.
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'nearest' });
  }, [executionId, execution?.outcome]);

  return (
    <div
      ref={box}
      className="flex flex-wrap items-center gap-2 rounded-md bg-zinc-50 px-3 py-2 text-sm ring-1 ring-zinc-200 ring-inset"
      data-testid="webhook-try-result"
    >
      <span className="text-zinc-700">{t('result')}</span>
      {execution ? <OutcomeBadge execution={execution} /> : <OutcomeBadge execution={{ outcome: null, startedAt: null }} />}
      {execution?.detail ? (
        <span className="text-zinc-600" translate="no">
          {execution.detail}
        </span>
      ) : null}
    </div>
  );
}

/**
 * One action's panel: what it does, how to trigger it (URL, JSON body, curl with a placeholder for the key), "Try it",
 * and its executions. Opened beside the list; the page keeps which one in its URL.
 */
export function WebhookActionDetail({
  actionId,
  canManage,
  onClose,
  onEdit,
}: {
  actionId: number | null;
  canManage: boolean;
  onClose: () => void;
  onEdit: (action: WebhookAction) => void;
}) {
  const t = useTranslations('webhooks.detail');
  const errorMessage = useErrorMessage();
  const words = useActionWords();
  const query = useWebhookAction(actionId);
  const action = query.data;
  const [awaitedId, setAwaitedId] = useState<string | null>(null);
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  useEffect(() => {
    setAwaitedId(null);
  }, [actionId]);
  const { what, how } = words(action?.action);
  const payload = action ? examplePayload(action) : {};
  const writable = canManage && action?.readOnly !== true;

  return (
    <Dialog open={actionId !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title={action?.name ?? t('loading')}
        description={action ? [what, how].filter(Boolean).join(' · ') : undefined}
        placement="right"
      >
        <button
          type="button"
          onClick={onClose}
          aria-label={t('close')}
          className="absolute top-3 right-3 cursor-pointer rounded-md p-1.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900"
        >
          <XIcon className="size-4" />
        </button>
        <div className="min-h-0 flex-1 space-y-6 overflow-y-auto px-5 pt-3 pb-6" data-testid="webhook-action-detail">
          {query.isError ? <Alert title={t('loadError')}>{errorMessage(query.error)}</Alert> : null}
          {query.isPending ? (
            <p className="flex items-center gap-2 text-sm text-zinc-500">
              <Spinner /> {t('loading')}
            </p>
          ) : null}
          {action ? (
            <>
              <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1.5 text-sm">
                <dt className="text-zinc-500">{t('eventId')}</dt>
                <dd className="font-mono text-zinc-900" translate="no">
                  {action.eventId}
                </dd>
                <dt className="text-zinc-500">{t('targets')}</dt>
                <dd className="text-zinc-900" translate="no">
                  {action.targetName ?? (how ? how : '—')}
                </dd>
                <dt className="text-zinc-500">{t('state')}</dt>
                <dd>{action.enabled ? <Badge tone="success">{t('enabled')}</Badge> : <Badge>{t('disabled')}</Badge>}</dd>
                {Object.entries(action.actionParams ?? {}).map(([key, value]) => (
                  <div key={key} className="contents">
                    <dt className="font-mono text-xs leading-5 text-zinc-500" translate="no">
                      {key}
                    </dt>
                    <dd className="truncate text-zinc-900" translate="no" title={value}>
                      {value}
                    </dd>
                  </div>
                ))}
              </dl>
              {writable ? (
                <Button variant="secondary" size="sm" onClick={() => onEdit(action)}>
                  {t('edit')}
                </Button>
              ) : null}

              <section className="space-y-3" aria-labelledby="webhook-trigger-title">
                <h3 id="webhook-trigger-title" className="text-sm font-semibold text-zinc-900">
                  {t('triggerTitle')}
                </h3>
                <p className="text-sm text-zinc-500">
                  {t.rich('triggerText', {
                    placeholder: KEY_PLACEHOLDER,
                    code: (chunks) => (
                      <code className="font-mono text-xs" translate="no">
                        {chunks}
                      </code>
                    ),
                  })}
                </p>
                <CodeBlock label={t('url')} value={triggerUrl(origin)} copyLabel={t('copyUrl')} testId="webhook-trigger-url" />
                <CodeBlock
                  label={t('body')}
                  value={JSON.stringify(payload, null, 2)}
                  copyLabel={t('copyBody')}
                  testId="webhook-trigger-body"
                />
                <CodeBlock
                  label={t('curl')}
                  value={curlExample({ origin, apiKey: KEY_PLACEHOLDER, payload })}
                  copyLabel={t('copyCurl')}
                  testId="webhook-trigger-curl"
                />
              </section>

              {writable ? (
                <div className="space-y-3">
                  <TryIt key={action.id} action={action} onQueued={setAwaitedId} />
                  {awaitedId ? <Awaited actionId={action.id} executionId={awaitedId} /> : null}
                </div>
              ) : null}

              <Executions actionId={action.id} awaitedId={awaitedId} />
            </>
          ) : null}
        </div>
      </DialogContent>
    </Dialog>
  );
}
