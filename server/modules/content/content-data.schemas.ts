import { z } from '@hono/zod-openapi';
import { combinationIssue, httpUrl } from '@/server/http/wire.schemas';
import { ARRAY_INDEX_PATTERN, isArrayIndexName } from './page-names.schemas';

/*
 * The `data` documents of device content (spec 2 "Content"): a playlist's `loopData` and `slides`, and a
 * slide's (or interactive content's) pages of positioned widgets. Validated on every write; the console's
 * editors and the one renderer (lib/player) read the same types. No server imports.
 *
 * Times are milliseconds, positions and sizes are pixels of the page's `screenSize`, ids are the ids of
 * files, file folders and content of the same customer (checked on write), colours are CSS hex colours.
 *
 * A slide's pages travel keyed by name (`SlideDocument`, DECISIONS §2) and are stored as a list
 * (`SlideData`); slide-document.schemas.ts converts between the two. Every object of a page keeps the keys
 * the server does not know, as sent, and nothing is filled in: what a client sends is what it reads back.
 */

const id = z.string().uuid();
const MAX_DURATION_MS = 24 * 3_600_000;
const durationMs = z.number().int().min(100).max(MAX_DURATION_MS);
const pixels = z.number().int().min(1).max(16_384);
// No regular-expression flags in schema patterns: the OpenAPI generator pastes them into `pattern` (`…$/i`),
// which then matches nothing (openapi-document.api.test.ts).
const colour = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'A hex colour such as #1f2937');
const shortText = z.string().max(255);

export const FIT_MODES = ['contain', 'cover', 'fill', 'none'] as const;
export const Fit = z.enum(FIT_MODES);
export const TRANSITIONS = ['NONE', 'FADE', 'SLIDE_LEFT', 'SLIDE_UP', 'ZOOM'] as const;
const CLOCK_FORMATS = ['HH:mm', 'HH:mm:ss', 'h:mm a'] as const;
export const Transition = z.object({ type: z.enum(TRANSITIONS), durationMs: z.number().int().min(0).max(10_000).optional() });

const ScreenSize = z.object({ width: pixels, height: pixels });

/** Unix milliseconds; outside the window the item is skipped (like a file's own validity). */
const validity = {
  validFrom: z.number().int().nonnegative().nullable().optional(),
  validTo: z.number().int().nonnegative().nullable().optional().openapi({ description: 'Not before validFrom' }),
};

/** Stable within the document (the editors key list items and undo steps by it). */
const itemKey = z.string().min(1).max(64);

const itemBase = {
  key: itemKey.openapi({ description: 'Unique among the slides of the playlist' }),
  transition: Transition.optional(),
  enabled: z.boolean().optional(),
  ...validity,
};

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
      combinationIssue(ctx, ['validTo'], 'validTo is before validFrom');
    }
  });

const LoopData = z.object({
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

/* Slides: every object below is loose (`z.looseObject`, `.loose()`): keys the server does not know are kept as sent. */

const TextStyle = z.looseObject({
  fontFamily: shortText.optional(),
  fontSize: z.number().min(4).max(2_000).optional(),
  fontWeight: z.enum(['normal', 'bold']).optional(),
  italic: z.boolean().optional(),
  color: colour.optional(),
  align: z.enum(['left', 'center', 'right']).optional(),
  verticalAlign: z.enum(['top', 'middle', 'bottom']).optional(),
});

const WidgetStyle = z.looseObject({
  backgroundColor: colour.optional(),
  borderRadius: z.number().min(0).max(10_000).optional(),
  opacity: z.number().min(0).max(1).optional(),
  padding: z.number().min(0).max(10_000).optional(),
});

/** What a tap does in interactive content: show the page of that name. */
const Action = z.looseObject({
  type: z.literal('GO_TO_PAGE'),
  page: shortText.min(1).openapi({ description: 'The name (key) of a page of the same document' }),
});

export const DATASOURCE_MODES = ['text', 'table', 'list', 'ticker', 'calendar'] as const;
export const DATASOURCE_FORMAT_KINDS = ['text', 'number', 'currency', 'percent', 'date', 'time', 'dateTime'] as const;
const turnSeconds = z.number().int().min(2).max(600);

/** How a datasource widget writes its value (text mode); numbers and dates through `Intl`, dates in the screen's time zone. */
const DatasourceFormat = z.looseObject({
  kind: z.enum(DATASOURCE_FORMAT_KINDS).openapi({
    description: 'percent reads the value as a fraction (0.25 is 25 %); date, time and dateTime read epoch milliseconds or ISO 8601',
  }),
  decimals: z.number().int().min(0).max(6).optional().openapi({ description: 'number, currency, percent: digits after the point' }),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'A currency code such as EUR')
    .optional()
    .openapi({ description: 'currency: the ISO 4217 code' }),
  prefix: z.string().max(50).optional().openapi({ description: 'Written before the value' }),
  suffix: z.string().max(50).optional().openapi({ description: 'Written after the value' }),
});

const widgetBase = {
  id: itemKey.openapi({ description: 'Unique among the widgets of its page' }),
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

/** An unknown `type` is refused: the renderer could not draw it, nor the server check what it points at. */
export const Widget = z.discriminatedUnion('type', [
  z.looseObject({
    ...widgetBase,
    type: z.literal('text'),
    text: z.string().max(20_000),
    textStyle: TextStyle.optional(),
    /** Scrolls the text from right to left (a ticker) at `marqueeSpeed` pixels per second. */
    marquee: z.boolean().optional(),
    marqueeSpeed: z.number().min(10).max(2_000).optional(),
  }),
  z.looseObject({ ...widgetBase, type: z.literal('image'), fileId: id, fit: Fit.optional() }),
  z.looseObject({
    ...widgetBase,
    type: z.literal('video'),
    fileId: id,
    fit: Fit.optional(),
    muted: z.boolean().optional(),
    loop: z.boolean().optional(),
  }),
  z.looseObject({
    ...widgetBase,
    type: z.literal('webPage'),
    url: httpUrl,
    refreshSeconds: z.number().int().min(10).max(86_400).optional(),
  }),
  z.looseObject({
    ...widgetBase,
    type: z.literal('clock'),
    /** Absent: `HH:mm`. */
    format: z.enum(CLOCK_FORMATS).optional(),
    showDate: z.boolean().optional(),
    /** IANA zone; absent: the screen's own time zone. */
    timeZone: shortText.optional(),
    textStyle: TextStyle.optional(),
  }),
  /** Plays the channels whose tags include every tag listed (spec 4 §4). */
  z.looseObject({ ...widgetBase, type: z.literal('channel'), tags: z.array(shortText.min(1)).min(1).max(50) }),
  z.looseObject({ ...widgetBase, type: z.literal('playlist'), simpleLoopId: id }),
  z.looseObject({ ...widgetBase, type: z.literal('content'), contentId: id }),
  /** Shows a datasource's current data (spec 5 §2 "Widgets"): a value, a table, items in turn, a ticker or a room sign. */
  z.looseObject({
    ...widgetBase,
    type: z.literal('datasource'),
    mode: z.enum(DATASOURCE_MODES).openapi({
      description:
        'text: the value at `field`; table: a TABLE paged by rows; list: LIST or FEED items one at a time; ticker: item titles scrolling; calendar: a room sign of calendar events',
    }),
    datasourceId: z.string().max(64).optional().openapi({ description: 'Absent: the placeholder is shown' }),
    field: shortText
      .optional()
      .openapi({ description: "A dot path into the data (`price`, `rooms.2.name`, a table's `rows.0.price`); text and ticker" }),
    format: DatasourceFormat.optional(),
    columns: z
      .array(shortText)
      .max(50)
      .optional()
      .openapi({ description: "table: the columns shown, in order (absent: all of the data's)" }),
    rowsPerPage: z.number().int().min(1).max(100).optional().openapi({ description: 'table: rows on a page (absent: 10)' }),
    pageSeconds: turnSeconds.optional().openapi({ description: 'table: pages turn every so many seconds (absent: 10)' }),
    itemSeconds: turnSeconds.optional().openapi({ description: 'list: each item shows for so many seconds (absent: 10)' }),
    maxItems: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: 'list and ticker: at most so many items, the first ones' }),
    showTitle: z.boolean().optional().openapi({ description: 'list: show the title (absent: true)' }),
    showSummary: z.boolean().optional().openapi({ description: 'list: show the summary (absent: true)' }),
    showImage: z.boolean().optional().openapi({ description: "list: show the item's `imageUrl` (absent: true)" }),
    marqueeSpeed: z.number().min(10).max(2_000).optional().openapi({ description: 'ticker: pixels per second (absent: 120)' }),
    headerStyle: TextStyle.optional().openapi({ description: "table: the header row's text style" }),
    placeholder: z.string().max(2_000).optional(),
    textStyle: TextStyle.optional(),
  }),
]);

const PageStyle = z.looseObject({ backgroundColor: colour.optional(), backgroundFileId: id.optional(), backgroundFit: Fit.optional() });

/**
 * One page of a slide as it travels: the value under its name in `SlideDocument`. `tags`, `pageStyle` and
 * `widgets` may be left out (read as none); a page holds no `name` of its own: its key is its name.
 */
export const SlidePage = z
  .looseObject({
    tags: z.array(shortText).max(50).optional(),
    pageStyle: PageStyle.optional(),
    pageData: z.looseObject({ screenSize: ScreenSize.loose(), durationMs: durationMs.optional() }),
    widgets: z.array(Widget).max(500).optional(),
  })
  .superRefine((page, ctx) => {
    if ('name' in page)
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'A page has no `name` of its own: its key in `data` is its name' });
  })
  .openapi('SlidePage', {
    description: 'One page; its name is its key in the slide document. Keys the server does not know are kept as sent.',
  });

const MAX_PAGES = 200;

/** The spec's one-page slide (spec 2 "Content"): the example of the keyed form. */
const DEFAULT_SLIDE = { Default: { tags: [], pageStyle: {}, pageData: { screenSize: { width: 1920, height: 1080 } } } };

/** `__proto__` anywhere: a JavaScript reader cannot keep it as data (zod drops it), so it would not come back. */
function refuseProtoKeys(value: unknown, ctx: z.RefinementCtx, path: (string | number)[] = []): void {
  if (Array.isArray(value)) value.forEach((item, i) => refuseProtoKeys(item, ctx, [...path, i]));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '__proto__')
        ctx.addIssue({ code: 'custom', path: [...path, key], message: "'__proto__' cannot be a key of a slide document" });
      else refuseProtoKeys(inner, ctx, [...path, key]);
    }
  }
}

/**
 * A slide's or interactive content's `data` as clients send and read it (DECISIONS §2): an object keyed by page
 * name, pages in play order (the key order of the JSON object). A slide has one page, interactive content one
 * or more (at most 200). Page names are 1–255 characters and not a whole number (see `isArrayIndexName`).
 */
export const SlideDocument = z
  .preprocess(
    (value, ctx) => {
      refuseProtoKeys(value, ctx);

      return value;
    },
    z.record(shortText.min(1), SlidePage).superRefine((document, ctx) => {
      const names = Object.keys(document);
      if (names.length === 0)
        ctx.addIssue({
          code: 'custom',
          path: [],
          message: 'A slide has at least one page: an object keyed by page name, such as {"Default": {…}}',
        });
      if (names.length > MAX_PAGES)
        ctx.addIssue({ code: 'custom', path: [], message: `At most ${MAX_PAGES} pages; this document has ${names.length}` });
      const numbered = names.filter(isArrayIndexName);
      if (numbered.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: [],
          message: `Page names cannot be whole numbers (${numbered.map((n) => `'${n}'`).join(', ')}): JSON readers list such keys first, in numeric order, so the pages would lose their order. Name them like 'Page 1'.`,
        });
      }
      for (const [name, page] of Object.entries(document)) {
        const widgets = page.widgets ?? [];
        uniqueKeys(
          widgets.map((w) => ({ key: w.id })),
          [name, 'widgets'],
          ctx,
        );
        widgets.forEach((w, j) => {
          if (w.action && !Object.hasOwn(document, w.action.page)) {
            combinationIssue(ctx, [name, 'widgets', j, 'action', 'page'], `No page named '${w.action.page}'`);
          }
        });
      }
    }),
  )
  .openapi('SlideDocument', {
    description:
      'A slide\'s pages keyed by page name, in play order (the key order of the object): a slide has one page (the spec\'s `Default`), interactive content one key per page. Page names are 1–255 characters and never a whole number such as "1".',
    example: DEFAULT_SLIDE,
    // OpenAPI 3.1 (JSON Schema) keyword the generator's metadata type does not list; it is written as given.
    ...({
      minProperties: 1,
      maxProperties: MAX_PAGES,
      propertyNames: { minLength: 1, maxLength: 255, not: { pattern: ARRAY_INDEX_PATTERN } },
    } as object),
  });

/** A `data` document as the API answers it: a slide's pages keyed by name, or a playlist. */
export const ContentData = z.union([SlideDocument, PlaylistData]);

function uniqueKeys(items: readonly { key: string }[], path: (string | number)[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.key)) combinationIssue(ctx, [...path, i], `'${item.key}' appears twice`);
    seen.add(item.key);
  });
}

export type PlaylistItem = z.infer<typeof PlaylistItem>;
export type PlaylistData = z.infer<typeof PlaylistData>;
export type Widget = z.infer<typeof Widget>;
export type SlidePage = z.infer<typeof SlidePage>;
export type SlideDocument = z.infer<typeof SlideDocument>;
/** One page of the stored list: the page object with its name (the key it travels under). */
export type Page = SlidePage & { name: string };
/** How a slide is stored and how the editors and the renderer hold it: its pages in play order. */
export type SlideData = { pages: Page[] };
export type Fit = z.infer<typeof Fit>;
export type Transition = z.infer<typeof Transition>;
export type DatasourceWidget = Extract<Widget, { type: 'datasource' }>;
export type DatasourceFormatKind = (typeof DATASOURCE_FORMAT_KINDS)[number];
