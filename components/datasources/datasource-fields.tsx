'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useFieldArray, useWatch, type Path, type UseFormReturn } from 'react-hook-form';
import {
  choosesStructure,
  CHOSEN_STRUCTURES,
  createBodyOf,
  formIssues,
  FORM_EXTERNAL_TYPES,
  FORM_SYSTEM_TYPES,
  structureOf,
  type DatasourceFormValues,
} from '@/components/datasources/datasource-form';
import { documentLines, feedTitles } from '@/components/datasources/datasource-document';
import { FileFolderField } from '@/components/datasources/datasource-folder-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { fieldAria } from '@/components/ui/field';
import type { FormFields } from '@/components/ui/form-dialog';
import { XIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { TimeZoneOptions } from '@/components/ui/time-zone-options';
import { useTestDatasource, type DatasourceTestResult } from '@/lib/api/datasources';
import { useQuickFilters } from '@/lib/api/quick-filters';
import { cn } from '@/lib/cn';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel } from '@/lib/i18n/labels';
import { capSeverities, sourceTypes, type SourceType } from '@/server/modules/datasources/datasources.schemas';

/*
 * The parts of the datasource form: the kind chooser, each kind's settings (rows of headers and selectors, the
 * refresh), and "Test", which shows what a datasource with the form's settings would hold before it is saved.
 */

type Form = UseFormReturn<DatasourceFormValues, unknown, DatasourceFormValues>;

/** A field's message from the form's errors (nested rows included). */
function errorOf(form: Form, name: string): string | undefined {
  const error = name.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], form.formState.errors);

  return (error as { message?: string } | undefined)?.message;
}

/** Internal, external or system: three cards, one chosen (a new datasource only; the kind is fixed afterwards). */
export function KindChoice({ form }: { form: Form }) {
  const t = useTranslations('datasources.form');
  const label = useLabel();
  const name = useId();
  const value = useWatch({ control: form.control, name: 'sourceType' });

  return (
    <fieldset>
      <legend className="text-sm font-medium text-zinc-800">{t('kind')}</legend>
      <div className="mt-1.5 grid gap-2 sm:grid-cols-3">
        {sourceTypes.map((kind: SourceType) => (
          <label
            key={kind}
            className={cn(
              'flex cursor-pointer flex-col rounded-lg px-3 py-2.5 ring-1 ring-inset transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
              value === kind ? 'bg-brand-50 ring-brand-500' : 'ring-zinc-200 hover:bg-zinc-50',
            )}
          >
            <span className="flex items-center gap-2 text-sm font-medium text-zinc-900">
              {/* Named by the kind alone; the sentence under it describes it. */}
              <input
                type="radio"
                name={name}
                value={kind}
                checked={value === kind}
                onChange={() => form.setValue('sourceType', kind, { shouldDirty: true })}
                aria-labelledby={`${name}-${kind}`}
                aria-describedby={`${name}-${kind}-text`}
                className="accent-brand-600"
              />
              <span id={`${name}-${kind}`}>{label('datasourceSource', kind)}</span>
            </span>
            <span id={`${name}-${kind}-text`} className="mt-1 text-xs text-zinc-500">
              {t(`kinds.${kind}`)}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The kinds of a stored datasource, read-only: "External · RSS · Feed". */
export function FixedKind({
  values,
}: {
  values: Pick<DatasourceFormValues, 'sourceType' | 'type' | 'systemDatasourceType' | 'structureType'>;
}) {
  const t = useTranslations('datasources.form');
  const label = useLabel();
  const type = values.sourceType === 'EXTERNAL' ? values.type : values.sourceType === 'SYSTEM' ? values.systemDatasourceType : null;
  const parts = [
    label('datasourceSource', values.sourceType),
    type ? label('datasourceType', type) : null,
    label('datasourceStructure', values.structureType),
  ];

  return (
    <div className="rounded-md bg-zinc-50 px-3 py-2 text-sm ring-1 ring-zinc-200 ring-inset">
      <p className="font-medium text-zinc-800" data-testid="datasource-kind">
        {parts.filter(Boolean).join(' · ')}
      </p>
      <p className="mt-0.5 text-xs text-zinc-500">{t('fixedKind')}</p>
    </div>
  );
}

/** A row of inputs with its remove button; each input labelled by its column (visible in the first row only). */
function RowInput({
  form,
  name,
  label,
  showLabel,
  placeholder,
}: {
  form: Form;
  name: Path<DatasourceFormValues>;
  label: string;
  showLabel: boolean;
  placeholder?: string;
}) {
  const id = useId();
  const error = errorOf(form, name);

  return (
    <div className="min-w-0 flex-1 space-y-1">
      <label htmlFor={id} className={showLabel ? 'block text-xs font-medium text-zinc-600' : 'sr-only'}>
        {label}
      </label>
      <Input placeholder={placeholder} autoComplete="off" {...fieldAria(id, error)} {...form.register(name)} />
      {error ? (
        <p id={`${id}-error`} className="text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function RemoveRow({ label, onClick, first }: { label: string; onClick: () => void; first: boolean }) {
  return (
    <Button variant="ghost" size="sm" aria-label={label} title={label} onClick={onClick} className={cn('size-9 px-0', first && 'mt-5')}>
      <XIcon className="size-4" />
    </Button>
  );
}

/** Request headers as name/value rows (JSON and XML). */
function HeaderRows({ form }: { form: Form }) {
  const t = useTranslations('datasources.form');
  const rows = useFieldArray({ control: form.control, name: 'headers' });

  return (
    <div className="space-y-2">
      <p className="text-sm font-medium text-zinc-800">{t('headers')}</p>
      {rows.fields.map((row, i) => (
        <div key={row.id} className="flex items-start gap-2">
          <RowInput form={form} name={`headers.${i}.name`} label={t('headerName')} showLabel={i === 0} placeholder="Authorization" />
          <RowInput form={form} name={`headers.${i}.value`} label={t('headerValue')} showLabel={i === 0} />
          <RemoveRow label={t('removeHeader', { number: i + 1 })} onClick={() => rows.remove(i)} first={i === 0} />
        </div>
      ))}
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" size="sm" onClick={() => rows.append({ name: '', value: '' })}>
          {t('addHeader')}
        </Button>
        <p className="text-xs text-zinc-500">{t('headersHint')}</p>
      </div>
    </div>
  );
}

/** What a website datasource reads: a name, a CSS selector and an optional attribute per value. */
function SelectorRows({ form }: { form: Form }) {
  const t = useTranslations('datasources.form');
  const rows = useFieldArray({ control: form.control, name: 'selectors' });

  return (
    <div className="space-y-2">
      <p className="text-sm font-medium text-zinc-800">{t('selectors')}</p>
      {rows.fields.map((row, i) => (
        <div key={row.id} className="flex items-start gap-2">
          <RowInput form={form} name={`selectors.${i}.name`} label={t('selectorName')} showLabel={i === 0} placeholder="price" />
          <RowInput form={form} name={`selectors.${i}.selector`} label={t('selector')} showLabel={i === 0} placeholder=".price" />
          <RowInput
            form={form}
            name={`selectors.${i}.attribute`}
            label={t('attribute')}
            showLabel={i === 0}
            placeholder={t('attributePlaceholder')}
          />
          <RemoveRow label={t('removeSelector', { number: i + 1 })} onClick={() => rows.remove(i)} first={i === 0} />
        </div>
      ))}
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" size="sm" onClick={() => rows.append({ name: '', selector: '', attribute: '' })}>
          {t('addSelector')}
        </Button>
        <p className="text-xs text-zinc-500">{t('selectorsHint')}</p>
      </div>
    </div>
  );
}

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-3 rounded-md border border-zinc-200 p-3">
      <legend className="px-1 text-sm font-medium text-zinc-800">{legend}</legend>
      {children}
    </fieldset>
  );
}

/** Every N minutes, or at the times of a cron expression in a zone. */
function RefreshFields({ form, fields }: { form: Form; fields: FormFields<DatasourceFormValues> }) {
  const t = useTranslations('datasources.form');
  const mode = useWatch({ control: form.control, name: 'refreshMode' });
  const name = useId();

  return (
    <Group legend={t('refresh')}>
      <div className="flex flex-wrap gap-x-5 gap-y-2 text-sm text-zinc-800">
        {(['frequency', 'cron'] as const).map((choice) => (
          <label key={choice} className="flex cursor-pointer items-center gap-2">
            <input
              type="radio"
              name={name}
              checked={mode === choice}
              onChange={() => form.setValue('refreshMode', choice, { shouldDirty: true })}
              className="accent-brand-600"
            />
            {t(choice === 'frequency' ? 'refreshFrequency' : 'refreshCron')}
          </label>
        ))}
      </div>
      {mode === 'frequency' ? (
        <div className="max-w-56">
          {fields.text('refreshMinutes', { label: t('refreshMinutes'), inputMode: 'numeric', hint: t('refreshMinutesHint') })}
        </div>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          {fields.text('cronExpression', { label: t('cron'), placeholder: '0 6 * * 1-5', hint: t('cronHint') })}
          {fields.select('cronTimeZone', {
            label: t('cronTimeZone'),
            children: <TimeZoneOptions current={form.getValues('cronTimeZone')} />,
          })}
        </div>
      )}
    </Group>
  );
}

/** A FILE quick filter of the tenant, chosen in a select; says where to make one when there is none. */
function QuickFilterSelect({ fields }: { fields: FormFields<DatasourceFormValues> }) {
  const t = useTranslations('datasources.form');
  const filters = useQuickFilters('FILE');
  const content = filters.data?.content ?? [];

  return fields.select('quickFilterId', {
    label: t('quickFilter'),
    hint: filters.isSuccess && content.length === 0 ? t('noQuickFilters') : t('quickFilterHint'),
    children: (
      <>
        <option value="">{t('chooseQuickFilter')}</option>
        {content.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
      </>
    ),
  });
}

/** The settings of the form's kind; `isNew` offers the type and structure choices (fixed afterwards). */
export function KindSettings({ form, fields, isNew }: { form: Form; fields: FormFields<DatasourceFormValues>; isNew: boolean }) {
  const t = useTranslations('datasources.form');
  const label = useLabel();
  const [sourceType, type, systemType, structureType, method] = useWatch({
    control: form.control,
    name: ['sourceType', 'type', 'systemDatasourceType', 'structureType', 'method'],
  });
  const values = { sourceType, type, systemDatasourceType: systemType, structureType };
  const structureChoice = fields.select('structureType', {
    label: t('structure'),
    hint: t(`structureHints.${CHOSEN_STRUCTURES.find((s) => s === structureType) ?? 'CUSTOM'}`),
    children: CHOSEN_STRUCTURES.map((s) => (
      <option key={s} value={s}>
        {label('datasourceStructure', s)}
      </option>
    )),
  });

  if (sourceType === 'INTERNAL')
    return (
      <>
        {isNew ? structureChoice : null}
        {fields.checkbox('editableByDisplay', { label: t('editableByDisplay'), description: t('editableByDisplayHint') })}
      </>
    );

  if (sourceType === 'SYSTEM')
    return (
      <>
        {isNew
          ? fields.select('systemDatasourceType', {
              label: t('systemType'),
              hint: t(`systemTypeHints.${systemType}`),
              children: FORM_SYSTEM_TYPES.map((s) => (
                <option key={s} value={s}>
                  {label('datasourceType', s)}
                </option>
              )),
            })
          : null}
        {systemType === 'FILES' ? <QuickFilterSelect fields={fields} /> : null}
        <div className="max-w-56">
          {fields.text('maxElementCount', { label: t('maxElementCount'), inputMode: 'numeric', hint: t('maxElementCountHint') })}
        </div>
      </>
    );

  return (
    <>
      {isNew ? (
        <div className="grid gap-3 sm:grid-cols-2">
          {fields.select('type', {
            label: t('format'),
            children: FORM_EXTERNAL_TYPES.map((s) => (
              <option key={s} value={s}>
                {label('datasourceType', s)}
              </option>
            )),
          })}
          {choosesStructure(values) ? (
            structureChoice
          ) : (
            <div className="space-y-1.5">
              <p className="text-sm font-medium text-zinc-800">{t('structure')}</p>
              <p className="flex h-9 items-center text-sm text-zinc-700" data-testid="fixed-structure">
                {label('datasourceStructure', structureOf(values))}
              </p>
            </div>
          )}
        </div>
      ) : null}
      {fields.text('remoteUrl', { label: t('remoteUrl'), type: 'url', placeholder: 'https://', hint: t('remoteUrlHint') })}
      {type === 'JSON' || type === 'XML' ? (
        <Group legend={t('request')}>
          <div className="grid gap-3 sm:grid-cols-[8rem_1fr]">
            {fields.select('method', {
              label: t('method'),
              children: (['GET', 'POST'] as const).map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              )),
            })}
            {fields.text('jsonPath', { label: t('jsonPath'), placeholder: '$.items', hint: t('jsonPathHint') })}
          </div>
          <HeaderRows form={form} />
          {method === 'POST' ? fields.textarea('body', { label: t('body'), rows: 3 }) : null}
        </Group>
      ) : null}
      {type === 'RSS' ? (
        <div className="grid gap-3 sm:grid-cols-2">
          {fields.text('keepLastXDays', { label: t('keepLastXDays'), inputMode: 'numeric', hint: t('optional') })}
          {fields.text('keepLastXItem', { label: t('keepLastXItem'), inputMode: 'numeric', hint: t('optional') })}
        </div>
      ) : null}
      {type === 'ICAL' ? (
        <>
          {fields.select('timeZone', {
            label: t('timeZone'),
            hint: t('timeZoneHint'),
            children: <TimeZoneOptions current={form.getValues('timeZone')} />,
          })}
          <div className="grid gap-3 sm:grid-cols-2">
            {fields.text('dateFormat', { label: t('dateFormat'), placeholder: 'dd.MM.yyyy', hint: t('optional') })}
            {fields.text('timeFormat', { label: t('timeFormat'), placeholder: 'HH:mm', hint: t('optional') })}
          </div>
        </>
      ) : null}
      {type === 'CAP' ? (
        <div className="grid gap-3 sm:grid-cols-2">
          {fields.text('areaFilter', { label: t('areaFilter'), hint: t('areaFilterHint') })}
          {fields.select('minimumSeverity', {
            label: t('minimumSeverity'),
            children: (
              <>
                <option value="">{t('anySeverity')}</option>
                {capSeverities.map((s) => (
                  <option key={s} value={s}>
                    {label('capSeverity', s)}
                  </option>
                ))}
              </>
            ),
          })}
        </div>
      ) : null}
      {type === 'WEBSITE_CONTENT' ? <SelectorRows form={form} /> : null}
      {type === 'FILE_FROM_URL' ? <FileFolderField form={form} /> : null}
      <RefreshFields form={form} fields={fields} />
    </>
  );
}

/** Lines shown before "Show all": a long document stays readable in the dialog. */
const COLLAPSED_LINES = 200;
const FEED_TITLES = 5;

function TestDocument({ document, isFeed }: { document: unknown; isFeed: boolean }) {
  const t = useTranslations('datasources.form.test');
  const [isExpanded, setIsExpanded] = useState(false);
  const lines = documentLines(document);
  const shown = isExpanded ? lines : lines.slice(0, COLLAPSED_LINES);
  const titles = isFeed ? feedTitles(document, FEED_TITLES) : null;

  return (
    <div className="space-y-2" data-testid="datasource-test-result">
      <p className="text-sm font-medium text-emerald-800">{t('ok')}</p>
      {titles ? (
        <div className="rounded-md bg-zinc-50 px-3 py-2 ring-1 ring-zinc-200 ring-inset">
          <p className="text-xs font-medium text-zinc-600">{t('firstItems', { count: titles.total })}</p>
          {titles.titles.length ? (
            <ol className="mt-1 list-decimal space-y-0.5 pl-5 text-sm text-zinc-800" translate="no">
              {titles.titles.map((title, i) => (
                <li key={i}>{title ?? t('untitled')}</li>
              ))}
            </ol>
          ) : (
            <p className="mt-1 text-sm text-zinc-500">{t('noItems')}</p>
          )}
        </div>
      ) : null}
      <pre
        className="max-h-72 overflow-auto rounded-md bg-zinc-900 px-3 py-2 font-mono text-xs leading-relaxed text-zinc-100"
        translate="no"
      >
        {shown.join('\n')}
      </pre>
      {lines.length > COLLAPSED_LINES ? (
        <Button variant="ghost" size="sm" onClick={() => setIsExpanded(!isExpanded)}>
          {isExpanded ? t('showLess') : t('showAll', { count: lines.length })}
        </Button>
      ) : null}
    </div>
  );
}

/**
 * "Test": checks the form like a save would (the name may still be empty), then asks the server what a datasource
 * with these settings would hold now. A fetch or parse failure is the answer's `error`, shown as the reason.
 */
export function TestPanel({ form }: { form: Form }) {
  const t = useTranslations('datasources.form.test');
  const errorMessage = useErrorMessage();
  const test = useTestDatasource();
  const [result, setResult] = useState<{ answer: DatasourceTestResult; isFeed: boolean } | { failure: string } | null>(null);
  const [sourceType, type, systemType] = useWatch({ control: form.control, name: ['sourceType', 'type', 'systemDatasourceType'] });
  // A result is about the kind it was made for.
  useEffect(() => setResult(null), [sourceType, type, systemType]);

  const run = async () => {
    const values = { ...form.getValues(), name: form.getValues('name').trim() || 'test' };
    const issues = formIssues(values);
    if (issues.length) {
      await form.trigger(
        issues.map((issue) => issue.field as Path<DatasourceFormValues>),
        { shouldFocus: true },
      );

      return;
    }
    // Fixed since the last try: the marks of that try go.
    form.clearErrors();
    setResult(null);
    try {
      const body = createBodyOf(values);
      setResult({ answer: await test.mutateAsync(body), isFeed: body.structureType === 'FEED' });
    } catch (error) {
      setResult({ failure: errorMessage(error) });
    }
  };

  return (
    <div className="space-y-3 rounded-md bg-zinc-50/60 p-3 ring-1 ring-zinc-200 ring-inset">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" size="sm" onClick={() => void run()} disabled={test.isPending}>
          {test.isPending ? <Spinner /> : null}
          {test.isPending ? t('running') : t('button')}
        </Button>
        <p className="min-w-0 flex-1 text-xs text-zinc-500">{t('hint')}</p>
      </div>
      {result && 'failure' in result ? <Alert>{result.failure}</Alert> : null}
      {result && 'answer' in result ? (
        result.answer.ok ? (
          <TestDocument document={result.answer.document} isFeed={result.isFeed} />
        ) : (
          <Alert title={t('failed')}>
            <span translate="no" data-testid="datasource-test-error">
              {result.answer.error}
            </span>
          </Alert>
        )
      ) : null}
    </div>
  );
}
