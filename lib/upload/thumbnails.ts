/**
 * Client-side previews (spec 2: the server makes no thumbnails; the client supplies one for every
 * file type). Images are scaled, videos give a frame a moment in, fonts draw a sample, everything
 * else gets a labelled card. Also reports the pixel size of images and videos.
 */
export type Preview = { blob: Blob; width?: number; height?: number };

const MAX_EDGE = 480;
const TIMEOUT_MS = 15_000;

function canvasFor(width: number, height: number): { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D; w: number; h: number } {
  const scale = Math.min(1, MAX_EDGE / Math.max(width, height, 1));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('Canvas is not available');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, w, h);

  return { canvas, ctx, w, h };
}

function toJpeg(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The preview could not be encoded'))), 'image/jpeg', 0.85),
  );
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} timed out`)), TIMEOUT_MS);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

async function imagePreview(file: Blob): Promise<Preview> {
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.decoding = 'async';
    img.src = url;
    await withTimeout(img.decode(), 'Reading the image');
    // An SVG without a size reports 0; draw it at a nominal size.
    const width = img.naturalWidth || 300;
    const height = img.naturalHeight || 150;
    const { canvas, ctx, w, h } = canvasFor(width, height);
    ctx.drawImage(img, 0, 0, w, h);

    return { blob: await toJpeg(canvas), width: img.naturalWidth || undefined, height: img.naturalHeight || undefined };
  } finally {
    URL.revokeObjectURL(url);
  }
}

function once(target: EventTarget, event: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = () => {
      target.removeEventListener('error', fail);
      resolve();
    };
    const fail = () => {
      target.removeEventListener(event, ok);
      reject(new Error('The media could not be decoded'));
    };
    target.addEventListener(event, ok, { once: true });
    target.addEventListener('error', fail, { once: true });
  });
}

async function videoPreview(file: Blob): Promise<Preview> {
  const url = URL.createObjectURL(file);
  const video = document.createElement('video');
  try {
    video.muted = true;
    video.playsInline = true;
    video.preload = 'auto';
    video.src = url;
    await withTimeout(once(video, 'loadeddata'), 'Reading the video');
    const { videoWidth: width, videoHeight: height } = video;
    // A frame a little in avoids the black first frame of many clips.
    const duration = Number.isFinite(video.duration) ? video.duration : 0;
    const at = Math.min(1, duration * 0.25);
    if (at > 0) {
      const seeked = once(video, 'seeked');
      video.currentTime = at;
      await withTimeout(seeked, 'Seeking the video');
    }
    const { canvas, ctx, w, h } = canvasFor(width || 640, height || 360);
    ctx.drawImage(video, 0, 0, w, h);

    return { blob: await toJpeg(canvas), width: width || undefined, height: height || undefined };
  } finally {
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
  }
}

const CARD_COLOURS: Record<string, string> = { audio: '#7c3aed', pdf: '#dc2626', font: '#0f766e', json: '#b45309', other: '#52525b' };

async function cardPreview(file: File, kind: string): Promise<Preview> {
  const { canvas, ctx, w, h } = canvasFor(480, 360);
  ctx.fillStyle = CARD_COLOURS[kind] ?? CARD_COLOURS.other!;
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = '#ffffff';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  let drewSample = false;
  if (kind === 'font' && typeof FontFace !== 'undefined') {
    try {
      const face = new FontFace(`preview-${Date.now()}`, await file.arrayBuffer());
      await withTimeout(face.load(), 'Loading the font');
      document.fonts.add(face);
      ctx.font = `96px "${face.family}"`;
      ctx.fillText('Aa', w / 2, h / 2 - 30);
      ctx.font = `36px "${face.family}"`;
      ctx.fillText('Quick brown fox', w / 2, h / 2 + 50);
      document.fonts.delete(face);
      drewSample = true;
    } catch {
      // Not a font the browser can load: the plain card below.
    }
  }
  if (!drewSample) {
    const ext = (file.name.split('.').pop() ?? kind).toUpperCase().slice(0, 6);
    ctx.font = 'bold 88px system-ui, sans-serif';
    ctx.fillText(ext, w / 2, h / 2 - 16);
    ctx.font = '24px system-ui, sans-serif';
    const label = file.name.length > 34 ? `${file.name.slice(0, 31)}…` : file.name;
    ctx.fillText(label, w / 2, h / 2 + 56);
  }

  return { blob: await toJpeg(canvas) };
}

function previewKind(file: Pick<File, 'type' | 'name'>): 'image' | 'video' | 'audio' | 'pdf' | 'font' | 'json' | 'other' {
  const name = file.name.toLowerCase();
  if (file.type.startsWith('image/') || /\.(png|jpe?g|gif|svg|webp)$/.test(name)) return 'image';
  if (file.type.startsWith('video/') || /\.(mp4|webm|mov)$/.test(name)) return 'video';
  if (file.type.startsWith('audio/') || /\.(mp3|wav|ogg)$/.test(name)) return 'audio';
  if (name.endsWith('.pdf')) return 'pdf';
  if (/\.(ttf|otf|woff2?)$/.test(name)) return 'font';
  if (name.endsWith('.json')) return 'json';

  return 'other';
}

/** Never fails: a file the browser cannot decode still gets a labelled card. */
export async function makePreview(file: File): Promise<Preview> {
  const kind = previewKind(file);
  try {
    if (kind === 'image') return await imagePreview(file);
    if (kind === 'video') return await videoPreview(file);
  } catch {
    // fall through to the card
  }

  return cardPreview(file, kind);
}
