'use client';

import { Button } from '@/components/ui/button';
import { CopyIcon, TrashIcon } from '@/components/ui/icons';
import { CheckField, ChoiceField, ColorField, NumberField, Section, TextField } from '@/components/content/slide-editor/property-fields';
import type { SourceKind } from '@/components/content/slide-editor/source-chooser';
import { contentResource } from '@/lib/api/content';
import { fileResource } from '@/lib/api/files';
import type { Rect, ZMove } from '@/lib/slide-editor/geometry';
import { WIDGET_LABELS, widgetLabel } from '@/lib/slide-editor/widgets';
import { FIT_MODES, type Page, type Widget } from '@/server/modules/content/content-data.schemas';
import { timeZoneChoices } from '@/lib/time-zones';

/** A change of the selected widget; `group` makes typing in one field one undo step. */
export type WidgetPatch = (patch: Partial<Widget>, group: string) => void;

const FITS = FIT_MODES.map((f) => [f, { contain: 'Fit inside', cover: 'Fill, cropped', fill: 'Stretch', none: 'Actual size' }[f]] as const);
const ALIGN = [['left', 'Left'], ['center', 'Centre'], ['right', 'Right']] as const;
const VALIGN = [['top', 'Top'], ['middle', 'Middle'], ['bottom', 'Bottom']] as const;
const CLOCK_FORMATS = [['HH:mm', '14:05'], ['HH:mm:ss', '14:05:09'], ['h:mm a', '2:05 pm']] as const;
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
}) {
  const g = (field: string) => `prop:${widget.id}:${field}`;
  const box = { x: widget.x, y: widget.y, width: widget.width, height: widget.height };

  return (
    <div className="space-y-4" aria-label={`${widgetLabel(widget)} properties`} role="group">
      <div className="flex items-center justify-between gap-2">
        <h2 className="truncate text-sm font-semibold text-zinc-900">{widgetLabel(widget)}</h2>
        <span className="shrink-0 rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-600">{WIDGET_LABELS[widget.type]}</span>
      </div>
      <fieldset disabled={readOnly} className="space-y-4">
        <Section title="Content">
          <Content widget={widget} readOnly={readOnly} onPatch={onPatch} onChooseSource={onChooseSource} g={g} />
        </Section>
        {widget.type === 'text' || widget.type === 'clock' || widget.type === 'datasource' ? (
          <Section title="Text style">
            <div className="grid grid-cols-2 gap-2">
              <NumberField label="Font size" value={widget.textStyle?.fontSize ?? 48} min={4} max={2000} onChange={(v) => v !== undefined && onPatch({ textStyle: { ...widget.textStyle, fontSize: v } }, g('fontSize'))} />
              <ColorField label="Colour" value={widget.textStyle?.color ?? '#ffffff'} onChange={(v) => onPatch({ textStyle: { ...widget.textStyle, color: v } }, g('color'))} />
              <ChoiceField label="Align" value={widget.textStyle?.align ?? 'left'} choices={ALIGN} onChange={(v) => onPatch({ textStyle: { ...widget.textStyle, align: v } }, g('align'))} />
              <ChoiceField label="Vertical" value={widget.textStyle?.verticalAlign ?? 'top'} choices={VALIGN} onChange={(v) => onPatch({ textStyle: { ...widget.textStyle, verticalAlign: v } }, g('valign'))} />
            </div>
            <div className="flex gap-4">
              <CheckField label="Bold" checked={widget.textStyle?.fontWeight === 'bold'} onChange={(c) => onPatch({ textStyle: { ...widget.textStyle, fontWeight: c ? 'bold' : 'normal' } }, g('bold'))} />
              <CheckField label="Italic" checked={widget.textStyle?.italic === true} onChange={(c) => onPatch({ textStyle: { ...widget.textStyle, italic: c } }, g('italic'))} />
            </div>
          </Section>
        ) : null}
        <Section title="Position and size">
          <div className="grid grid-cols-2 gap-2">
            <NumberField label="X" value={widget.x} min={-16384} max={16384} onChange={(v) => v !== undefined && onBox({ ...box, x: v }, g('x'))} />
            <NumberField label="Y" value={widget.y} min={-16384} max={16384} onChange={(v) => v !== undefined && onBox({ ...box, y: v }, g('y'))} />
            <NumberField label="Width" value={widget.width} min={1} max={32768} onChange={(v) => v !== undefined && onBox({ ...box, width: v }, g('width'))} />
            <NumberField label="Height" value={widget.height} min={1} max={32768} onChange={(v) => v !== undefined && onBox({ ...box, height: v }, g('height'))} />
            <NumberField label="Rotation (°)" value={widget.rotation ?? 0} min={-360} max={360} onChange={(v) => v !== undefined && onPatch({ rotation: v || undefined }, g('rotation'))} />
          </div>
        </Section>
        <Section title="Look">
          <div className="grid grid-cols-2 gap-2">
            <ColorField label="Background" optional value={widget.style?.backgroundColor} onChange={(v) => onPatch({ style: { ...widget.style, backgroundColor: v } }, g('bg'))} />
            <NumberField label="Opacity (%)" value={Math.round((widget.style?.opacity ?? 1) * 100)} min={0} max={100} onChange={(v) => v !== undefined && onPatch({ style: { ...widget.style, opacity: v === 100 ? undefined : v / 100 } }, g('opacity'))} />
            <NumberField label="Corner radius" value={widget.style?.borderRadius ?? 0} min={0} max={10000} onChange={(v) => onPatch({ style: { ...widget.style, borderRadius: v || undefined } }, g('radius'))} />
            <NumberField label="Padding" value={widget.style?.padding ?? 0} min={0} max={10000} onChange={(v) => onPatch({ style: { ...widget.style, padding: v || undefined } }, g('padding'))} />
          </div>
        </Section>
        {interactive ? (
          <Section title="When tapped">
            <ChoiceField
              label="Action"
              value={widget.action?.page ?? ''}
              choices={[['', 'Nothing'], ...pages.map((p) => [p.name, `Go to page “${p.name}”`] as const)]}
              onChange={(v) => onPatch({ action: v ? { type: 'GO_TO_PAGE', page: v } : undefined }, g('action'))}
            />
          </Section>
        ) : null}
        <Section title="Arrange">
          <div className="grid grid-cols-2 gap-2">
            <Button variant="secondary" size="sm" onClick={() => onReorder('front')} aria-keyshortcuts="Control+]">
              To front
            </Button>
            <Button variant="secondary" size="sm" onClick={() => onReorder('back')} aria-keyshortcuts="Control+[">
              To back
            </Button>
            <Button variant="secondary" size="sm" onClick={() => onReorder('forward')} aria-keyshortcuts="]">
              Forward
            </Button>
            <Button variant="secondary" size="sm" onClick={() => onReorder('backward')} aria-keyshortcuts="[">
              Backward
            </Button>
          </div>
          <TextField label="Name in the editor" value={widget.name ?? ''} maxLength={255} placeholder={WIDGET_LABELS[widget.type]} onChange={(v) => onPatch({ name: v.trim() ? v : undefined }, g('name'))} />
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" onClick={onDuplicate} aria-keyshortcuts="Control+D">
              <CopyIcon className="size-4" />
              Duplicate
            </Button>
            <Button variant="secondary" size="sm" className="text-red-700" onClick={onDelete} aria-keyshortcuts="Delete">
              <TrashIcon className="size-4" />
              Delete widget
            </Button>
          </div>
        </Section>
      </fieldset>
    </div>
  );
}

function Content({ widget, readOnly, onPatch, onChooseSource, g }: { widget: Widget; readOnly: boolean; onPatch: WidgetPatch; onChooseSource: (kind: SourceKind) => void; g: (field: string) => string }) {
  switch (widget.type) {
    case 'text':
      return (
        <>
          <TextField label="Text" multiline value={widget.text} maxLength={20000} onChange={(v) => onPatch({ text: v }, g('text'))} />
          <CheckField label="Scroll as a ticker" checked={widget.marquee === true} onChange={(c) => onPatch({ marquee: c || undefined }, g('marquee'))} />
          {widget.marquee ? <NumberField label="Ticker speed (px/s)" value={widget.marqueeSpeed ?? 120} min={10} max={2000} onChange={(v) => v !== undefined && onPatch({ marqueeSpeed: v }, g('speed'))} /> : null}
        </>
      );
    case 'image':
    case 'video':
      return (
        <>
          <SourceRow label={widget.type === 'image' ? 'Image' : 'Video'} name={<FileName id={widget.fileId} />} readOnly={readOnly} onChange={() => onChooseSource(widget.type as 'image' | 'video')} />
          <ChoiceField label="Fit" value={widget.fit ?? 'contain'} choices={FITS} onChange={(v) => onPatch({ fit: v }, g('fit'))} />
          {widget.type === 'video' ? (
            <div className="flex gap-4">
              <CheckField label="Muted" checked={widget.muted !== false} onChange={(c) => onPatch({ muted: c }, g('muted'))} />
              <CheckField label="Repeat" checked={widget.loop !== false} onChange={(c) => onPatch({ loop: c }, g('loop'))} />
            </div>
          ) : null}
        </>
      );
    case 'webPage':
      return (
        <>
          <TextField label="Address" value={widget.url} maxLength={2048} validate={(v) => (isHttpUrl(v) ? null : 'An http:// or https:// address')} onChange={(v) => onPatch({ url: v }, g('url'))} />
          <NumberField label="Reload every (seconds)" optional value={widget.refreshSeconds} min={10} max={86400} onChange={(v) => onPatch({ refreshSeconds: v }, g('refresh'))} />
        </>
      );
    case 'clock':
      return (
        <>
          <ChoiceField label="Format" value={widget.format ?? 'HH:mm'} choices={CLOCK_FORMATS} onChange={(v) => onPatch({ format: v }, g('format'))} />
          <CheckField label="Show the date" checked={widget.showDate === true} onChange={(c) => onPatch({ showDate: c || undefined }, g('date'))} />
          <ChoiceField
            label="Time zone"
            value={widget.timeZone ?? ''}
            choices={[['', 'The screen’s time zone'], ...timeZoneChoices()]}
            onChange={(v) => onPatch({ timeZone: v || undefined }, g('zone'))}
          />
        </>
      );
    case 'channel':
      return (
        <TextField
          label="Channel tags (comma-separated)"
          value={widget.tags.join(', ')}
          maxLength={4000}
          validate={(v) => (tagsOf(v).length === 0 ? 'At least one tag' : tagsOf(v).length > 50 || !tagsOf(v).every((t) => TAG.test(t)) ? 'At most 50 tags of up to 255 characters' : null)}
          onChange={(v) => onPatch({ tags: tagsOf(v) }, g('tags'))}
        />
      );
    case 'playlist':
      return <SourceRow label="Playlist" name={<ContentName id={widget.simpleLoopId} />} readOnly={readOnly} onChange={() => onChooseSource('playlist')} />;
    case 'content':
      return <SourceRow label="Slide" name={<ContentName id={widget.contentId} />} readOnly />;
    case 'datasource':
      return (
        <>
          <ChoiceField label="Shows" value={widget.mode} choices={[['text', 'A value'], ['table', 'A table']] as const} onChange={(v) => onPatch({ mode: v }, g('mode'))} />
          <TextField label="Placeholder" value={widget.placeholder ?? ''} maxLength={2000} onChange={(v) => onPatch({ placeholder: v || undefined }, g('placeholder'))} />
          <TextField label="Field" value={widget.field ?? ''} maxLength={255} placeholder="Bound when datasources exist" onChange={(v) => onPatch({ field: v || undefined }, g('field'))} />
        </>
      );
  }
}

const tagsOf = (v: string) => v.split(',').map((t) => t.trim()).filter(Boolean);

function SourceRow({ label, name, readOnly, onChange }: { label: string; name: React.ReactNode; readOnly: boolean; onChange?: () => void }) {
  return (
    <div className="space-y-1">
      <span className="block text-xs font-medium text-zinc-600">{label}</span>
      <div className="flex items-center gap-2">
        <span className="min-w-0 flex-1 truncate text-sm text-zinc-800">{name}</span>
        {readOnly || !onChange ? null : (
          <Button variant="secondary" size="sm" onClick={onChange}>
            Change…
          </Button>
        )}
      </div>
    </div>
  );
}

function FileName({ id }: { id: string }) {
  const file = fileResource.useDetail(id || null, { select: 'name' });

  return <>{!id ? 'None chosen' : file.isError ? 'Missing file' : (file.data?.name ?? '…')}</>;
}

function ContentName({ id }: { id: string }) {
  const item = contentResource.useDetail(id || null, { select: 'name' });

  return <>{!id ? 'None chosen' : item.isError ? 'Missing item' : (item.data?.name ?? '…')}</>;
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
  nameProblem: (name: string) => string | null;
  interactive: boolean;
  readOnly: boolean;
  onPatch: (patch: Partial<Page>, group: string) => void;
  onScreenSize: (size: { width: number; height: number }) => void;
  onChooseBackground: () => void;
}) {
  const { width, height } = page.pageData.screenSize;
  const style = page.pageStyle ?? {};
  const preset = SCREEN_SIZES.find(([w, h]) => w === width && h === height);

  return (
    <div className="space-y-4" role="group" aria-label="Page properties">
      <h2 className="text-sm font-semibold text-zinc-900">{interactive ? `Page “${page.name}”` : 'Slide'}</h2>
      <p className="text-xs text-zinc-500">Select a widget on the canvas to change it, or add one from the bar above.</p>
      <fieldset disabled={readOnly} className="space-y-4">
        <Section title="Screen">
          <ChoiceField
            label="Size"
            value={preset ? `${width}x${height}` : 'custom'}
            choices={[...SCREEN_SIZES.map(([w, h, label]) => [`${w}x${h}`, label] as const), ['custom', 'Custom']]}
            onChange={(v) => {
              if (v === 'custom') return;
              const [w, h] = v.split('x').map(Number) as [number, number];
              onScreenSize({ width: w, height: h });
            }}
          />
          <div className="grid grid-cols-2 gap-2">
            <NumberField label="Width (px)" live={false} value={width} min={1} max={16384} onChange={(v) => v !== undefined && onScreenSize({ width: v, height })} />
            <NumberField label="Height (px)" live={false} value={height} min={1} max={16384} onChange={(v) => v !== undefined && onScreenSize({ width, height: v })} />
          </div>
        </Section>
        <Section title="Background">
          <ColorField label="Colour" value={style.backgroundColor ?? '#000000'} onChange={(v) => onPatch({ pageStyle: { ...style, backgroundColor: v } }, 'page:bg')} />
          <SourceRow label="Image" name={style.backgroundFileId ? <FileName id={style.backgroundFileId} /> : 'None'} readOnly={readOnly} onChange={onChooseBackground} />
          {style.backgroundFileId ? (
            <div className="flex items-end gap-2">
              <ChoiceField className="flex-1" label="Image fit" value={style.backgroundFit ?? 'cover'} choices={FITS} onChange={(v) => onPatch({ pageStyle: { ...style, backgroundFit: v } }, 'page:fit')} />
              <Button variant="ghost" size="sm" onClick={() => onPatch({ pageStyle: { ...style, backgroundFileId: undefined, backgroundFit: undefined } }, 'page:bgfile')}>
                Remove image
              </Button>
            </div>
          ) : null}
        </Section>
        <Section title="Timing">
          <NumberField
            label="Shows for (seconds; empty: the playlist decides)"
            optional
            integer={false}
            step={0.5}
            value={page.pageData.durationMs === undefined ? undefined : page.pageData.durationMs / 1000}
            min={0.1}
            max={86400}
            onChange={(v) => onPatch({ pageData: { ...page.pageData, durationMs: v === undefined ? undefined : Math.round(v * 1000) } }, 'page:duration')}
          />
        </Section>
        {interactive ? (
          <Section title="Page">
            <TextField label="Page name" value={page.name} maxLength={255} validate={(v) => nameProblem(v.trim())} onChange={(v) => onPatch({ name: v.trim() }, 'page:name')} />
          </Section>
        ) : null}
      </fieldset>
    </div>
  );
}

/** Common screens: landscape and portrait full HD and 4K, HD. */
export const SCREEN_SIZES = [
  [1920, 1080, 'Landscape 16:9 (1920 × 1080)'],
  [1080, 1920, 'Portrait 9:16 (1080 × 1920)'],
  [3840, 2160, 'Landscape 4K (3840 × 2160)'],
  [2160, 3840, 'Portrait 4K (2160 × 3840)'],
  [1280, 720, 'Landscape HD (1280 × 720)'],
] as const;
