'use client';

import { useTranslations } from 'next-intl';
import { useCallback, useId, useMemo, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Textarea } from '@/components/ui/field';
import { PlusIcon, XIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api/client';
import { useReplaceDatasourceData, type Datasource } from '@/lib/api/datasource-data';
import { cn } from '@/lib/cn';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useFormat } from '@/lib/i18n/use-format';
import { MAX_DOCUMENT_BYTES } from '@/server/modules/datasources/datasources.schemas';
import { ROWS_PER_PAGE, Pager } from './data-view';
import { useStructureWord } from './datasource-words';
import {
  addColumn,
  addRow,
  cellText,
  documentBytes,
  freeColumnName,
  keyValueDocumentOf,
  keyValueProblems,
  keyValueRowsOf,
  nameProblems,
  parseJson,
  removeColumn,
  removeRow,
  renameColumn,
  setCell,
  tableDocumentOf,
  tableDraftOf,
  type KeyValueRow,
  type TableDraft,
} from './drafts';
import { useUnsavedGuard } from './use-unsaved-guard';

/*
 * The editors of an internal datasource's document (PUT /api/datasource/{id}/data replaces it whole): a TABLE in a
 * grid, a KEY_VALUE object as rows, every other structure as JSON text. Each keeps a working copy of the document it
 * started from; leaving with unsaved changes asks first; the server's refusal (a document that does not fit the
 * structure, one past 1 MiB) is shown with its reason.
 */

type EditorProps = { datasource: Datasource; base: unknown; onClose: () => void };

/** The editor for the datasource's structure, told when the stored data changed after it started. */
export function DataEditor({ datasource, current, onClose }: { datasource: Datasource; current: unknown; onClose: () => void }) {
  const t = useTranslations('datasourceData.editor');
  const [base, setBase] = useState(current);
  const [generation, setGeneration] = useState(0);
  const props = { datasource, base, onClose };
  const restart = () => {
    setBase(current);
    setGeneration(generation + 1);
  };

  return (
    <div className="space-y-3 p-4" key={generation}>
      {current !== base ? (
        <Alert
          tone="info"
          title={t('changedMeanwhile')}
          action={
            <Button variant="secondary" size="sm" onClick={restart}>
              {t('startOver')}
            </Button>
          }
        >
          {t('changedMeanwhileBody')}
        </Alert>
      ) : null}
      {datasource.structureType === 'TABLE' ? (
        <TableEditor {...props} />
      ) : datasource.structureType === 'KEY_VALUE' ? (
        <KeyValueEditor {...props} />
      ) : (
        <JsonEditor {...props} />
      )}
    </div>
  );
}

/** Save and cancel, the document's size, the server's refusal; asks before unsaved changes are left. */
function SaveBar({
  datasource,
  document,
  isDirty,
  isValid,
  onClose,
}: {
  datasource: Datasource;
  /** What would be saved (ignored while not valid). */
  document: () => unknown;
  isDirty: boolean;
  isValid: boolean;
  onClose: () => void;
}) {
  const t = useTranslations('datasourceData.editor');
  const structureWord = useStructureWord();
  const format = useFormat();
  const errorMessage = useErrorMessage();
  const replace = useReplaceDatasourceData();
  const [failure, setFailure] = useState<unknown>(null);
  const [isAskingDiscard, setAskingDiscard] = useState(false);
  useUnsavedGuard(isDirty && !replace.isSuccess, t('leaveQuestion'));
  const bytes = useMemo(() => (isValid ? documentBytes(document()) : undefined), [isValid, document]);

  const save = async () => {
    setFailure(null);
    try {
      await replace.mutateAsync({ id: datasource.id, document: document() });
      onClose();
    } catch (error) {
      setFailure(error);
    }
  };
  const refusal =
    failure instanceof ApiError && failure.key === 'datasource.error.invalidDocument'
      ? t('invalidDocument', { structure: structureWord(datasource.structureType) })
      : failure instanceof ApiError && failure.status === 413
        ? t('tooLarge', { limit: format.bytes(MAX_DOCUMENT_BYTES) })
        : undefined;

  return (
    <div className="space-y-3">
      {failure ? (
        <Alert title={refusal ?? t('saveFailed')}>
          <span translate="no">{errorMessage(failure)}</span>
        </Alert>
      ) : null}
      <div className="flex flex-wrap items-center justify-end gap-3">
        {bytes !== undefined ? (
          <span className={cn('mr-auto text-xs', bytes > MAX_DOCUMENT_BYTES ? 'font-medium text-red-700' : 'text-zinc-500')}>
            {t('size', { size: format.bytes(bytes), limit: format.bytes(MAX_DOCUMENT_BYTES) })}
          </span>
        ) : null}
        <Button variant="secondary" disabled={replace.isPending} onClick={() => (isDirty ? setAskingDiscard(true) : onClose())}>
          {t('cancel')}
        </Button>
        <Button disabled={!isValid || !isDirty || replace.isPending} onClick={() => void save()}>
          {replace.isPending ? <Spinner className="size-4" /> : null}
          {t('save')}
        </Button>
      </div>
      <ConfirmDialog
        open={isAskingDiscard}
        onOpenChange={setAskingDiscard}
        title={t('discardTitle')}
        description={t('discardBody')}
        confirmLabel={t('discard')}
        destructive
        onConfirm={async () => onClose()}
      />
    </div>
  );
}

const smallInput = 'h-8 min-w-28 text-sm';

function TableEditor({ datasource, base, onClose }: EditorProps) {
  const t = useTranslations('datasourceData.editor');
  const initial = useMemo(() => tableDraftOf(base), [base]);
  const [draft, setDraft] = useState<TableDraft>(initial);
  const [page, setPage] = useState(0);
  const problems = nameProblems(draft.columns);
  const isValid = problems.every((p) => p === undefined);
  const lastPage = Math.max(0, Math.ceil(draft.rows.length / ROWS_PER_PAGE) - 1);
  const current = Math.min(page, lastPage);
  const first = current * ROWS_PER_PAGE;
  const document = useCallback(() => tableDocumentOf(draft), [draft]);

  return (
    <div className="space-y-3">
      <p className="text-xs text-zinc-500">{t('tableHint')}</p>
      {/* Positioned: the header's screen-reader label (sr-only, absolute) stays inside the scrolling box, not past the page's edge. */}
      <div className="relative overflow-x-auto rounded-md ring-1 ring-zinc-200">
        <table className="w-full text-sm" aria-label={t('tableLabel')}>
          <thead className="border-b border-zinc-200 bg-zinc-50/80">
            <tr>
              <th scope="col" className="w-10 px-2 py-2 text-right text-xs font-medium text-zinc-400">
                #
              </th>
              {draft.columns.map((column, j) => {
                const problem = problems[j];

                return (
                  <th key={j} scope="col" className="px-1.5 py-2 text-left align-top font-normal">
                    <div className="flex items-center gap-1">
                      <Input
                        className={cn(smallInput, 'font-medium')}
                        aria-label={t('columnName', { number: j + 1 })}
                        aria-invalid={problem ? true : undefined}
                        value={column}
                        maxLength={255}
                        onChange={(e) => setDraft(renameColumn(draft, j, e.target.value))}
                        translate="no"
                      />
                      <Button
                        variant="ghost"
                        size="sm"
                        className="px-1.5"
                        aria-label={t('removeColumn', { name: column || String(j + 1) })}
                        title={t('removeColumn', { name: column || String(j + 1) })}
                        onClick={() => setDraft(removeColumn(draft, j))}
                      >
                        <XIcon className="size-3.5" />
                      </Button>
                    </div>
                    {problem ? <p className="mt-1 text-xs font-normal text-red-700">{t(`nameProblem.${problem}`)}</p> : null}
                  </th>
                );
              })}
              <th scope="col" className="w-10">
                <span className="sr-only">{t('actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {draft.rows.slice(first, first + ROWS_PER_PAGE).map((cells, k) => {
              const i = first + k;

              return (
                <tr key={i}>
                  <td className="px-2 py-1 text-right text-xs text-zinc-400 tabular-nums">{i + 1}</td>
                  {cells.map((value, j) => (
                    <td key={j} className="px-1.5 py-1">
                      <Input
                        className={cn(smallInput, typeof value === 'number' && 'text-right tabular-nums')}
                        aria-label={t('cell', { row: i + 1, column: draft.columns[j] || String(j + 1) })}
                        value={cellText(value)}
                        onChange={(e) => setDraft(setCell(draft, i, j, e.target.value))}
                        translate="no"
                      />
                    </td>
                  ))}
                  <td className="px-1 py-1">
                    <Button
                      variant="ghost"
                      size="sm"
                      className="px-1.5"
                      aria-label={t('removeRow', { row: i + 1 })}
                      title={t('removeRow', { row: i + 1 })}
                      onClick={() => setDraft(removeRow(draft, i))}
                    >
                      <XIcon className="size-3.5" />
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {draft.columns.length === 0 ? <p className="px-3 py-6 text-center text-sm text-zinc-500">{t('noColumns')}</p> : null}
        <Pager page={current} total={draft.rows.length} onPage={setPage} />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => setDraft(addColumn(draft, freeColumnName(draft.columns, t('columnBase'))))}>
          <PlusIcon className="size-3.5" />
          {t('addColumn')}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={draft.columns.length === 0}
          onClick={() => {
            setDraft(addRow(draft));
            // Show the new row: it is on the last page.
            setPage(Math.floor(draft.rows.length / ROWS_PER_PAGE));
          }}
        >
          <PlusIcon className="size-3.5" />
          {t('addRow')}
        </Button>
      </div>
      <SaveBar datasource={datasource} document={document} isDirty={draft !== initial} isValid={isValid} onClose={onClose} />
    </div>
  );
}

function KeyValueEditor({ datasource, base, onClose }: EditorProps) {
  const t = useTranslations('datasourceData.editor');
  const initial = useMemo(() => keyValueRowsOf(base), [base]);
  const [rows, setRows] = useState<KeyValueRow[]>(initial);
  const problems = keyValueProblems(rows);
  const isValid = problems.every((p) => p === undefined);
  const document = useCallback(() => keyValueDocumentOf(rows), [rows]);
  const jsonId = useId();
  const change = (index: number, patch: Partial<KeyValueRow>) => setRows(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));

  return (
    <div className="space-y-3">
      <p className="text-xs text-zinc-500">{t('keyValueHint')}</p>
      <div className="relative overflow-x-auto rounded-md ring-1 ring-zinc-200">
        <table className="w-full text-sm" aria-label={t('keyValueLabel')}>
          <thead className="border-b border-zinc-200 bg-zinc-50/80">
            <tr>
              <th scope="col" className="w-1/3 px-2 py-2 text-left text-xs font-medium text-zinc-500">
                {t('key')}
              </th>
              <th scope="col" className="px-2 py-2 text-left text-xs font-medium text-zinc-500">
                {t('value')}
              </th>
              <th scope="col" className="w-16 px-2 py-2 text-left text-xs font-medium text-zinc-500" id={jsonId}>
                {t('json')}
              </th>
              <th scope="col" className="w-10">
                <span className="sr-only">{t('actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {rows.map((row, i) => {
              const problem = problems[i];
              const keyProblem = problem === 'empty' || problem === 'duplicate' ? problem : undefined;

              return (
                <tr key={i} className="align-top">
                  <td className="px-1.5 py-1">
                    <Input
                      className={smallInput}
                      aria-label={t('keyOf', { number: i + 1 })}
                      aria-invalid={keyProblem ? true : undefined}
                      value={row.key}
                      onChange={(e) => change(i, { key: e.target.value })}
                      translate="no"
                    />
                    {keyProblem ? <p className="mt-1 text-xs text-red-700">{t(`nameProblem.${keyProblem}`)}</p> : null}
                  </td>
                  <td className="px-1.5 py-1">
                    <Input
                      className={cn(smallInput, row.isJson && 'font-mono text-xs')}
                      aria-label={t('valueOf', { key: row.key || String(i + 1) })}
                      aria-invalid={problem === 'json' ? true : undefined}
                      value={row.text}
                      onChange={(e) => change(i, { text: e.target.value })}
                      translate="no"
                    />
                    {problem === 'json' ? <p className="mt-1 text-xs text-red-700">{t('notJson')}</p> : null}
                  </td>
                  <td className="px-2 py-2.5">
                    <input
                      type="checkbox"
                      className="size-4 cursor-pointer accent-brand-600"
                      checked={row.isJson}
                      aria-label={t('jsonOf', { key: row.key || String(i + 1) })}
                      onChange={(e) => change(i, { isJson: e.target.checked })}
                    />
                  </td>
                  <td className="px-1 py-1">
                    <Button
                      variant="ghost"
                      size="sm"
                      className="px-1.5"
                      aria-label={t('removeEntry', { key: row.key || String(i + 1) })}
                      title={t('removeEntry', { key: row.key || String(i + 1) })}
                      onClick={() => setRows(rows.filter((_, k) => k !== i))}
                    >
                      <XIcon className="size-3.5" />
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {rows.length === 0 ? <p className="px-3 py-6 text-center text-sm text-zinc-500">{t('noEntries')}</p> : null}
      </div>
      <Button variant="secondary" size="sm" onClick={() => setRows([...rows, { key: '', text: '', isJson: false }])}>
        <PlusIcon className="size-3.5" />
        {t('addEntry')}
      </Button>
      <SaveBar datasource={datasource} document={document} isDirty={rows !== initial} isValid={isValid} onClose={onClose} />
    </div>
  );
}

function JsonEditor({ datasource, base, onClose }: EditorProps) {
  const t = useTranslations('datasourceData.editor');
  const initial = useMemo(() => JSON.stringify(base, null, 2) ?? 'null', [base]);
  const [text, setText] = useState(initial);
  const parsed = useMemo(() => parseJson(text), [text]);
  const document = useCallback(() => (parsed.ok ? parsed.value : undefined), [parsed]);
  const id = useId();

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-zinc-800">
          {t('jsonLabel')}
        </label>
        <Button
          variant="ghost"
          size="sm"
          disabled={!parsed.ok}
          onClick={() => parsed.ok && setText(JSON.stringify(parsed.value, null, 2) ?? 'null')}
        >
          {t('formatJson')}
        </Button>
      </div>
      <Textarea
        id={id}
        rows={Math.min(30, Math.max(10, text.split('\n').length + 1))}
        spellCheck={false}
        className="font-mono text-xs leading-5"
        value={text}
        aria-invalid={parsed.ok ? undefined : true}
        aria-describedby={parsed.ok ? undefined : `${id}-error`}
        onChange={(e) => setText(e.target.value)}
        translate="no"
      />
      {parsed.ok ? null : (
        <p id={`${id}-error`} className="text-sm text-red-700" role="status">
          {parsed.line !== undefined ? t('jsonErrorAt', { line: parsed.line, column: parsed.column ?? 1 }) : t('jsonError')}{' '}
          <span className="text-red-600/80" translate="no">
            {parsed.message}
          </span>
        </p>
      )}
      <SaveBar datasource={datasource} document={document} isDirty={text !== initial} isValid={parsed.ok} onClose={onClose} />
    </div>
  );
}
