import type { Page, SlideData, Widget } from '@/server/modules/content/content-data.schemas';
import type { DatasourceFeed } from '@/lib/player/datasource-widget';
import type { ChannelPlay } from '@/server/modules/display/display.schemas';
import { objectFit, scaleToFit } from '@/lib/player/layout';
import { renderPage } from '@/lib/player/render';
import type { Resolver } from '@/lib/player/timeline';
import { loopPosition } from './clock';
import { datasourcePlay, fileWidgetPlay, slideDurationMs, widgetPlays, type Play, type Reported } from './plan';

/*
 * Plays a loop of entries (player/plan.ts) full size in an element, in step with the server's clock: the
 * entry and the offset into it are read from the loop's anchor (the segment's start) at every switch, so
 * screens agree and drift is corrected. Two layers: the next entry is built (and a video loaded) behind the
 * current one and revealed once it has a frame, so there is no black gap. A video whose time stops moving
 * for 15 s is skipped. Slides are drawn by lib/player/render.ts; their channel and playlist widgets get
 * a nested stage. Each entry shown is reported (proof of play) when it ends, from its first frame; what a slide's
 * widgets show is reported with the widget's key: the entries of its nested stage, and, for each page shown (cut
 * where the page or the slide's entry ends), the file of an image or video widget and a datasource widget that had
 * its data.
 */

export const STALL_MS = 15_000;
/** How long a web page may take to load before it is blanked. */
const WEB_PAGE_TIMEOUT_MS = 20_000;

export type PlayHooks = {
  /** The server's clock (epoch ms). */
  now: () => number;
  /**
   * An entry (or a slide's datasource widget) ended: it was visible from `startedAt` to `endedAt` (server clock);
   * `completed` when it ran its slot.
   */
  played: (play: Reported, startedAt: number, endedAt: number, completed: boolean) => void;
  /** The entry now due (the heartbeat's `currentItem`); it is revealed once it has a frame. */
  showing?: (play: Play) => void;
  /** The entry's layer was revealed (`shown`: it has a frame; otherwise its wait ran out): it is painted from the next frame. */
  revealed?: (play: Play, shown: boolean) => void;
  /** The playback settings (volume 0–100). */
  volume?: () => number;
};

/** Whether a video has stopped: its time unchanged for STALL_MS (an ended video is not stalled). */
export class StallWatch {
  private last = Number.NaN;

  constructor(private since: number) {}

  stalled(currentTime: number, ended: boolean, now: number): boolean {
    if (ended || currentTime !== this.last) {
      this.last = currentTime;
      this.since = now;

      return false;
    }

    return now - this.since >= STALL_MS;
  }
}

/**
 * `ready` answers whether the entry has a frame to show (false: its file failed to load); `cut` reports what a
 * slide's file widgets showed until the entry's end.
 */
type Layer = {
  play: Play;
  element: HTMLElement;
  stop: () => void;
  ready: Promise<boolean>;
  video?: HTMLVideoElement;
  cut?: (endedAt: number, completed: boolean) => void;
};
/** The entry on screen: its slot began at `startedAt`; `shownAt` is when it had its first frame, if it has had one. */
type Current = Layer & { startedAt: number; index: number; shownAt?: number };

/**
 * What an entry's play event covers: from its slot's start or its first frame, whichever is later, to its end.
 * Nothing when it never had a frame (a file still loading when its slot ended, or one that failed): proof of
 * play counts what was seen.
 */
export function shownSpan(
  startedAt: number,
  shownAt: number | undefined,
  endedAt: number,
): { startedAt: number; endedAt: number } | undefined {
  if (shownAt === undefined || shownAt >= endedAt) return undefined;

  return { startedAt: Math.max(startedAt, shownAt), endedAt };
}

/**
 * A widget of a slide page that reports a play of its own (an image, video or datasource widget): since when it has
 * had something to show (its file's first frame, its datasource's document), and until when it was reported.
 */
export class WidgetShow {
  private readyAt: number | undefined;
  private reportedUntil: number | undefined;

  constructor(readonly play: Reported) {}

  /** It has something to show from `at` on (the first time counts). */
  ready(at: number): void {
    this.readyAt ??= at;
  }

  /**
   * What to report until `endedAt` of its page on screen since `revealedAt`: from when it was ready, not before the
   * reveal nor before its last report (a slide that stays on screen is reported loop by loop). Nothing for a page
   * never revealed (built ahead) or a widget that never had anything to show.
   */
  cut(revealedAt: number | undefined, endedAt: number): { startedAt: number; endedAt: number } | undefined {
    if (revealedAt === undefined) return undefined;
    const span = shownSpan(Math.max(revealedAt, this.reportedUntil ?? revealedAt), this.readyAt, endedAt);
    this.reportedUntil = endedAt;

    return span;
  }
}

/**
 * Follows a page's datasource widgets: each is ready once its datasource's document is present (at once when the
 * feed holds it, else when it arrives); a widget whose datasource has no document shows its placeholder and plays
 * nothing. Answers their shows and the function that stops following.
 */
export function watchDatasourceWidgets(
  widgets: readonly Widget[],
  feed: DatasourceFeed | undefined,
  now: () => number,
): { shows: WidgetShow[]; stop: () => void } {
  const shows: WidgetShow[] = [];
  const unsubscribes: (() => void)[] = [];
  for (const widget of widgets) {
    const play = widget.type === 'datasource' ? datasourcePlay(widget) : undefined;
    const id = widget.type === 'datasource' ? widget.datasourceId : undefined;
    if (!play || !id || !feed) continue;
    const show = new WidgetShow(play);
    const check = () => feed.read(id) !== undefined && show.ready(now());
    check();
    unsubscribes.push(feed.subscribe(id, check));
    shows.push(show);
  }

  return { shows, stop: () => unsubscribes.forEach((unsubscribe) => unsubscribe()) };
}

function box(doc: Document): HTMLElement {
  const node = doc.createElement('div');
  Object.assign(node.style, { position: 'absolute', inset: '0', overflow: 'hidden' });

  return node;
}

export class Stage {
  private plays: readonly Play[] = [];
  private anchor = 0;
  private current: Current | undefined;
  private prepared: (Layer & { index: number }) | undefined;
  /** Layers replaced but still on screen until the new one has a frame. */
  private leaving: Layer[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private watchdog: ReturnType<typeof setInterval> | undefined;
  private signature = '';
  private stopped = false;
  /** When each layer was revealed: a slide's file widget counts from then at the earliest. */
  private readonly revealedAt = new WeakMap<HTMLElement, number>();

  constructor(
    private readonly root: HTMLElement,
    private readonly hooks: PlayHooks,
    private readonly context: {
      resolve: () => Resolver;
      channels: () => readonly ChannelPlay[];
      timeZone?: () => string | undefined;
      /** The data slides' datasource widgets show (player/datasources.ts). */
      datasources?: DatasourceFeed;
      depth?: number;
    } = {
      resolve: () => ({ now: 0, file: () => undefined, folder: () => [], content: () => undefined }),
      channels: () => [],
    },
  ) {}

  /**
   * Plays `plays` as a loop anchored at `anchor`. The same loop again (same keys, durations and sources)
   * keeps playing untouched: a new manifest that changes nothing visible causes no hiccup.
   */
  load(plays: readonly Play[], anchor: number): void {
    const signature = JSON.stringify([anchor, plays.map((p) => [p.key, p.durationMs, 'file' in p ? p.file.id : p.contentId])]);
    if (signature === this.signature && this.current) {
      this.plays = plays;
      return;
    }
    this.stopped = false;
    this.signature = signature;
    this.plays = plays;
    this.anchor = anchor;
    this.discardPrepared();
    this.advance();
  }

  /** Ends what plays (reported as not completed) and clears the element. */
  stop(): void {
    this.stopped = true;
    this.clearTimers();
    this.discardPrepared();
    this.finishCurrent(false);
    for (const layer of [...this.leaving, ...(this.current ? [this.current] : [])]) layer.stop();
    this.leaving = [];
    this.current = undefined;
    this.root.replaceChildren();
    this.signature = '';
  }

  /** The `<video>` elements playing now (volume changes). */
  videos(): HTMLVideoElement[] {
    return [...this.root.querySelectorAll('video')];
  }

  private clearTimers(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.watchdog) clearInterval(this.watchdog);
    this.timer = undefined;
    this.watchdog = undefined;
  }

  private discardPrepared(): void {
    this.prepared?.stop();
    this.prepared?.element.remove();
    this.prepared = undefined;
  }

  private finishCurrent(completed: boolean): void {
    if (this.current) this.report(this.current, this.hooks.now(), completed);
  }

  private report(entry: Current, endedAt: number, completed: boolean): void {
    const span = shownSpan(entry.startedAt, entry.shownAt, endedAt);
    if (span) this.hooks.played(entry.play, span.startedAt, span.endedAt, completed);
    entry.cut?.(endedAt, completed);
  }

  /** Shows what the clock says plays now; `skipped`: the current entry ends early (a stalled video). */
  private advance(skipped = false): void {
    if (this.stopped) return;
    this.clearTimers();
    const now = this.hooks.now();
    const at = loopPosition(
      this.plays.map((p) => p.durationMs),
      this.anchor,
      now,
    );
    if (!at) {
      this.finishCurrent(false);
      this.current?.stop();
      this.current?.element.remove();
      this.current = undefined;
      return;
    }
    let { index, offsetMs } = at;
    // A skipped entry that the clock still shows: go on to the next one.
    if (skipped && this.current && index === this.current.index && this.plays.length > 1) {
      offsetMs = 0;
      index = (index + 1) % this.plays.length;
    }
    const remaining = skipped && offsetMs === 0 ? this.plays[index]!.durationMs : this.plays[index]!.durationMs - offsetMs;
    // Same entry still due (a one-item loop, or a reload of an equal loop): let it go on.
    if (
      this.current &&
      this.current.index === index &&
      this.current.play.key === this.plays[index]!.key &&
      !skipped &&
      this.plays.length === 1
    ) {
      this.finishCurrent(true);
      this.current.startedAt = now;
      this.restartMedia(this.current);
      this.schedule(remaining);
      return;
    }
    const layer =
      this.prepared && this.prepared.index === index && this.prepared.play.key === this.plays[index]!.key
        ? this.prepared
        : { ...this.build(this.plays[index]!), index };
    this.prepared = undefined;
    const previous = this.current;
    if (!layer.element.isConnected) {
      layer.element.style.visibility = 'hidden';
      this.root.appendChild(layer.element);
    }
    if (layer.video) this.startVideo(layer.video, offsetMs);
    if (previous) this.leaving.push(previous);
    const reveal = (shown: boolean) => {
      // Superseded meanwhile: the newer layer's reveal removes what is leaving.
      if (this.stopped || this.current?.element !== layer.element) return;
      layer.element.style.visibility = 'visible';
      layer.element.style.zIndex = '1';
      this.revealedAt.set(layer.element, this.hooks.now());
      for (const old of this.leaving) {
        old.stop();
        old.element.remove();
      }
      this.leaving = [];
      this.hooks.revealed?.(layer.play, shown);
    };
    if (previous) this.report(previous, now, !skipped);
    const entry: Current = { ...layer, startedAt: now, index };
    this.current = entry;
    void layer.ready.then((shown) => {
      if (shown) entry.shownAt ??= this.hooks.now();
    });
    layer.element.dataset.state = 'current';
    if (previous) previous.element.dataset.state = 'leaving';
    // Wait (at most a second) for a frame before the old layer goes: no black gap between items.
    void Promise.race([layer.ready, new Promise<boolean>((r) => setTimeout(r, 1_000, false))]).then(reveal);
    this.hooks.showing?.(this.current.play);
    this.schedule(remaining);
    if (layer.video) this.watch(layer.video);
    this.prepareNext((index + 1) % this.plays.length);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => this.advance(), Math.max(50, ms));
  }

  private restartMedia(layer: Layer): void {
    if (layer.video) this.startVideo(layer.video, 0);
  }

  private startVideo(video: HTMLVideoElement, offsetMs: number): void {
    video.muted = (this.hooks.volume?.() ?? 0) === 0;
    video.volume = Math.min(1, Math.max(0, (this.hooks.volume?.() ?? 0) / 100));
    // Join a loop already under way at the clock's position (screens in step); a start is from the top.
    if (offsetMs > 1_000) {
      const seek = () => {
        if (Number.isFinite(video.duration) && offsetMs / 1000 < video.duration) video.currentTime = offsetMs / 1000;
      };
      if (video.readyState >= 1) seek();
      else video.addEventListener('loadedmetadata', seek, { once: true });
    } else if (video.currentTime > 0) {
      video.currentTime = 0;
    }
    video.play().catch(() => {
      // Autoplay with sound refused: muted always plays.
      video.muted = true;
      void video.play().catch(() => undefined);
    });
  }

  /** Skips a video whose time has not moved for STALL_MS while it should play (ended is not stalled). */
  private watch(video: HTMLVideoElement): void {
    const watch = new StallWatch(Date.now());
    this.watchdog = setInterval(() => {
      if (watch.stalled(video.currentTime, video.ended, Date.now())) this.advance(true);
    }, 1_000);
  }

  private prepareNext(index: number): void {
    if (this.plays.length < 2) return;
    const play = this.plays[index]!;
    if (this.current?.play.key === play.key) return;
    const layer = { ...this.build(play), index };
    layer.element.style.visibility = 'hidden';
    layer.element.dataset.state = 'next';
    this.root.appendChild(layer.element);
    this.prepared = layer;
  }

  private build(play: Play): Layer {
    const doc = this.root.ownerDocument;
    const element = box(doc);
    element.className = 'layer';
    element.dataset.key = play.key;
    element.dataset.kind = play.kind;
    if (play.kind === 'slide') return { play, element, ...this.buildSlide(element, play.data), ready: Promise.resolve(true) };
    element.dataset.fileId = play.file.id;
    if (play.kind === 'image') {
      const img = doc.createElement('img');
      Object.assign(img.style, { width: '100%', height: '100%', objectFit: objectFit(play.fit), display: 'block' });
      img.alt = play.file.name ?? '';
      img.dataset.fileId = play.file.id;
      img.src = play.file.url;
      element.appendChild(img);
      const loaded = new Promise<boolean>((resolve) => {
        img.addEventListener('load', () => resolve(true), { once: true });
        img.addEventListener('error', () => resolve(false), { once: true });
      });
      // decode(): paintable without a blank frame. A refused decode (browsers refuse some very large images) of a
      // file that loaded still shows, so it still counts.
      const ready = img.decode().then(
        () => true,
        () => loaded,
      );

      return { play, element, stop: () => undefined, ready };
    }
    const video = doc.createElement('video');
    Object.assign(video.style, { width: '100%', height: '100%', objectFit: objectFit(play.fit), display: 'block' });
    video.muted = true;
    video.playsInline = true;
    video.preload = 'auto';
    video.dataset.fileId = play.file.id;
    video.src = play.file.url;
    element.appendChild(video);
    const ready = new Promise<boolean>((resolve) => {
      video.addEventListener('playing', () => resolve(true), { once: true });
      video.addEventListener('error', () => resolve(false), { once: true });
    });
    // A video that cannot load is skipped at once rather than showing nothing for its slot.
    video.addEventListener('error', () => {
      if (this.current?.element === element) this.advance(true);
    });

    return {
      play,
      element,
      video,
      ready,
      stop: () => {
        video.pause();
        video.removeAttribute('src');
        video.load();
      },
    };
  }

  /** A slide, its pages one after another by their durations, scaled into the stage. */
  private buildSlide(element: HTMLElement, data: SlideData): Pick<Layer, 'stop' | 'cut'> {
    const doc = this.root.ownerDocument;
    let page: Pick<Layer, 'stop' | 'cut'> | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const show = (i: number) => {
      page?.cut?.(this.hooks.now(), true);
      page?.stop();
      const spec = data.pages[i]!;
      page = this.renderSlidePage(doc, element, spec);
      if (data.pages.length > 1)
        timer = setTimeout(() => show((i + 1) % data.pages.length), spec.pageData.durationMs ?? slideDurationMs({ pages: [spec] }));
    };
    show(0);

    return {
      stop: () => {
        if (timer) clearTimeout(timer);
        page?.stop();
      },
      cut: (endedAt, completed) => page?.cut?.(endedAt, completed),
    };
  }

  /** Follows when the file of a slide's image or video widget has a frame. */
  private watchWidgetFile(play: Play, media: HTMLImageElement | HTMLVideoElement): WidgetShow {
    const show = new WidgetShow(play);
    const ready = () => show.ready(this.hooks.now());
    if (media.tagName === 'VIDEO') media.addEventListener('playing', ready, { once: true });
    else if ((media as HTMLImageElement).complete && (media as HTMLImageElement).naturalWidth > 0) ready();
    else media.addEventListener('load', ready, { once: true });

    return show;
  }

  /**
   * Reports a widget of the slide in `holder` (`WidgetShow`) as shown until `endedAt`; nothing for a slide built
   * ahead and never shown.
   */
  private cutWidget(holder: HTMLElement, show: WidgetShow, endedAt: number, completed: boolean): void {
    const revealed = holder.style.visibility === 'hidden' ? undefined : this.revealedAt.get(holder);
    const span = show.cut(revealed, endedAt);
    if (span) this.hooks.played(show.play, span.startedAt, span.endedAt, completed);
  }

  private renderSlidePage(doc: Document, holder: HTMLElement, spec: Page): Pick<Layer, 'stop' | 'cut'> {
    const resolve = this.context.resolve();
    const { element, stop } = renderPage(doc, spec, {
      fileUrl: (id) => resolve.file(id)?.url ?? '',
      muted: (this.hooks.volume?.() ?? 0) === 0,
      timeZone: this.context.timeZone?.(),
      datasources: this.context.datasources,
      now: this.hooks.now,
    });
    const fit = () => {
      const { scale, offsetX, offsetY } = scaleToFit(spec.pageData.screenSize, {
        width: holder.clientWidth || this.root.clientWidth,
        height: holder.clientHeight || this.root.clientHeight,
      });
      Object.assign(element.style, {
        position: 'absolute',
        left: '0',
        top: '0',
        transformOrigin: '0 0',
        transform: `translate(${offsetX}px, ${offsetY}px) scale(${scale})`,
      });
    };
    holder.replaceChildren(element);
    fit();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(fit);
    observer?.observe(holder);
    const nested: Stage[] = [];
    const shows: WidgetShow[] = [];
    const datasourceWidgets: Widget[] = [];
    const timers: ReturnType<typeof setTimeout>[] = [];
    const depth = this.context.depth ?? 0;
    for (const widget of spec.widgets ?? []) {
      const node = element.querySelector<HTMLElement>(`[data-widget-id="${CSS.escape(widget.id)}"]`);
      if (!node) continue;
      if ((widget.type === 'channel' || widget.type === 'playlist') && depth < 3) {
        const plays = widgetPlays(widget, this.context.channels(), resolve);
        node.replaceChildren();
        node.style.backgroundColor = widget.style?.backgroundColor ?? '';
        // A slide built ahead (hidden, next) plays its widgets already; what they show then is not proof of play.
        const hooks: PlayHooks = { ...this.hooks, played: (...args) => holder.style.visibility !== 'hidden' && this.hooks.played(...args) };
        const stage = new Stage(node, hooks, { ...this.context, depth: depth + 1 });
        stage.load(plays, this.anchor);
        nested.push(stage);
      } else if (widget.type === 'image' || widget.type === 'video') {
        const play = fileWidgetPlay(widget, resolve, spec.pageData.durationMs ?? slideDurationMs({ pages: [spec] }));
        const media = node.querySelector<HTMLImageElement | HTMLVideoElement>('img, video');
        if (play && media) shows.push(this.watchWidgetFile(play, media));
      } else if (widget.type === 'datasource') {
        datasourceWidgets.push(widget);
      } else if (widget.type === 'webPage') {
        const frame = node.querySelector('iframe');
        if (frame) {
          let loaded = false;
          frame.addEventListener('load', () => (loaded = true));
          timers.push(setTimeout(() => !loaded && frame.replaceWith(doc.createElement('div')), WEB_PAGE_TIMEOUT_MS));
        }
      }
    }
    const datasourceShows = watchDatasourceWidgets(datasourceWidgets, this.context.datasources, this.hooks.now);
    shows.push(...datasourceShows.shows);

    return {
      stop: () => {
        observer?.disconnect();
        timers.forEach(clearTimeout);
        datasourceShows.stop();
        nested.forEach((s) => s.stop());
        stop();
      },
      cut: (endedAt, completed) => shows.forEach((show) => this.cutWidget(holder, show, endedAt, completed)),
    };
  }
}
