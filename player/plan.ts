import type { DatasourceWidget, SlideData, SlideDocument, Widget } from '@/server/modules/content/content-data.schemas';
import { isSlideData, slideDataOf } from '@/server/modules/content/slide-document.schemas';
import type { ChannelPlay, Manifest, ManifestContent, Segment } from '@/server/modules/display/display.schemas';
import { saturationTurns } from '@/server/playback/saturation';
import { isVideo, playlistTimeline, type EmbeddedContent, type MediaFile, type PlayEntry, type Resolver } from '@/lib/player/timeline';

/*
 * What the screen plays during a segment (spec 4 §4), as one loop of entries for the renderer
 * (lib/player/timeline.ts), each carrying what its proof of play names: the campaign, the sub-channel, the
 * content. The content layers play their content; CHANNELS plays the channels full screen, sharing the
 * screen by saturation (the server's smooth weighted round robin), a playback slot bounding one turn. Pure.
 */

/** An entry with what its proof of play names; `widgetKey`: the slide widget it shows in (none: it plays whole). */
export type Play = PlayEntry & { campaignId?: number; messageId?: number; ownerContentId?: string; widgetKey?: string };

/**
 * A slide's datasource widget as its proof of play reports it: by its key alone (`datasourcePlay`). It is no entry of
 * a loop: the slide's page shows it.
 */
export type DatasourcePlay = { key: string; kind: 'datasource'; widgetKey: string };

/** What a play event reports: an entry shown, or a slide's datasource widget. */
export type Reported = Play | DatasourcePlay;

const DEFAULT_MS = 10_000;

/** The manifest's files and contents as the timeline resolves them; `fileUrl` maps a file to where it loads from. */
export function manifestResolver(
  manifest: Pick<Manifest, 'files' | 'contents' | 'folders'>,
  now: number,
  fileUrl: (file: MediaFile) => string = (f) => f.url,
): Resolver {
  const file = (id: string): MediaFile | undefined => {
    const f = manifest.files[id];

    return f ? { ...f, url: fileUrl(f) } : undefined;
  };

  return {
    now,
    file,
    folder: (id) => (manifest.folders[id] ?? []).map(file).filter((f): f is MediaFile => f !== undefined),
    content: (id) => playableContent(manifest.contents[id]),
  };
}

const playable = new WeakMap<ManifestContent, EmbeddedContent>();

/**
 * A manifest's content as the renderer plays it: a slide's pages, keyed by name in the manifest (DECISIONS §2), as
 * their list; converted once per manifest (the same object every time). A manifest stored by an older player
 * already holds the list.
 */
function playableContent(content: ManifestContent | undefined): EmbeddedContent | undefined {
  if (!content || content.deviceContentType !== 'content' || isSlideData(content.data)) return content;
  let converted = playable.get(content);
  if (!converted) playable.set(content, (converted = { ...content, data: slideDataOf(content.data as SlideDocument) }));

  return converted;
}

/** A slide plays its pages' durations together (a page without one: 10 s). */
export function slideDurationMs(data: SlideData): number {
  const total = data.pages.reduce((sum, p) => sum + (p.pageData.durationMs ?? DEFAULT_MS), 0);

  return total > 0 ? total : DEFAULT_MS;
}

/** The entries of one content item (a playlist expanded, a slide whole), or none when it is missing. */
export function contentPlays(contentId: string, resolve: Resolver, key: string, durationMs?: number): Play[] {
  const content = resolve.content(contentId);
  if (!content) return [];
  if (content.deviceContentType === 'simpleLoop') {
    return playlistTimeline(content.data as Parameters<typeof playlistTimeline>[0], resolve, { selfId: contentId }).map((e) => ({
      ...e,
      key: `${key}/${e.key}`,
      ownerContentId: contentId,
    }));
  }
  const data = content.data as SlideData;
  if (!data?.pages?.length) return [];

  return [{ key, kind: 'slide', contentId, data, durationMs: durationMs ?? slideDurationMs(data) }];
}

/** One channel item: a file, or content (a MESSAGE item is whichever of the two its id names). */
function itemPlays(channel: ChannelPlay, item: ChannelPlay['items'][number], resolve: Resolver, key: string): Play[] {
  const tag = { campaignId: channel.campaignId, ...(item.messageId !== undefined ? { messageId: item.messageId } : {}) };
  const file = item.type === 'CONTENT' ? undefined : resolve.file(item.id);
  if (file) {
    const video = isVideo(file);

    return [
      { key, kind: video ? 'video' : 'image', file, durationMs: item.durationMs || file.durationMs || DEFAULT_MS, fit: 'contain', ...tag },
    ];
  }

  return contentPlays(item.id, resolve, key, item.durationMs || undefined).map((p) => ({ ...p, ...tag }));
}

/** The items of one turn of `channel` from `cursor`: bounded by its playback slot (no slot: one whole pass). */
function turn(channel: ChannelPlay, cursor: number): number[] {
  const n = channel.items.length;
  const maxItems = channel.playbackSlot?.items ?? n;
  const maxMs = channel.playbackSlot?.durationMs ?? Number.POSITIVE_INFINITY;
  const picked: number[] = [];
  let spent = 0;
  for (let i = 0; i < Math.min(maxItems, n); i++) {
    const index = (cursor + i) % n;
    const d = channel.items[index]!.durationMs;
    if (picked.length > 0 && spent + d > maxMs) break;
    picked.push(index);
    spent += d;
  }

  return picked;
}

/**
 * The loop of channels sharing a screen: turns in saturation order, each turn the channel's next items;
 * the cycle repeats until every channel's cursor is back at its start (at most 100 cycles).
 */
export function channelPlays(channels: readonly ChannelPlay[], resolve: Resolver, keyPrefix = 'ch'): Play[] {
  const playable = channels.filter((c) => c.items.length > 0);
  const turns = saturationTurns(playable);
  const byId = new Map(playable.map((c) => [c.campaignId, c]));
  const cursors = new Map(playable.map((c) => [c.campaignId, 0]));
  const plays: Play[] = [];
  let turnNo = 0;
  for (let cycle = 0; cycle < 100 && turns.length > 0; cycle++) {
    for (const id of turns) {
      const channel = byId.get(id)!;
      const indexes = turn(channel, cursors.get(id)!);
      turnNo++;
      for (const index of indexes)
        plays.push(...itemPlays(channel, channel.items[index]!, resolve, `${keyPrefix}/${turnNo}/${id}/${index}`));
      cursors.set(id, (cursors.get(id)! + indexes.length) % channel.items.length);
    }
    if ([...cursors.values()].every((c) => c === 0)) break;
  }

  return plays;
}

/** What a segment plays full screen. */
export function segmentPlays(segment: Segment, resolve: Resolver): Play[] {
  if (segment.layer === 'NONE') return [];
  if (segment.layer === 'CHANNELS') return channelPlays(segment.channels, resolve);
  if (!segment.content) return [];

  return contentPlays(segment.content.id, resolve, segment.content.id);
}

/** The channels a slide's channel widget plays: those whose tags include every tag of the widget. */
function channelsForWidget(channels: readonly ChannelPlay[], tags: readonly string[]): ChannelPlay[] {
  return channels.filter((c) => tags.every((t) => c.tags.includes(t)));
}

/**
 * What a slide's channel or playlist widget plays in its box (a nested loop), each entry reporting the widget's
 * key (spec 4 §5 `widgetKey`); the innermost widget names a play shown in nested widgets.
 */
export function widgetPlays(
  widget: Extract<Widget, { type: 'channel' | 'playlist' }>,
  channels: readonly ChannelPlay[],
  resolve: Resolver,
): Play[] {
  const plays =
    widget.type === 'channel'
      ? channelPlays(channelsForWidget(channels, widget.tags), resolve, `w/${widget.id}`)
      : contentPlays(widget.simpleLoopId, resolve, `w/${widget.id}`);

  return plays.map((p) => ({ ...p, widgetKey: widget.id }));
}

/**
 * The play of a slide's image or video widget: its file, reported with the widget's key. It names neither the
 * slide nor its channel, which the slide's own play counts already (the same show counted twice otherwise).
 */
export function fileWidgetPlay(
  widget: Extract<Widget, { type: 'image' | 'video' }>,
  resolve: Resolver,
  durationMs: number,
): Play | undefined {
  const file = resolve.file(widget.fileId);

  return file
    ? { key: `w/${widget.id}`, kind: widget.type, file, durationMs, fit: widget.fit ?? 'contain', widgetKey: widget.id }
    : undefined;
}

/**
 * The play of a slide's datasource widget: the widget's key only. Like a file widget's play it names neither the slide
 * nor its channel (the slide's own play counts that show); and a datasource is neither a file nor content, the only
 * items a play event names (the server checks those ids against the tenant's). A widget without a datasource shows
 * its placeholder and plays nothing.
 */
export function datasourcePlay(widget: DatasourceWidget): DatasourcePlay | undefined {
  return widget.datasourceId ? { key: `w/${widget.id}`, kind: 'datasource', widgetKey: widget.id } : undefined;
}
