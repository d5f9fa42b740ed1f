'use client';

import { useTranslations } from 'next-intl';
import { areColumnsValid, columnsOf, currencyOf, nextFormat } from '@/components/content/slide-editor/datasource-settings';
import { CheckField, ChoiceField, ColorField, NumberField, TextField } from '@/components/content/slide-editor/property-fields';
import type { WidgetPatch } from '@/components/content/slide-editor/widget-properties';
import { DataPeek } from '@/components/datasources/detail/data-peek';
import type { DatasourceFeed } from '@/lib/player/render';
import {
  DATASOURCE_FORMAT_KINDS,
  DATASOURCE_MODES,
  type DatasourceFormatKind,
  type DatasourceWidget,
} from '@/server/modules/content/content-data.schemas';

/** A datasource the widget may show (the tenant's, listed by the caller). */
export type DatasourceChoice = { id: string; name: string; structureType: string };

const STRUCTURES = ['KEY_VALUE', 'LIST', 'TABLE', 'FEED', 'CUSTOM', 'WAY_FINDING'] as const;
const isStructure = (type: string): type is (typeof STRUCTURES)[number] => (STRUCTURES as readonly string[]).includes(type);
const NUMERIC: readonly DatasourceFormatKind[] = ['number', 'currency', 'percent'];

/**
 * What a datasource widget shows: the datasource, the mode, and per mode only its own settings (a value's field and
 * format; a table's columns, paging and header; a list's timing and parts; a ticker's speed); the placeholder for
 * when there is no data.
 */
export function DatasourceProperties({
  widget,
  choices,
  feed,
  onPatch,
  g,
}: {
  widget: DatasourceWidget;
  choices: readonly DatasourceChoice[];
  /** The datasources' current data: a peek at the chosen one's shows under the select. */
  feed?: DatasourceFeed;
  onPatch: WidgetPatch;
  g: (field: string) => string;
}) {
  const t = useTranslations('slideEditor.widget');
  // A structure type this console does not name yet shows as it is.
  const structure = (type: string) => (isStructure(type) ? t(`datasource.structures.${type}`) : type);
  const chosen = choices.find((c) => c.id === widget.datasourceId);
  const known = chosen !== undefined;
  const sources: (readonly [string, string])[] = [
    ['', t('datasource.none')],
    ...choices.map((c) => [c.id, `${c.name} · ${structure(c.structureType)}`] as const),
    ...(widget.datasourceId && !known ? [[widget.datasourceId, t('datasource.unknown', { id: widget.datasourceId })] as const] : []),
  ];
  const format = widget.format ?? { kind: 'text' as const };
  const patchFormat = (patch: Partial<NonNullable<DatasourceWidget['format']>>, group: string) =>
    onPatch({ format: nextFormat(widget.format, patch) }, g(group));
  const header = widget.headerStyle;

  return (
    <>
      <ChoiceField
        label={t('datasource.source')}
        value={widget.datasourceId ?? ''}
        choices={sources}
        onChange={(v) => onPatch({ datasourceId: v || undefined }, g('datasource'))}
      />
      {choices.length === 0 ? <p className="text-xs text-zinc-500">{t('datasource.noneAvailable')}</p> : null}
      {feed && widget.datasourceId ? (
        <DataPeek key={widget.datasourceId} feed={feed} datasourceId={widget.datasourceId} structureType={chosen?.structureType} />
      ) : null}
      <ChoiceField
        label={t('shows')}
        value={widget.mode}
        choices={DATASOURCE_MODES.map((mode) => [mode, t(`modes.${mode}`)] as const)}
        onChange={(v) => onPatch({ mode: v }, g('mode'))}
      />
      {widget.mode === 'text' || widget.mode === 'ticker' ? (
        <TextField
          label={widget.mode === 'text' ? t('field') : t('datasource.tickerField')}
          value={widget.field ?? ''}
          maxLength={255}
          placeholder={t('fieldPlaceholder')}
          onChange={(v) => onPatch({ field: v.trim() || undefined }, g('field'))}
        />
      ) : null}
      {widget.mode === 'text' ? (
        <>
          <ChoiceField
            label={t('datasource.format')}
            value={format.kind}
            choices={DATASOURCE_FORMAT_KINDS.map((kind) => [kind, t(`datasource.formats.${kind}`)] as const)}
            onChange={(kind) => patchFormat({ kind }, 'formatKind')}
          />
          {NUMERIC.includes(format.kind) ? (
            <div className="grid grid-cols-2 gap-2">
              <NumberField
                label={t('datasource.decimals')}
                optional
                value={format.decimals}
                min={0}
                max={6}
                onChange={(decimals) => patchFormat({ decimals }, 'decimals')}
              />
              {format.kind === 'currency' ? (
                <TextField
                  label={t('datasource.currency')}
                  value={format.currency ?? ''}
                  maxLength={3}
                  placeholder="EUR"
                  validate={(v) => (v.trim() === '' || currencyOf(v) ? null : t('datasource.currencyProblem'))}
                  onChange={(v) => patchFormat({ currency: currencyOf(v) }, 'currency')}
                />
              ) : null}
            </div>
          ) : null}
          <div className="grid grid-cols-2 gap-2">
            <TextField
              label={t('datasource.prefix')}
              value={format.prefix ?? ''}
              maxLength={50}
              onChange={(v) => patchFormat({ prefix: v || undefined }, 'prefix')}
            />
            <TextField
              label={t('datasource.suffix')}
              value={format.suffix ?? ''}
              maxLength={50}
              onChange={(v) => patchFormat({ suffix: v || undefined }, 'suffix')}
            />
          </div>
        </>
      ) : null}
      {widget.mode === 'table' ? (
        <>
          <TextField
            label={t('datasource.columns')}
            value={(widget.columns ?? []).join(', ')}
            maxLength={13_000}
            validate={(v) => (areColumnsValid(v) ? null : t('datasource.columnsProblem'))}
            onChange={(v) => onPatch({ columns: columnsOf(v) }, g('columns'))}
          />
          <div className="grid grid-cols-2 gap-2">
            <NumberField
              label={t('datasource.rowsPerPage')}
              optional
              value={widget.rowsPerPage}
              min={1}
              max={100}
              onChange={(v) => onPatch({ rowsPerPage: v }, g('rowsPerPage'))}
            />
            <NumberField
              label={t('datasource.pageSeconds')}
              optional
              value={widget.pageSeconds}
              min={2}
              max={600}
              onChange={(v) => onPatch({ pageSeconds: v }, g('pageSeconds'))}
            />
            <NumberField
              label={t('datasource.headerSize')}
              optional
              value={header?.fontSize}
              min={4}
              max={2000}
              onChange={(v) => onPatch({ headerStyle: { ...header, fontSize: v } }, g('headerSize'))}
            />
            <ColorField
              label={t('datasource.headerColour')}
              optional
              value={header?.color}
              onChange={(v) => onPatch({ headerStyle: { ...header, color: v } }, g('headerColour'))}
            />
          </div>
          <CheckField
            label={t('datasource.headerBold')}
            checked={header?.fontWeight !== 'normal'}
            onChange={(c) => onPatch({ headerStyle: { ...header, fontWeight: c ? undefined : 'normal' } }, g('headerBold'))}
          />
        </>
      ) : null}
      {widget.mode === 'list' ? (
        <>
          <div className="grid grid-cols-2 gap-2">
            <NumberField
              label={t('datasource.itemSeconds')}
              optional
              value={widget.itemSeconds}
              min={2}
              max={600}
              onChange={(v) => onPatch({ itemSeconds: v }, g('itemSeconds'))}
            />
            <MaxItems widget={widget} onPatch={onPatch} g={g} />
          </div>
          <div className="flex flex-wrap gap-4">
            <CheckField
              label={t('datasource.showTitle')}
              checked={widget.showTitle !== false}
              onChange={(c) => onPatch({ showTitle: c ? undefined : false }, g('showTitle'))}
            />
            <CheckField
              label={t('datasource.showSummary')}
              checked={widget.showSummary !== false}
              onChange={(c) => onPatch({ showSummary: c ? undefined : false }, g('showSummary'))}
            />
            <CheckField
              label={t('datasource.showImage')}
              checked={widget.showImage !== false}
              onChange={(c) => onPatch({ showImage: c ? undefined : false }, g('showImage'))}
            />
          </div>
        </>
      ) : null}
      {widget.mode === 'ticker' ? (
        <div className="grid grid-cols-2 gap-2">
          <NumberField
            label={t('tickerSpeed')}
            value={widget.marqueeSpeed ?? 120}
            min={10}
            max={2000}
            onChange={(v) => v !== undefined && onPatch({ marqueeSpeed: v }, g('speed'))}
          />
          <MaxItems widget={widget} onPatch={onPatch} g={g} />
        </div>
      ) : null}
      {widget.mode === 'calendar' ? <p className="text-xs text-zinc-500">{t('datasource.calendarHint')}</p> : null}
      <TextField
        label={t('placeholder')}
        value={widget.placeholder ?? ''}
        maxLength={2000}
        onChange={(v) => onPatch({ placeholder: v || undefined }, g('placeholder'))}
      />
    </>
  );
}

function MaxItems({ widget, onPatch, g }: { widget: DatasourceWidget; onPatch: WidgetPatch; g: (field: string) => string }) {
  const t = useTranslations('slideEditor.widget');

  return (
    <NumberField
      label={t('datasource.maxItems')}
      optional
      value={widget.maxItems}
      min={1}
      max={100}
      onChange={(v) => onPatch({ maxItems: v }, g('maxItems'))}
    />
  );
}
