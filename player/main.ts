import type { Manifest } from '@/server/modules/display/display.schemas';
import { DeviceApi, HttpError, PLAYER_VERSION, register, type Credentials, type Status } from './api';
import { ServerClock, segmentAt } from './clock';
import { Connection, type Ack, type Command } from './connection';
import { DatasourceStore, listedDatasources } from './datasources';
import { captureScreen, type Capture } from './capture';
import { ManifestSwitch, PREFETCH_WAIT_MS } from './manifest-switch';
import { mediaKey, type FileRef } from './media-cache';
import { manifestResolver, segmentPlays, type Play, type Reported } from './plan';
import { nextBatch, playEvent, uuid4 } from './pop-batch';
import { PowerSchedule, type WorkingHours } from './power';
import { qrSvg } from './qr';
import {
  commandDuration,
  dispatchSensorEvent,
  previewPlays,
  PREVIEW,
  TimedOverlay,
  TOAST,
  toastText,
  WEB_PAGE,
  webPage,
} from './screen-commands';
import { Stage } from './stage';
import { PlayerStore } from './store';

/*
 * The web player (`/player/`): registers once (credentials in IndexedDB), shows its activation code with a
 * QR code that opens the console's "Add a screen" dialog, and once claimed plays its manifest in step with
 * the server's clock, reports what it played, honours the commands a browser can and keeps going offline
 * until the manifest's `validUntil` (the service worker, player/sw.ts, holds the player and the media).
 */

const base = location.origin;
const clock = new ServerClock();
const log: string[] = [];
function note(message: string): void {
  log.push(`${new Date().toISOString()} ${message}`);
  if (log.length > 200) log.shift();
}

/**
 * Marks of the way from claim to picture (`player:claimed`, `player:manifest`, `player:first-frame`, the last
 * one on the frame that paints the first item) for `npm run bench:player`; each is set once per page.
 */
function markOnce(name: string, onNextFrame = false): void {
  if (performance.getEntriesByName(name, 'mark').length > 0) return;
  if (onNextFrame) requestAnimationFrame(() => markOnce(name));
  else performance.mark(name);
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

type Settings = {
  volume?: number;
  brightness?: number;
  rotation?: { angle?: number };
  display?: boolean;
  showName?: boolean;
  workingHours?: WorkingHours;
  rebootTime?: string;
};

class Player {
  private manifest: Manifest | undefined;
  private etag: string | undefined;
  private settings: Settings = {};
  private readonly stage: Stage;
  private segmentTimer: ReturnType<typeof setTimeout> | undefined;
  private anchorOf: { signature: string; anchor: number } | undefined;
  private showing: Play | undefined;
  private name = '';
  private uploading = false;
  private fetching: Promise<void> | undefined;
  private frames = 0;
  private framesSince = performance.now();
  private paused = false;
  /** Outside the working hours: the screen is black and nothing plays (so no proof of play either). */
  private offHours = false;
  /** Working hours and the daily reboot, on the minute, in the manifest's time zone (player/power.ts). */
  private readonly power = new PowerSchedule({
    now: () => clock.now(),
    setTimer: (fn, ms) => setTimeout(fn, Math.min(Math.max(0, ms), 2 ** 31 - 1)),
    clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
    working: (on) => {
      note(on ? 'working hours: on' : 'outside working hours: off');
      this.offHours = !on;
      document.body.dataset.power = on ? 'on' : 'off';
      this.applySettings();
      if (on) {
        this.play();
      } else {
        clearTimeout(this.segmentTimer);
        this.stage.stop();
      }
    },
    reboot: () => {
      note('daily reboot');
      location.reload();
    },
    warn: note,
  });
  /** The service worker holds this manifest's file list: media may be asked of it (player/sw.ts). */
  private swReady = false;
  /** A new manifest is switched to once its files are in the worker's cache (player/manifest-switch.ts). */
  private readonly switcher = new ManifestSwitch<Manifest>({
    current: () => this.manifest,
    now: () => clock.now(),
    canPrefetch: () => Boolean(navigator.serviceWorker?.controller),
    prefetch: async (next) => {
      note(`downloading the files of manifest ${next.etag}`);
      await swRequest({ type: 'prefetch', files: fileRefs(next), keep: this.manifest ? fileRefs(this.manifest) : [] }, PREFETCH_WAIT_MS);
    },
    apply: async (next) => {
      this.apply(next);
      note(`manifest ${next.etag}`);
      await this.store.set('manifest', next).catch((err: unknown) => note(`storing the manifest failed: ${String(err)}`));
    },
    prune: (playing, waiting) => this.syncServiceWorker(playing, waiting),
  });

  /** The data of the datasources the contents show; slides' datasource widgets read it and redraw on its changes. */
  readonly datasources: DatasourceStore;

  /** `showToast`: a message over the content, `loadUrl`: a web page over it, each for its time (player/screen-commands.ts). */
  private readonly toast = new TimedOverlay<string>((text) => {
    const node = $('toast');
    node.textContent = text ?? '';
    node.hidden = !text;
  });
  private readonly webPage = new TimedOverlay<{ url: string; sandbox: string }>((page) => {
    $('screen').querySelector('.web-overlay')?.remove();
    if (!page) return;
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', page.sandbox);
    frame.allow = 'autoplay';
    frame.referrerPolicy = 'no-referrer';
    frame.className = 'web-overlay';
    frame.src = page.url;
    $('screen').appendChild(frame);
  });
  /** `previewContent`: the content plays instead of the schedule for its time, from `anchor`; then the schedule again. */
  private readonly preview = new TimedOverlay<{ contentId: string; anchor: number }>(() => this.play());

  constructor(
    private readonly api: DeviceApi,
    private readonly store: PlayerStore,
  ) {
    this.datasources = new DatasourceStore({ api, store, note });
    this.stage = new Stage(
      $('stage'),
      {
        now: () => clock.now(),
        played: (play, startedAt, endedAt, completed) => void this.played(play, startedAt, endedAt, completed),
        showing: (play) => {
          this.showing = play;
          document.body.dataset.playing = play.key;
        },
        revealed: (_play, shown) => {
          if (shown) markOnce('player:first-frame', true);
        },
        volume: () => this.settings.volume ?? 0,
      },
      {
        resolve: () => this.resolver(),
        channels: () => (this.manifest ? (segmentAt(this.manifest.segments, clock.now())?.channels ?? []) : []),
        // Clocks on slides show the screen's time zone.
        timeZone: () => this.manifest?.timeZone,
        datasources: this.datasources,
      },
    );
  }

  async start(status: Status): Promise<void> {
    this.name = status.name ?? '';
    const saved = await this.store.get<Manifest>('manifest');
    // The last data first: the saved manifest's datasource widgets show it from their first frame, even offline.
    await this.datasources.restore().catch((err: unknown) => note(`restoring datasources failed: ${String(err)}`));
    // Nothing plays yet: the saved manifest is switched to at once (synchronously, before the read below).
    if (saved && saved.validUntil > clock.now()) void this.switcher.offer(saved);
    await this.fetchManifest();
    setInterval(() => void this.upload(), 15_000);
    setInterval(() => void this.fetchManifest(), 10 * 60_000);
    setTimeout(() => void this.metrics(), 10_000);
    setInterval(() => void this.metrics(), 60_000);
    const count = () => {
      this.frames++;
      requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
    window.addEventListener('online', () => void this.upload());
    // A reload or a closed tab ends what plays: its play is queued (as cut short) if the page lives long enough.
    window.addEventListener('pagehide', () => this.stage.stop());
    window.addEventListener('pageshow', (event) => event.persisted && this.play());
    navigator.serviceWorker?.addEventListener('controllerchange', () => this.manifest && void this.syncServiceWorker(this.manifest));
  }

  /**
   * Hands the playing manifest's files to the service worker (it caches them and drops the files of neither it
   * nor `waiting`, a newer manifest still downloading); from then on media is asked of it.
   */
  private async syncServiceWorker(manifest: Manifest, waiting?: Manifest): Promise<void> {
    if (!navigator.serviceWorker?.controller) return;
    await swRequest({ type: 'manifest', files: fileRefs(manifest), keep: waiting ? fileRefs(waiting) : [] });
    if (this.manifest !== manifest || this.swReady) return;
    this.swReady = true;
    document.body.dataset.offlineReady = 'true';
    // The same loop with other URLs: the stage keeps playing; items built from now on come from the cache.
    this.play();
  }

  /**
   * GET the manifest (If-None-Match: the newest known, playing or downloading); a failure keeps the last one,
   * which plays until `validUntil`. A new one is switched to once its files are cached (not awaited here).
   */
  fetchManifest(force = false): Promise<void> {
    this.fetching ??= (async () => {
      try {
        const newest = this.switcher.newestEtag();
        const res = await this.api.call('GET', '/api/display/manifest', {
          headers: newest && !force ? { 'if-none-match': `"${newest}"` } : {},
        });
        if (res.status === 304) return;
        if (!res.ok) throw new HttpError(res.status, await res.text());
        const manifest = (await res.json()) as Manifest;
        // Its data is read while its files download; what the playing manifest shows is kept until the switch.
        void this.datasources.update(listedDatasources(this.manifest, manifest));
        void this.switcher.offer(manifest);
      } catch (err) {
        note(`manifest failed: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        this.fetching = undefined;
      }
    })();

    return this.fetching;
  }

  /** A new ETag was announced (socket or heartbeat). */
  etagChanged(etag: string): void {
    if (etag !== this.switcher.newestEtag()) void this.fetchManifest();
  }

  private resolver() {
    const manifest = this.manifest;
    if (!manifest) return manifestResolver({ files: {}, contents: {}, folders: {} }, clock.now());
    const cached =
      this.swReady && navigator.serviceWorker?.controller
        ? (f: { id: string }) => mediaPath(f.id, manifest.files[f.id]?.crcCheckSum ?? '')
        : undefined;

    return manifestResolver(manifest, clock.now(), cached);
  }

  private apply(manifest: Manifest): void {
    markOnce('player:manifest');
    this.manifest = manifest;
    void this.datasources.update(listedDatasources(manifest));
    this.etag = manifest.etag;
    document.body.dataset.manifestEtag = manifest.etag;
    this.settings = manifest.settings as Settings;
    this.applySettings();
    this.power.update({ workingHours: this.settings.workingHours, rebootTime: this.settings.rebootTime }, manifest.timeZone);
    this.play();
  }

  /** Plays the segment the clock is in, and comes back at its end. */
  private play(): void {
    clearTimeout(this.segmentTimer);
    const manifest = this.manifest;
    const preview = this.preview.value;
    if (!manifest || (this.paused && !preview) || this.offHours) return;
    const now = clock.now();
    if (now >= manifest.validUntil) {
      this.stage.stop();
      $('message').textContent = 'Waiting for the server';
      return;
    }
    if (preview) {
      // Read again from the manifest that plays now (a new one may have come meanwhile); gone from it: back to the schedule.
      const found = previewPlays(manifest, { contentId: preview.contentId }, this.resolver());
      if ('plays' in found) {
        $('message').textContent = '';
        this.stage.load(found.plays, preview.anchor);
        return;
      }
      note(`preview of ${preview.contentId} ended: ${found.error}`);
      this.preview.hide();
      return;
    }
    const segment = segmentAt(manifest.segments, now);
    const plays = segment ? segmentPlays(segment, this.resolver()) : [];
    $('message').textContent = plays.length === 0 ? 'Nothing to play' : '';
    document.body.dataset.layer = segment?.layer ?? 'NONE';
    // The loop's anchor: the segment's start; a segment already under way when the manifest was made began
    // at an unknown instant, so its loop is counted from the UTC midnight before (the same on every screen).
    // The loop that plays keeps its anchor when a new manifest shows the same loop (no hiccup).
    const signature = JSON.stringify([segment?.layer, segment?.content?.id, plays.map((p) => [p.key, p.durationMs])]);
    let anchor = segment ? (segment.from > manifest.generatedAt ? segment.from : Math.floor(now / 86_400_000) * 86_400_000) : now;
    if (this.anchorOf?.signature === signature) anchor = this.anchorOf.anchor;
    this.anchorOf = { signature, anchor };
    this.stage.load(plays, anchor);
    const until = Math.min(segment?.to ?? manifest.validUntil, manifest.validUntil);
    this.segmentTimer = setTimeout(() => this.play(), Math.min(Math.max(100, until - now), 2 ** 31 - 1));
  }

  private applySettings(): void {
    const s = this.settings;
    const brightness = typeof s.brightness === 'number' ? Math.min(100, Math.max(0, s.brightness)) : 100;
    $('dim').style.opacity = String(1 - brightness / 100);
    $('blackout').hidden = s.display !== false && !this.offHours;
    const angle = Number(s.rotation?.angle ?? 0) % 360;
    const screen = $('screen');
    screen.dataset.rotation = String(angle);
    if (angle === 90 || angle === 270) {
      Object.assign(screen.style, {
        width: '100vh',
        height: '100vw',
        transform: `translate(-50%, -50%) rotate(${angle}deg)`,
        left: '50%',
        top: '50%',
      });
    } else {
      Object.assign(screen.style, {
        width: '100vw',
        height: '100vh',
        transform: angle ? `translate(-50%, -50%) rotate(${angle}deg)` : 'translate(-50%, -50%)',
        left: '50%',
        top: '50%',
      });
    }
    const label = $('name');
    label.textContent = this.name;
    label.hidden = s.showName !== true;
    for (const video of this.stage.videos()) {
      video.volume = Math.min(1, Math.max(0, (s.volume ?? 0) / 100));
      video.muted = (s.volume ?? 0) === 0;
    }
  }

  private async played(play: Reported, startedAt: number, endedAt: number, completed: boolean): Promise<void> {
    if (endedAt <= startedAt) return;
    const event = playEvent(play, { startedAt, endedAt, completed }, uuid4());
    await this.store.enqueue(event).catch((err: unknown) => note(`queue failed: ${String(err)}`));
  }

  /** Uploads the queue in NDJSON batches until it is empty or the server is out of reach. */
  async upload(): Promise<void> {
    if (this.uploading) return;
    this.uploading = true;
    try {
      for (;;) {
        const batch = nextBatch(await this.store.oldest(500));
        if (!batch) return;
        const res = await this.api.call('POST', '/api/display/proofOfPlay', { body: batch.body, contentType: 'application/x-ndjson' });
        if (res.status !== 202) {
          note(`proof of play answered ${res.status}`);
          return;
        }
        const result = (await res.json()) as { accepted: number; duplicates: number; rejected: unknown[] };
        if (result.rejected.length > 0) note(`proof of play rejected ${JSON.stringify(result.rejected).slice(0, 500)}`);
        await this.store.remove(batch.keys);
        document.body.dataset.uploaded = String(Number(document.body.dataset.uploaded ?? 0) + result.accepted);
      }
    } catch (err) {
      note(`proof of play upload failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.uploading = false;
    }
  }

  /** What the browser can measure: frame rate, JavaScript memory, bytes loaded, server round trip. */
  private async metrics(): Promise<void> {
    const now = clock.now();
    const seconds = (performance.now() - this.framesSince) / 1000;
    const samples: { type: string; timestamp: number; value: number }[] = [
      { type: 'FPS', timestamp: now, value: seconds > 0 ? Math.round(this.frames / seconds) : 0 },
    ];
    this.frames = 0;
    this.framesSince = performance.now();
    const memory = (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory;
    if (memory) samples.push({ type: 'USED_APP_MEM', timestamp: now, value: memory.usedJSHeapSize });
    const received = performance
      .getEntriesByType('resource')
      .reduce((sum, e) => sum + ((e as PerformanceResourceTiming).transferSize ?? 0), 0);
    samples.push({ type: 'NET_APP_RX', timestamp: now, value: received });
    performance.clearResourceTimings();
    const sentAt = Date.now();
    try {
      await this.api.json('GET', '/api/display/status');
      samples.push({ type: 'SERVER_PING', timestamp: now, value: Date.now() - sentAt });
      await this.api.json('POST', '/api/display/metrics', { samples });
    } catch {
      // Offline: samples of this minute are dropped (proof of play is what must not be lost).
    }
  }

  heartbeat(): Record<string, unknown> {
    const play = this.showing;

    return {
      version: PLAYER_VERSION,
      firmwareVersion: navigator.userAgent.slice(0, 256),
      ...(this.etag ? { manifestEtag: this.etag } : {}),
      ...(play
        ? {
            currentItem: {
              key: play.key,
              kind: play.kind,
              ...(play.kind === 'slide' ? { contentId: play.contentId } : { fileId: play.file.id }),
            },
          }
        : {}),
      deviceInfo: {
        userAgent: navigator.userAgent.slice(0, 256),
        screen: `${screen.width}x${screen.height}`,
        language: navigator.language,
      },
    };
  }

  /** The commands of spec 4 §3 a browser can carry out; the rest are answered unsupported. */
  async command(command: Command): Promise<Ack> {
    note(`command ${command.name}`);
    const p = command.params ?? {};
    switch (command.name) {
      case 'restart':
      case 'update':
        setTimeout(() => location.reload(), 500);
        return { ok: true, result: { reloading: true } };
      case 'refreshContent':
        await this.fetchManifest(true);
        return { ok: true, result: { etag: this.etag } };
      case 'clearCache':
        this.swReady = false;
        await swRequest({ type: 'clear' });
        await this.fetchManifest(true);
        return { ok: true };
      case 'cacheContent':
        await swRequest({ type: 'cache' });
        return { ok: true };
      case 'volume':
      case 'brightness':
        this.settings = { ...this.settings, [command.name]: Number(p.level ?? p.value) };
        this.applySettings();
        return { ok: true };
      case 'display':
      case 'showName':
        this.settings = { ...this.settings, [command.name]: Boolean(p.enabled ?? p.value) };
        this.applySettings();
        return { ok: true };
      case 'rotation':
        this.settings = { ...this.settings, rotation: { angle: Number(p.angle ?? 0) } };
        this.applySettings();
        return { ok: true };
      case 'wakeUp':
        this.settings = { ...this.settings, display: true };
        this.applySettings();
        return { ok: true };
      case 'snooze':
        this.settings = { ...this.settings, display: false };
        this.applySettings();
        return { ok: true };
      case 'showToast': {
        const text = toastText(p);
        if (!text) return { ok: false, error: 'showToast needs a message' };
        const ms = commandDuration(p, TOAST.fallbackMs, TOAST);
        this.toast.show(text, ms);
        return { ok: true, result: { shownForMs: ms } };
      }
      case 'loadUrl': {
        const page = webPage(p, base);
        if ('error' in page) return { ok: false, error: page.error };
        const ms = commandDuration(p, WEB_PAGE.fallbackMs, WEB_PAGE);
        this.webPage.show(page, ms);
        return { ok: true, result: { shownForMs: ms } };
      }
      case 'sensorEvent':
        note(`sensor event ${JSON.stringify(p.sensorData ?? null).slice(0, 200)}`);
        return dispatchSensorEvent(window, p);
      case 'previewContent': {
        if (this.offHours) return { ok: false, error: 'the screen is off: outside its working hours' };
        const found = previewPlays(this.manifest, p, this.resolver());
        if ('error' in found) return { ok: false, error: found.error };
        const ms = commandDuration(p, PREVIEW.fallbackMs, PREVIEW);
        this.preview.show({ contentId: found.contentId, anchor: clock.now() }, ms);
        return { ok: true, result: { contentId: found.contentId, shownForMs: ms } };
      }
      case 'pauseContent':
        this.paused = true;
        this.stage.stop();
        return { ok: true };
      case 'resumeContent':
        this.paused = false;
        this.play();
        return { ok: true };
      case 'takeHighResPreview':
        return this.screenshot(true);
      case 'turnOnRapidPreviewMode': {
        const every = Math.max(2_000, Number(p.minimumDelayBetweenPreviews) || 5_000);
        const until = Date.now() + (Number(p.duration) || 60_000);
        const timer = setInterval(() => (Date.now() >= until ? clearInterval(timer) : void this.screenshot(false)), every);
        return this.screenshot(false);
      }
      case 'requestLog':
        return { ok: true, result: { log: log.slice(-100) } };
      // The other state commands (spec 4 §3) changed the manifest: applied once it is read again, then confirmed.
      case 'assignContent':
      case 'detachContent':
      case 'emergency':
      case 'rebootTime':
      case 'workingHours':
      case 'time':
      case 'location':
      case 'setWeatherLocation':
      case 'sensorConfig':
      case 'updateRule':
      case 'advancedConfiguration':
      case 'setUpdateVersionUpperLimit':
      case 'datasource':
      case 'dataRowId':
      case 'updateLicense':
        await this.fetchManifest(true);
        return { ok: true, result: { etag: this.etag } };
      default:
        return { ok: false, error: `unsupported: a browser player cannot carry out '${command.name}'` };
    }
  }

  /**
   * The screen as the viewer sees it (player/capture.ts) as the device's preview, with the time it was taken. A
   * high-resolution preview is 1920 pixels wide, the rapid previews 640.
   */
  private async screenshot(highRes: boolean): Promise<Ack> {
    let capture: Capture;
    try {
      capture = await captureScreen($('screen'), highRes ? 1920 : 640, () => clock.now());
    } catch (error) {
      return { ok: false, error: `the screen could not be drawn: ${error instanceof Error ? error.message : String(error)}` };
    }
    const query = new URLSearchParams({ takenAt: String(Math.round(capture.takenAt)), ...(highRes ? { highRes: 'true' } : {}) });
    const res = await this.api.call('PUT', `/api/display/screenshot?${query}`, { body: capture.blob, contentType: capture.blob.type });

    return res.status === 204
      ? { ok: true, result: { uploaded: true, bytes: capture.blob.size, takenAt: capture.takenAt } }
      : { ok: false, error: `upload answered ${res.status}` };
  }
}

/** The path the service worker answers a cached file on (stable across the manifest's daily URL signatures). */
function mediaPath(fileId: string, crc: string): string {
  return `${base}${mediaKey({ id: fileId, crc })}`;
}

/** The manifest's files as the service worker keeps them. */
function fileRefs(manifest: Manifest): FileRef[] {
  return Object.values(manifest.files).map((f) => ({ id: f.id, url: f.url, crc: f.crcCheckSum, contentType: f.contentType }));
}

/** A message to the service worker, answered when it is done (or after `timeoutMs`, the worker working on). */
async function swRequest(message: unknown, timeoutMs = 30_000): Promise<void> {
  const sw = navigator.serviceWorker?.controller;
  if (!sw) return;
  await new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    sw.postMessage(message, [channel.port2]);
    setTimeout(resolve, timeoutMs);
  });
}

/** The unassigned screen: the code, large, and a QR code that opens "Add a screen" with it filled in. */
function showCode(code: string | undefined): void {
  const pairing = $('pairing');
  pairing.hidden = !code;
  if (!code) return;
  $('code').textContent = code;
  const link = `${base}/screens?pair=${code}`;
  $('qr').innerHTML = qrSvg(link);
  $('pair-link').textContent = link.replace(/^https?:\/\//, '');
}

async function credentials(store: PlayerStore): Promise<{ creds: Credentials; code?: string }> {
  const saved = await store.get<Credentials>('credentials');
  if (saved) return { creds: saved };
  for (;;) {
    try {
      const registered = await register(base);
      const creds = { deviceId: registered.deviceId, deviceSecret: registered.deviceSecret };
      await store.set('credentials', creds);
      note(`registered ${creds.deviceId}`);

      return { creds, code: registered.activationCode };
    } catch (err) {
      const wait = err instanceof HttpError && err.retryAfter ? err.retryAfter * 1000 : 30_000;
      $('message').textContent = `Cannot register with the server; trying again in ${Math.round(wait / 1000)} s`;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

async function boot(): Promise<void> {
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker
      .register('/player/sw.js', { scope: '/player/' })
      .catch((err: unknown) => note(`service worker: ${String(err)}`));
  }
  void navigator.storage?.persist?.().catch(() => false);
  const store = await PlayerStore.open();
  let { creds, code } = await credentials(store);
  let api = new DeviceApi(base, creds, clock);
  let status: Status;
  for (;;) {
    try {
      status = await api.json<Status>('GET', '/api/display/status');
      break;
    } catch (err) {
      if (err instanceof HttpError && (err.status === 400 || err.status === 401)) {
        // The device was deleted (or its secret is gone): start over as a new screen.
        await store.delete('credentials');
        ({ creds, code } = await credentials(store));
        api = new DeviceApi(base, creds, clock);
        continue;
      }
      // Offline: play the last manifest meanwhile, when there is one.
      const saved = await store.get<Manifest>('manifest');
      if (saved && saved.validUntil > Date.now()) {
        status = { deviceId: creds.deviceId, assigned: true, heartbeatSeconds: 60, serverTime: Date.now() };
        break;
      }
      $('message').textContent = 'Waiting for the server';
      await new Promise((r) => setTimeout(r, 10_000));
    }
  }
  document.body.dataset.deviceId = creds.deviceId;
  const player = new Player(api, store);
  let claimed = status.assigned;
  let started = false;
  let wasOffline = false;
  const begin = async () => {
    if (started) return;
    started = true;
    markOnce('player:claimed');
    showCode(undefined);
    const fresh = await api.json<Status>('GET', '/api/display/status').catch(() => status);
    document.body.dataset.state = 'playing';
    await player.start(fresh);
  };
  const connection = new Connection(api, {
    assigned: () => {
      claimed = true;
      void begin();
    },
    manifestEtag: (etag) => started && player.etagChanged(etag),
    command: (command) => player.command(command),
    heartbeat: () => player.heartbeat(),
    revoked: () => {
      void store.delete('credentials').then(() => location.reload());
    },
    state: (online) => {
      document.body.dataset.online = String(online);
      // Changes announced while the socket was down were missed: every datasource is asked again (304 when unchanged).
      if (online && wasOffline && started) void player.datasources.refreshAll();
      wasOffline = !online;
    },
    datasourceChanged: (id) => started && void player.datasources.changed(id),
    // Over the account's limit of connected screens: said over whatever the screen shows, until a place frees.
    refused: (message) => {
      const notice = $('refused');
      notice.textContent = message ?? '';
      notice.hidden = message === undefined;
      if (message) note(message);
    },
  });
  connection.start();
  if (claimed) {
    await begin();
    return;
  }
  document.body.dataset.state = 'pairing';
  showCode(status.activationCode ?? code);
  // The socket says `assigned` at once; the status poll renews an expired code and covers a lost socket.
  while (!claimed) {
    await new Promise((r) => setTimeout(r, 5_000));
    if (claimed) break;
    const now = await api.json<Status>('GET', '/api/display/status').catch(() => undefined);
    if (now?.assigned) claimed = true;
    else if (now) showCode(now.activationCode);
  }
  await begin();
}

boot().catch((err: unknown) => {
  note(`boot failed: ${String(err)}`);
  $('message').textContent = 'The player failed to start; retrying in 30 s';
  setTimeout(() => location.reload(), 30_000);
});
