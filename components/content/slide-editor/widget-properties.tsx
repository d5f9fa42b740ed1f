'use client';

import { useTranslations } from 'next-intl';
import { Button } from '@/components/ui/button';
import { CopyIcon, TrashIcon } from '@/components/ui/icons';
import { DatasourceProperties, type DatasourceChoice } from '@/components/content/slide-editor/datasource-properties';
import { CheckField, ChoiceField, ColorField, NumberField, Section, TextField } from '@/components/content/slide-editor/property-fields';
import type { SourceKind } from '@/components/content/slide-editor/source-chooser';
import { contentResource } from '@/lib/api/content';
import { fileResource } from '@/lib/api/files';
import type { PageNameProblem } from '@/lib/slide-editor/document';
import type { Rect, ZMove } from '@/lib/slide-editor/geometry';
import type { DatasourceFeed } from '@/lib/player/render';
import { useLabel, type Label } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import { widgetLabel } from '@/lib/slide-editor/widgets';
import { FIT_MODES, type Page, type Widget } from '@/server/modules/content/content-data.schemas';
import { timeZoneChoices } from '@/lib/time-zones';

/** A change of the selected widget; `group` makes typing in one field one undo step. */
export type WidgetPatch = (patch: Partial<Widget>, group: string) => void;

const fits = (label: Label) => FIT_MODES.map((f) => [f, label('fit', f)] as const);
const ALIGN = ['left', 'center', 'right'] as const;
const VALIGN = ['top', 'middle', 'bottom'] as const;
const CLOCK_FORMATS = [
  ['HH:mm', '14:05'],
  ['HH:mm:ss', '14:05:09'],
  ['h:mm a', '2:05 pm'],
] as const;
const TAG = /^[^,]{1,255}$/;

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);

    return (url.protocol === 'http:' || url.protocol === 'https:') && value.length <= 2048;
  } catch {
    return false;
  }
};

/** The properties of one widget: what it shows, its text style, box, look, tap action and stacking. */
export function WidgetProperties({
  widget,
  pages,
  interactive,
  readOnly,
  onPatch,
  onBox,
  onReorder,
  onDuplicate,
  onDelete,
  onChooseSource,
  datasourceChoices = [],
  datasourceFeed,
}: {
  widget: Widget;
  pages: readonly Page[];
  interactive: boolean;
  readOnly: boolean;
  onPatch: WidgetPatch;
  onBox: (rect: Rect, group: string) => void;
  onReorder: (move: ZMove) => void;
  onDuplicate: () => void;
  onDelete: () => void;
  onChooseSource: (kind: SourceKind) => void;
  /** The datasources a datasource widget may show (none: it can only show its placeholder). */
  datasourceChoices?: readonly DatasourceChoice[];
  /** Their current data: a datasource widget's panel shows what the chosen one holds. */
  datasourceFeed?: DatasourceFeed;
}) {
  const t = useTranslations('slideEditor');
  const label = useLabel();
  const g = (field: string) => `prop:${widget.id}:${field}`;
  const box = { x: widget.x, y: widget.y, width: widget.width, height: widget.height };
  const name = widgetLabel(widget, label, t);

  return (
    <div className="space-y-4" aria-label={t('widget.properties', { name })} role="group">
      <div className="flex items-center justify-between gap-2">
        <h2 className="truncate text-sm font-semibold text-zinc-900">{name}</h2>
        <span className="shrink-0 rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-600">{label('widgetType', widget.type)}</span>
      </div>
      <fieldset disabled={readOnly} className="space-y-4">
        <Section title={t('widget.sections.content')}>
          <Content
            widget={widget}
            readOnly={readOnly}
            onPatch={onPatch}
            onChooseSource={onChooseSource}
            datasourceChoices={datasourceChoices}
            datasourceFeed={datasourceFeed}
            g={g}
            t={t}
            label={label}
          />
        </Section>
        {widget.type === 'text' || widget.type === 'clock' || widget.type === 'datasource' ? (
          <Section title={t('widget.sections.textStyle')}>
            <div className="grid grid-cols-2 gap-2">
              <NumberField
                label={t('widget.fontSize')}
                value={widget.textStyle?.fontSize ?? 48}
                min={4}
                max={2000}
                onChange={(v) => v !== undefined && onPatch({ textStyle: { ...widget.textStyle, fontSize: v } }, g('fontSize'))}
              />
              <ColorField
                label={t('widget.colour')}
                value={widget.textStyle?.color ?? '#ffffff'}
                onChange={(v) => onPatch({ textStyle: { ...widget.textStyle, color: v } }, g('color'))}
              />
              <ChoiceField
                label={t('widget.align')}
                value={widget.textStyle?.align ?? 'left'}
                choices={ALIGN.map((a) => [a, t(`widget.aligns.${a}`)] as const)}
                onChange={(v) => onPatch({ textStyle: { ...widget.textStyle, align: v } }, g('align'))}
              />
              <ChoiceField
                label={t('widget.vertical')}
                value={widget.textStyle?.verticalAlign ?? 'top'}
                choices={VALIGN.map((a) => [a, t(`widget.valigns.${a}`)] as const)}
                onChange={(v) => onPatch({ textStyle: { ...widget.textStyle, verticalAlign: v } }, g('valign'))}
              />
            </div>
            <div className="flex gap-4">
              <CheckField
                label={t('widget.bold')}
                checked={widget.textStyle?.fontWeight === 'bold'}
                onChange={(c) => onPatch({ textStyle: { ...widget.textStyle, fontWeight: c ? 'bold' : 'normal' } }, g('bold'))}
              />
              <CheckField
                label={t('widget.italic')}
                checked={widget.textStyle?.italic === true}
                onChange={(c) => onPatch({ textStyle: { ...widget.textStyle, italic: c } }, g('italic'))}
              />
            </div>
          </Section>
        ) : null}
        <Section title={t('widget.sections.position')}>
          <div className="grid grid-cols-2 gap-2">
            <NumberField
              label={t('widget.x')}
              value={widget.x}
              min={-16384}
              max={16384}
              onChange={(v) => v !== undefined && onBox({ ...box, x: v }, g('x'))}
            />
            <NumberField
              label={t('widget.y')}
              value={widget.y}
              min={-16384}
              max={16384}
              onChange={(v) => v !== undefined && onBox({ ...box, y: v }, g('y'))}
            />
            <NumberField
              label={t('widget.width')}
              value={widget.width}
              min={1}
              max={32768}
              onChange={(v) => v !== undefined && onBox({ ...box, width: v }, g('width'))}
            />
            <NumberField
              label={t('widget.height')}
              value={widget.height}
              min={1}
              max={32768}
              onChange={(v) => v !== undefined && onBox({ ...box, height: v }, g('height'))}
            />
            <NumberField
              label={t('widget.rotation')}
              value={widget.rotation ?? 0}
              min={-360}
              max={360}
              onChange={(v) => v !== undefined && onPatch({ rotation: v || undefined }, g('rotation'))}
            />
          </div>
        </Section>
        <Section title={t('widget.sections.look')}>
          <div className="grid grid-cols-2 gap-2">
            <ColorField
              label={t('widget.background')}
              optional
              value={widget.style?.backgroundColor}
              onChange={(v) => onPatch({ style: { ...widget.style, backgroundColor: v } }, g('bg'))}
            />
            <NumberField
              label={t('widget.opacity')}
              value={Math.round((widget.style?.opacity ?? 1) * 100)}
              min={0}
              max={100}
              onChange={(v) =>
                v !== undefined && onPatch({ style: { ...widget.style, opacity: v === 100 ? undefined : v / 100 } }, g('opacity'))
              }
            />
            <NumberField
              label={t('widget.radius')}
              value={widget.style?.borderRadius ?? 0}
              min={0}
              max={10000}
              onChange={(v) => onPatch({ style: { ...widget.style, borderRadius: v || undefined } }, g('radius'))}
            />
            <NumberField
              label={t('widget.padding')}
              value={widget.style?.padding ?? 0}
              min={0}
              max={10000}
              onChange={(v) => onPatch({ style: { ...widget.style, padding: v || undefined } }, g('padding'))}
            />
          </div>
        </Section>
        {interactive ? (
          <Section title={t('widget.sections.tapped')}>
            <ChoiceField
              label={t('widget.action')}
              value={widget.action?.page ?? ''}
              choices={[['', t('widget.nothing')], ...pages.map((p) => [p.name, t('widget.goToPage', { name: p.name })] as const)]}
              onChange={(v) => onPatch({ action: v ? { type: 'GO_TO_PAGE', page: v } : undefined }, g('action'))}
            />
          </Section>
        ) : null}
        <Section title={t('widget.sections.arrange')}>
          <div className="grid grid-cols-2 gap-2">
            <Button variant="secondary" size="sm" onClick={() => onReorder('front')} aria-keyshortcuts="Control+]">
              {t('widget.toFront')}
            </Button>
            <Button variant="secondary" size="sm" onClick={() => onReorder('back')} aria-keyshortcuts="Control+[">
              {t('widget.toBack')}
            </Button>
            <Button variant="secondary" size="sm" onClick={() => onReorder('forward')} aria-keyshortcuts="]">
              {t('widget.forward')}
            </Button>
            <Button variant="secondary" size="sm" onClick={() => onReorder('backward')} aria-keyshortcuts="[">
              {t('widget.backward')}
            </Button>
          </div>
          <TextField
            label={t('widget.editorName')}
            value={widget.name ?? ''}
            maxLength={255}
            placeholder={label('widgetType', widget.type)}
            onChange={(v) => onPatch({ name: v.trim() ? v : undefined }, g('name'))}
          />
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" onClick={onDuplicate} aria-keyshortcuts="Control+D">
              <CopyIcon className="size-4" />
              {t('widget.duplicate')}
            </Button>
            <Button variant="secondary" size="sm" className="text-red-700" onClick={onDelete} aria-keyshortcuts="Delete">
              <TrashIcon className="size-4" />
              {t('widget.delete')}
            </Button>
          </div>
        </Section>
      </fieldset>
    </div>
  );
}

function Content({
  widget,
  readOnly,
  onPatch,
  onChooseSource,
  datasourceChoices,
  datasourceFeed,
  g,
  t,
  label,
}: {
  widget: Widget;
  readOnly: boolean;
  onPatch: WidgetPatch;
  onChooseSource: (kind: SourceKind) => void;
  datasourceChoices: readonly DatasourceChoice[];
  datasourceFeed: DatasourceFeed | undefined;
  g: (field: string) => string;
  t: Translate<'slideEditor'>;
  label: Label;
}) {
  switch (widget.type) {
    case 'text':
      return (
        <>
          <TextField
            label={t('widget.text')}
            multiline
            value={widget.text}
            maxLength={20000}
            onChange={(v) => onPatch({ text: v }, g('text'))}
          />
          <CheckField
            label={t('widget.ticker')}
            checked={widget.marquee === true}
            onChange={(c) => onPatch({ marquee: c || undefined }, g('marquee'))}
          />
          {widget.marquee ? (
            <NumberField
              label={t('widget.tickerSpeed')}
              value={widget.marqueeSpeed ?? 120}
              min={10}
              max={2000}
              onChange={(v) => v !== undefined && onPatch({ marqueeSpeed: v }, g('speed'))}
            />
          ) : null}
        </>
      );
    case 'image':
    case 'video':
      return (
        <>
          <SourceRow
            label={label('widgetType', widget.type)}
            name={<FileName id={widget.fileId} />}
            readOnly={readOnly}
            onChange={() => onChooseSource(widget.type as 'image' | 'video')}
          />
          <ChoiceField
            label={t('widget.fit')}
            value={widget.fit ?? 'contain'}
            choices={fits(label)}
            onChange={(v) => onPatch({ fit: v }, g('fit'))}
          />
          {widget.type === 'video' ? (
            <div className="flex gap-4">
              <CheckField label={t('widget.muted')} checked={widget.muted !== false} onChange={(c) => onPatch({ muted: c }, g('muted'))} />
              <CheckField label={t('widget.repeat')} checked={widget.loop !== false} onChange={(c) => onPatch({ loop: c }, g('loop'))} />
            </div>
          ) : null}
        </>
      );
    case 'webPage':
      return (
        <>
          <TextField
            label={t('widget.address')}
            value={widget.url}
            maxLength={2048}
            validate={(v) => (isHttpUrl(v) ? null : t('widget.addressProblem'))}
            onChange={(v) => onPatch({ url: v }, g('url'))}
          />
          <NumberField
            label={t('widget.reload')}
            optional
            value={widget.refreshSeconds}
            min={10}
            max={86400}
            onChange={(v) => onPatch({ refreshSeconds: v }, g('refresh'))}
          />
        </>
      );
    case 'clock':
      return (
        <>
          <ChoiceField
            label={t('widget.format')}
            value={widget.format ?? 'HH:mm'}
            choices={CLOCK_FORMATS}
            onChange={(v) => onPatch({ format: v }, g('format'))}
          />
          <CheckField
            label={t('widget.showDate')}
            checked={widget.showDate === true}
            onChange={(c) => onPatch({ showDate: c || undefined }, g('date'))}
          />
          <ChoiceField
            label={t('widget.timeZone')}
            value={widget.timeZone ?? ''}
            choices={[['', t('widget.screenZone')], ...timeZoneChoices()]}
            onChange={(v) => onPatch({ timeZone: v || undefined }, g('zone'))}
          />
        </>
      );
    case 'channel':
      return (
        <TextField
          label={t('widget.channelTags')}
          value={widget.tags.join(', ')}
          maxLength={4000}
          validate={(v) =>
            tagsOf(v).length === 0
              ? t('widget.atLeastOneTag')
              : tagsOf(v).length > 50 || !tagsOf(v).every((tag) => TAG.test(tag))
                ? t('widget.tooManyTags')
                : null
          }
          onChange={(v) => onPatch({ tags: tagsOf(v) }, g('tags'))}
        />
      );
    case 'playlist':
      return (
        <SourceRow
          label={label('widgetType', 'playlist')}
          name={<ContentName id={widget.simpleLoopId} />}
          readOnly={readOnly}
          onChange={() => onChooseSource('playlist')}
        />
      );
    case 'content':
      return <SourceRow label={label('contentType', 'SLIDE')} name={<ContentName id={widget.contentId} />} readOnly />;
    case 'datasource':
      return <DatasourceProperties widget={widget} choices={datasourceChoices} feed={datasourceFeed} onPatch={onPatch} g={g} />;
  }
}

const tagsOf = (v: string) =>
  v
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

function SourceRow({
  label,
  name,
  readOnly,
  onChange,
}: {
  label: string;
  name: React.ReactNode;
  readOnly: boolean;
  onChange?: () => void;
}) {
  const t = useTranslations('slideEditor.widget');

  return (
    <div className="space-y-1">
      <span className="block text-xs font-medium text-zinc-600">{label}</span>
      <div className="flex items-center gap-2">
        <span className="min-w-0 flex-1 truncate text-sm text-zinc-800">{name}</span>
        {readOnly || !onChange ? null : (
          <Button variant="secondary" size="sm" onClick={onChange}>
            {t('change')}
          </Button>
        )}
      </div>
    </div>
  );
}

function FileName({ id }: { id: string }) {
  const file = fileResource.useDetail(id || null, { select: 'name' });
  const t = useTranslations('slideEditor.widget');

  return <>{!id ? t('noneChosen') : file.isError ? t('missingFile') : (file.data?.name ?? '…')}</>;
}

function ContentName({ id }: { id: string }) {
  const item = contentResource.useDetail(id || null, { select: 'name' });
  const t = useTranslations('slideEditor.widget');

  return <>{!id ? t('noneChosen') : item.isError ? t('missingItem') : (item.data?.name ?? '…')}</>;
}

/** The page's own properties: its name, background and duration, and the screen size of every page. */
export function PageProperties({
  page,
  nameProblem,
  interactive,
  readOnly,
  onPatch,
  onScreenSize,
  onChooseBackground,
}: {
  page: Page;
  /** Why the page cannot have a name (taken by another page, a whole number), or null. */
  nameProblem: (name: string) => PageNameProblem | null;
  interactive: boolean;
  readOnly: boolean;
  onPatch: (patch: Partial<Page>, group: string) => void;
  onScreenSize: (size: { width: number; height: number }) => void;
  onChooseBackground: () => void;
}) {
  const t = useTranslations('slideEditor.page');
  const label = useLabel();
  const { width, height } = page.pageData.screenSize;
  const style = page.pageStyle ?? {};
  const preset = SCREEN_SIZES.find((size) => size === `${width}x${height}`);

  return (
    <div className="space-y-4" role="group" aria-label={t('properties')}>
      <h2 className="text-sm font-semibold text-zinc-900">{interactive ? t('titleInteractive', { name: page.name }) : t('titleSlide')}</h2>
      <p className="text-xs text-zinc-500">{t('hint')}</p>
      <fieldset disabled={readOnly} className="space-y-4">
        <Section title={t('screen')}>
          <ChoiceField
            label={t('size')}
            value={preset ?? 'custom'}
            choices={[...SCREEN_SIZES.map((size) => [size, t(`sizes.${size}`)] as const), ['custom', t('custom')]]}
            onChange={(v) => {
              if (v === 'custom') return;
              const [w, h] = v.split('x').map(Number) as [number, number];
              onScreenSize({ width: w, height: h });
            }}
          />
          <div className="grid grid-cols-2 gap-2">
            <NumberField
              label={t('widthPx')}
              live={false}
              value={width}
              min={1}
              max={16384}
              onChange={(v) => v !== undefined && onScreenSize({ width: v, height })}
            />
            <NumberField
              label={t('heightPx')}
              live={false}
              value={height}
              min={1}
              max={16384}
              onChange={(v) => v !== undefined && onScreenSize({ width, height: v })}
            />
          </div>
        </Section>
        <Section title={t('background')}>
          <ColorField
            label={t('colour')}
            value={style.backgroundColor ?? '#000000'}
            onChange={(v) => onPatch({ pageStyle: { ...style, backgroundColor: v } }, 'page:bg')}
          />
          <SourceRow
            label={t('image')}
            name={style.backgroundFileId ? <FileName id={style.backgroundFileId} /> : t('none')}
            readOnly={readOnly}
            onChange={onChooseBackground}
          />
          {style.backgroundFileId ? (
            <div className="flex items-end gap-2">
              <ChoiceField
                className="flex-1"
                label={t('imageFit')}
                value={style.backgroundFit ?? 'cover'}
                choices={fits(label)}
                onChange={(v) => onPatch({ pageStyle: { ...style, backgroundFit: v } }, 'page:fit')}
              />
              <Button
                variant="ghost"
                size="sm"
                onClick={() => onPatch({ pageStyle: { ...style, backgroundFileId: undefined, backgroundFit: undefined } }, 'page:bgfile')}
              >
                {t('removeImage')}
              </Button>
            </div>
          ) : null}
        </Section>
        <Section title={t('timing')}>
          <NumberField
            label={t('duration')}
            optional
            integer={false}
            step={0.5}
            value={page.pageData.durationMs === undefined ? undefined : page.pageData.durationMs / 1000}
            min={0.1}
            max={86400}
            onChange={(v) =>
              onPatch({ pageData: { ...page.pageData, durationMs: v === undefined ? undefined : Math.round(v * 1000) } }, 'page:duration')
            }
          />
        </Section>
        {interactive ? (
          <Section title={t('page')}>
            <TextField
              label={t('pageName')}
              value={page.name}
              maxLength={255}
              validate={(v) => {
                const problem = nameProblem(v.trim());

                return problem && t(`nameProblem.${problem}`);
              }}
              onChange={(v) => onPatch({ name: v.trim() }, 'page:name')}
            />
          </Section>
        ) : null}
      </fieldset>
    </div>
  );
}

/** Common screens: landscape and portrait full HD and 4K, HD (named in `slideEditor.page.sizes`). */
const SCREEN_SIZES = ['1920x1080', '1080x1920', '3840x2160', '2160x3840', '1280x720'] as const;
