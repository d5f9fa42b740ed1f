import type { DatasourceWidget, SlideData, Widget } from './content-data.schemas';

/*
 * The starter templates (`GET /api/template`): real slides that render as they are, written to the
 * `content_template` table at every start. Each references no file (they are shared by every tenant);
 * a copy made from one is the tenant's own slide to fill with its media.
 */

export type StarterTemplate = { id: string; name: string; description: string; tags: string[]; data: SlideData };

const HD = { width: 1920, height: 1080 };
const PORTRAIT = { width: 1080, height: 1920 };

function text(
  id: string,
  x: number,
  y: number,
  width: number,
  height: number,
  value: string,
  style: Extract<Widget, { type: 'text' }>['textStyle'],
  extra: Partial<Extract<Widget, { type: 'text' }>> = {},
): Widget {
  return { id, type: 'text', x, y, width, height, zIndex: 1, text: value, textStyle: style, quickEdit: true, ...extra };
}

function page(screenSize: { width: number; height: number }, backgroundColor: string, widgets: Widget[]): SlideData {
  return { pages: [{ name: 'Default', tags: [], pageStyle: { backgroundColor }, pageData: { screenSize }, widgets }] };
}

const white = '#ffffff';

/** A datasource widget without its datasource: the copy picks one (the editor's datasource panel); until then the placeholder shows. */
function datasource(
  id: string,
  box: { x: number; y: number; width: number; height: number },
  settings: Pick<DatasourceWidget, 'mode'> & Partial<DatasourceWidget>,
): Widget {
  return { ...settings, id, type: 'datasource', ...box, zIndex: 2 };
}

export const starterTemplates: readonly StarterTemplate[] = [
  {
    id: '0190f000-0000-7000-8000-000000000001',
    name: 'Welcome screen',
    description: 'A greeting, a line for today and the time, on a dark background.',
    tags: ['welcome', 'lobby'],
    data: page(HD, '#0f172a', [
      text('title', 160, 360, 1600, 200, 'Welcome', {
        fontSize: 160,
        fontWeight: 'bold',
        color: white,
        align: 'center',
        verticalAlign: 'middle',
      }),
      text('subtitle', 160, 580, 1600, 100, 'We are glad you are here', {
        fontSize: 56,
        color: '#cbd5e1',
        align: 'center',
        verticalAlign: 'middle',
      }),
      {
        id: 'clock',
        type: 'clock',
        x: 1560,
        y: 60,
        width: 300,
        height: 100,
        zIndex: 2,
        format: 'HH:mm',
        showDate: false,
        textStyle: { fontSize: 64, color: white, align: 'right' },
      },
    ]),
  },
  {
    id: '0190f000-0000-7000-8000-000000000002',
    name: 'Menu board',
    description: 'Three columns of dishes and prices under a title.',
    tags: ['menu', 'food'],
    data: page(HD, '#1c1917', [
      text('title', 80, 50, 1760, 140, "Today's menu", {
        fontSize: 96,
        fontWeight: 'bold',
        color: '#fbbf24',
        align: 'center',
        verticalAlign: 'middle',
      }),
      ...(['Starters', 'Mains', 'Desserts'] as const).flatMap((heading, i) => [
        text(`heading-${i}`, 80 + i * 600, 240, 560, 90, heading, { fontSize: 56, fontWeight: 'bold', color: white, align: 'left' }),
        text(`items-${i}`, 80 + i * 600, 350, 560, 650, 'Dish one — 8.50\nDish two — 9.00\nDish three — 7.50', {
          fontSize: 44,
          color: '#e7e5e4',
          align: 'left',
          verticalAlign: 'top',
        }),
      ]),
    ]),
  },
  {
    id: '0190f000-0000-7000-8000-000000000003',
    name: 'Headline with news ticker',
    description: 'A large headline, the time, and a scrolling ticker along the bottom.',
    tags: ['news', 'ticker'],
    data: page(HD, '#111827', [
      text('headline', 120, 200, 1680, 520, 'Your headline goes here', {
        fontSize: 120,
        fontWeight: 'bold',
        color: white,
        align: 'left',
        verticalAlign: 'middle',
      }),
      {
        id: 'clock',
        type: 'clock',
        x: 1500,
        y: 60,
        width: 360,
        height: 100,
        zIndex: 2,
        format: 'HH:mm',
        showDate: true,
        textStyle: { fontSize: 48, color: '#9ca3af', align: 'right' },
      },
      text(
        'ticker',
        0,
        960,
        1920,
        120,
        'Breaking: add your news here  •  Second item  •  Third item',
        { fontSize: 56, color: white, verticalAlign: 'middle' },
        {
          marquee: true,
          marqueeSpeed: 160,
          style: { backgroundColor: '#b91c1c', padding: 16 },
        },
      ),
    ]),
  },
  {
    id: '0190f000-0000-7000-8000-000000000004',
    name: 'Full-screen channel',
    description: 'Plays the channels tagged "main" across the whole screen.',
    tags: ['channel'],
    data: page(HD, '#000000', [{ id: 'channel', type: 'channel', x: 0, y: 0, width: 1920, height: 1080, zIndex: 1, tags: ['main'] }]),
  },
  {
    id: '0190f000-0000-7000-8000-000000000005',
    name: 'Portrait notice',
    description: 'A portrait notice board: a title, a message and the time.',
    tags: ['portrait', 'notice'],
    data: page(PORTRAIT, '#1e3a8a', [
      text('title', 80, 240, 920, 300, 'Notice', {
        fontSize: 140,
        fontWeight: 'bold',
        color: white,
        align: 'center',
        verticalAlign: 'middle',
      }),
      text('message', 80, 640, 920, 900, 'Write your message here.', {
        fontSize: 64,
        color: '#dbeafe',
        align: 'center',
        verticalAlign: 'top',
      }),
      {
        id: 'clock',
        type: 'clock',
        x: 80,
        y: 1700,
        width: 920,
        height: 120,
        zIndex: 2,
        format: 'HH:mm',
        showDate: true,
        textStyle: { fontSize: 56, color: white, align: 'center' },
      },
    ]),
  },
  {
    id: '0190f000-0000-7000-8000-000000000006',
    name: 'News ticker',
    description: 'A headline area and the items of an RSS feed scrolling along the bottom (pick the feed).',
    tags: ['news', 'ticker', 'datasource'],
    data: page(HD, '#0b1220', [
      text('headline', 120, 160, 1680, 560, 'Your headline goes here', {
        fontSize: 110,
        fontWeight: 'bold',
        color: white,
        align: 'left',
        verticalAlign: 'middle',
      }),
      datasource(
        'news',
        { x: 0, y: 950, width: 1920, height: 130 },
        {
          mode: 'ticker',
          marqueeSpeed: 140,
          placeholder: 'Pick an RSS datasource for the ticker',
          textStyle: { fontSize: 56, color: white, verticalAlign: 'middle' },
          style: { backgroundColor: '#1d4ed8', padding: 16 },
        },
      ),
    ]),
  },
  {
    id: '0190f000-0000-7000-8000-000000000007',
    name: 'Menu board from a table',
    description: 'Dishes and prices from a TABLE datasource, paged when the list is long (pick the table).',
    tags: ['menu', 'food', 'datasource'],
    data: page(HD, '#1c1917', [
      text('title', 80, 50, 1760, 140, "Today's menu", {
        fontSize: 96,
        fontWeight: 'bold',
        color: '#fbbf24',
        align: 'center',
        verticalAlign: 'middle',
      }),
      datasource(
        'menu',
        { x: 160, y: 240, width: 1600, height: 780 },
        {
          mode: 'table',
          rowsPerPage: 8,
          pageSeconds: 12,
          placeholder: 'Pick a TABLE datasource with the dishes and prices',
          textStyle: { fontSize: 48, color: '#e7e5e4' },
          headerStyle: { fontSize: 40, fontWeight: 'bold', color: '#fbbf24' },
        },
      ),
    ]),
  },
  {
    id: '0190f000-0000-7000-8000-000000000008',
    name: 'Room sign',
    description: "A meeting room's name, whether it is free, and the next booking, from a calendar datasource (pick the calendar).",
    tags: ['room', 'calendar', 'datasource'],
    data: page(HD, '#064e3b', [
      text('room', 120, 80, 1680, 160, 'Meeting room', { fontSize: 96, fontWeight: 'bold', color: white, verticalAlign: 'middle' }),
      datasource(
        'schedule',
        { x: 120, y: 300, width: 1680, height: 700 },
        {
          mode: 'calendar',
          placeholder: 'Pick an iCal or calendar datasource',
          textStyle: { fontSize: 64, color: white },
        },
      ),
    ]),
  },
  {
    id: '0190f000-0000-7000-8000-000000000009',
    name: 'Emergency banner',
    description: 'The active alerts of a CAP feed, one after another, on red (pick the CAP datasource).',
    tags: ['emergency', 'alert', 'datasource'],
    data: page(HD, '#7f1d1d', [
      text('title', 120, 60, 1680, 140, 'Warning', { fontSize: 96, fontWeight: 'bold', color: white, verticalAlign: 'middle' }),
      datasource(
        'alerts',
        { x: 120, y: 240, width: 1680, height: 780 },
        {
          mode: 'list',
          itemSeconds: 15,
          showImage: false,
          placeholder: 'Pick a CAP datasource',
          textStyle: { fontSize: 56, color: white },
        },
      ),
    ]),
  },
];
