import { z } from '@hono/zod-openapi';

/*
 * The `data` documents of device content (spec 2 "Content"): a playlist's `loopData` and `slides`, and a
 * slide's (or interactive content's) pages of positioned widgets. Validated on every write; the console's
 * editors and the one renderer (lib/player) read the same types. No server imports.
 *
 * Times are milliseconds, positions and sizes are pixels of the page's `screenSize`, ids are the ids of
 * files, file folders and content of the same customer (checked on write), colours are CSS hex colours.
 */

const id = z.string().uuid();
const MAX_DURATION_MS = 24 * 3_600_000;
export const durationMs = z.number().int().min(100).max(MAX_DURATION_MS);
const pixels = z.number().int().min(1).max(16_384);
// No regular-expression flags in schema patterns: the OpenAPI generator pastes them into `pattern` (`…$/i`),
// which then matches nothing (openapi-document.api.test.ts).
const colour = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'A hex colour such as #1f2937');
const shortText = z.string().max(255);

export const FIT_MODES = ['contain', 'cover', 'fill', 'none'] as const;
export const Fit = z.enum(FIT_MODES);
export const TRANSITIONS = ['NONE', 'FADE', 'SLIDE_LEFT', 'SLIDE_UP', 'ZOOM'] as const;
export const Transition = z.object({ type: z.enum(TRANSITIONS), durationMs: z.number().int().min(0).max(10_000).optional() });

export const ScreenSize = z.object({ width: pixels, height: pixels });

/** Unix milliseconds; outside the window the item is skipped (like a file's own validity). */
const validity = {
  validFrom: z.number().int().nonnegative().nullable().optional(),
  validTo: z.number().int().nonnegative().nullable().optional(),
};

/** Stable within the document (the editors key list items and undo steps by it). */
const itemKey = z.string().min(1).max(64);

const itemBase = { key: itemKey, transition: Transition.optional(), enabled: z.boolean().optional(), ...validity };

/** One entry of a playlist's `slides`: a file, every file of a folder, a slide, or a nested playlist. */
export const PlaylistItem = z
  .discriminatedUnion('type', [
    z.object({ ...itemBase, type: z.literal('FILE'), id, durationMs: durationMs.optional(), fit: Fit.optional() }),
    z.object({ ...itemBase, type: z.literal('FILE_FOLDER'), id, durationMs: durationMs.optional(), fit: Fit.optional() }),
    z.object({ ...itemBase, type: z.literal('CONTENT'), id, durationMs: durationMs.optional() }),
    z.object({ ...itemBase, type: z.literal('SIMPLE_LOOP'), id }),
  ])
  .superRefine((item, ctx) => {
    if (item.validFrom != null && item.validTo != null && item.validFrom > item.validTo) {
      ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'validTo is before validFrom' });
    }
  });

export const LoopData = z.object({
  orientation: z.enum(['LANDSCAPE', 'PORTRAIT']).optional(),
  resolution: ScreenSize,
  defaultImageFit: Fit.default('contain'),
  defaultVideoFit: Fit.default('contain'),
  /** How long an image (or a slide without its own duration) plays. */
  defaultDurationMs: durationMs.default(10_000),
  backgroundColor: colour.optional(),
});

export const PlaylistData = z
  .object({ loopData: LoopData, slides: z.array(PlaylistItem).max(5_000) })
  .strict()
  .superRefine((data, ctx) => uniqueKeys(data.slides, ['slides'], ctx))
  .openapi('PlaylistData');

const TextStyle = z.object({
  fontFamily: shortText.optional(),
  fontSize: z.number().min(4).max(2_000).optional(),
  fontWeight: z.enum(['normal', 'bold']).optional(),
  italic: z.boolean().optional(),
  color: colour.optional(),
  align: z.enum(['left', 'center', 'right']).optional(),
  verticalAlign: z.enum(['top', 'middle', 'bottom']).optional(),
});

const WidgetStyle = z.object({
  backgroundColor: colour.optional(),
  borderRadius: z.number().min(0).max(10_000).optional(),
  opacity: z.number().min(0).max(1).optional(),
  padding: z.number().min(0).max(10_000).optional(),
});

/** What a tap does in interactive content. */
const Action = z.object({ type: z.literal('GO_TO_PAGE'), page: shortText.min(1) });

const widgetBase = {
  id: itemKey,
  name: shortText.optional(),
  x: z.number().min(-16_384).max(16_384),
  y: z.number().min(-16_384).max(16_384),
  width: z.number().min(1).max(32_768),
  height: z.number().min(1).max(32_768),
  zIndex: z.number().int().min(0).max(10_000),
  rotation: z.number().min(-360).max(360).optional(),
  style: WidgetStyle.optional(),
  action: Action.optional(),
  /** Lets a playlist override this widget's text or media (spec 2 `contentMetaData`). */
  quickEdit: z.boolean().optional(),
};

export const WIDGET_TYPES = ['text', 'image', 'video', 'webPage', 'clock', 'channel', 'playlist', 'content', 'datasource'] as const;

export const Widget = z.discriminatedUnion('type', [
  z.object({
    ...widgetBase,
    type: z.literal('text'),
    text: z.string().max(20_000),
    textStyle: TextStyle.optional(),
    /** Scrolls the text from right to left (a ticker) at `marqueeSpeed` pixels per second. */
    marquee: z.boolean().optional(),
    marqueeSpeed: z.number().min(10).max(2_000).optional(),
  }),
  z.object({ ...widgetBase, type: z.literal('image'), fileId: id, fit: Fit.optional() }),
  z.object({ ...widgetBase, type: z.literal('video'), fileId: id, fit: Fit.optional(), muted: z.boolean().optional(), loop: z.boolean().optional() }),
  z.object({ ...widgetBase, type: z.literal('webPage'), url: z.string().url().max(2_048).regex(/^[hH][tT][tT][pP][sS]?:\/\//, 'An http or https address'), refreshSeconds: z.number().int().min(10).max(86_400).optional() }),
  z.object({
    ...widgetBase,
    type: z.literal('clock'),
    format: z.enum(['HH:mm', 'HH:mm:ss', 'h:mm a']).default('HH:mm'),
    showDate: z.boolean().optional(),
    /** IANA zone; absent: the screen's own time zone. */
    timeZone: shortText.optional(),
    textStyle: TextStyle.optional(),
  }),
  /** Plays the channels whose tags include every tag listed (spec 4 §4). */
  z.object({ ...widgetBase, type: z.literal('channel'), tags: z.array(shortText.min(1)).min(1).max(50) }),
  z.object({ ...widgetBase, type: z.literal('playlist'), simpleLoopId: id }),
  z.object({ ...widgetBase, type: z.literal('content'), contentId: id }),
  /** Bound to a datasource field; shows `placeholder` until datasources exist. */
  z.object({ ...widgetBase, type: z.literal('datasource'), datasourceId: z.string().max(64).optional(), field: shortText.optional(), mode: z.enum(['text', 'table']), placeholder: z.string().max(2_000).optional(), textStyle: TextStyle.optional() }),
]);

export const PageStyle = z.object({ backgroundColor: colour.optional(), backgroundFileId: id.optional(), backgroundFit: Fit.optional() });

export const Page = z.object({
  name: shortText.min(1),
  tags: z.array(shortText).max(50).default([]),
  pageStyle: PageStyle.default({}),
  pageData: z.object({ screenSize: ScreenSize, durationMs: durationMs.optional() }),
  widgets: z.array(Widget).max(500),
});

export const SlideData = z
  .object({ pages: z.array(Page).min(1).max(200) })
  .strict()
  .superRefine((data, ctx) => {
    const names = new Set<string>();
    data.pages.forEach((page, i) => {
      if (names.has(page.name)) ctx.addIssue({ code: 'custom', path: ['pages', i, 'name'], message: `Page '${page.name}' appears twice` });
      names.add(page.name);
      uniqueKeys(page.widgets.map((w) => ({ key: w.id })), ['pages', i, 'widgets'], ctx);
      page.widgets.forEach((w, j) => {
        if (w.action && !data.pages.some((p) => p.name === w.action!.page)) {
          ctx.addIssue({ code: 'custom', path: ['pages', i, 'widgets', j, 'action', 'page'], message: `No page named '${w.action.page}'` });
        }
      });
    });
  })
  .openapi('SlideData');

function uniqueKeys(items: readonly { key: string }[], path: (string | number)[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.key)) ctx.addIssue({ code: 'custom', path: [...path, i], message: `'${item.key}' appears twice` });
    seen.add(item.key);
  });
}

export type PlaylistItem = z.infer<typeof PlaylistItem>;
export type PlaylistData = z.infer<typeof PlaylistData>;
export type LoopData = z.infer<typeof LoopData>;
export type Widget = z.infer<typeof Widget>;
export type Page = z.infer<typeof Page>;
export type SlideData = z.infer<typeof SlideData>;
export type Fit = z.infer<typeof Fit>;
export type Transition = z.infer<typeof Transition>;
