import { domToBlob } from 'modern-screenshot';

/*
 * A screenshot of the screen as the viewer sees it (issue 28 item 3): the whole #screen element (the current
 * layer, slides with their text, clock and widgets, images, overlays such as the name or a toast) drawn by a
 * DOM-to-image library (modern-screenshot: the DOM cloned into an SVG foreignObject, its images inlined, the
 * SVG drawn to a canvas). Two things it cannot draw well are handled here before it serialises the clone:
 * - a video: the library would load the file a second time and seek it; instead its current frame is drawn
 *   to a canvas at once and the clone gets that frame as an image;
 * - an iframe (a web-page widget or loadUrl): a cross-origin document cannot be read, so the clone gets a
 *   labelled placeholder with the page's host.
 * Nothing else makes the capture fail: an image that cannot be read is left blank by the library.
 */

/** What the screenshot command answers with: the image and when it was taken (server time, Unix ms). */
export type Capture = { blob: Blob; takenAt: number };

/** Marks a live parent of replaced elements while the capture runs, so its clone can be found. */
const HOLDER = 'data-capture-holder';

/** The rectangle (x, y, width, height) a source of `sw`×`sh` fills in a `dw`×`dh` box under CSS `object-fit`. */
export function fitRect(fit: string, sw: number, sh: number, dw: number, dh: number): [number, number, number, number] {
  if (fit === 'fill' || !sw || !sh) return [0, 0, dw, dh];
  const contain = Math.min(dw / sw, dh / sh);
  const ratio = fit === 'cover' ? Math.max(dw / sw, dh / sh) : fit === 'none' ? 1 : fit === 'scale-down' ? Math.min(1, contain) : contain;
  const w = sw * ratio;
  const h = sh * ratio;

  return [(dw - w) / 2, (dh - h) / 2, w, h];
}

type ChildLike = { nodeType: number; nodeName: string };

/**
 * Where `target` goes among its parent's cloned children: the library clones every child except comments,
 * <style> and <script> elements and what the filter drops (the replaced elements themselves).
 */
export function cloneIndex(children: ArrayLike<ChildLike>, target: ChildLike, isReplaced: (node: ChildLike) => boolean): number {
  let index = 0;
  for (const child of Array.from(children)) {
    if (child === target) return index;
    if (child.nodeType === 8 || child.nodeName === 'STYLE' || child.nodeName === 'SCRIPT' || isReplaced(child)) continue;
    index++;
  }

  return index;
}

/** The label of a web page that cannot be drawn: its host when the address has one. */
export function webPageLabel(src: string): string {
  try {
    const host = new URL(src).host;

    return host ? `Web page: ${host}` : 'Web page';
  } catch {
    return 'Web page';
  }
}

/** The image that stands for a video in the clone: its current frame, as the viewer sees it (object-fit applied). */
function videoFrame(video: HTMLVideoElement, scale: number): HTMLElement | undefined {
  const doc = video.ownerDocument;
  const w = video.clientWidth;
  const h = video.clientHeight;
  // Not laid out (a hidden layer) or no frame yet: the clone shows what the viewer sees, the box's background.
  if (!w || !h || video.readyState < 2) return undefined;
  const canvas = doc.createElement('canvas');
  canvas.width = Math.max(1, Math.round(w * scale));
  canvas.height = Math.max(1, Math.round(h * scale));
  const context = canvas.getContext('2d');
  if (!context) return undefined;
  const [x, y, dw, dh] = fitRect(getComputedStyle(video).objectFit, video.videoWidth, video.videoHeight, canvas.width, canvas.height);
  let src: string;
  try {
    context.drawImage(video, x, y, dw, dh);
    src = canvas.toDataURL('image/jpeg', 0.9);
  } catch {
    // A cross-origin video without CORS taints the canvas: a placeholder says what is there.
    return placeholder(doc, 'Video', w, h);
  }
  const img = doc.createElement('img');
  img.src = src;
  img.alt = '';
  img.style.cssText = video.style.cssText;
  Object.assign(img.style, { width: `${w}px`, height: `${h}px`, objectFit: 'fill' });

  return img;
}

function placeholder(doc: Document, label: string, w: number, h: number): HTMLElement {
  const box = doc.createElement('div');
  Object.assign(box.style, {
    width: `${w}px`,
    height: `${h}px`,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    background: '#27272a',
    color: '#e4e4e7',
    font: `500 ${Math.max(12, Math.round(Math.min(w, h) / 12))}px system-ui, sans-serif`,
    textAlign: 'center',
    boxSizing: 'border-box',
    border: '2px dashed #71717a',
  });
  box.textContent = `${label} (not captured)`;

  return box;
}

type Replacement = { holder: string; index: number; node: HTMLElement };

/** Draws each video's frame and labels each iframe under `root` now; marks their parents for the clone. */
function prepare(root: HTMLElement, scale: number): { replaced: Set<Element>; replacements: Replacement[]; holders: HTMLElement[] } {
  const targets = Array.from(root.querySelectorAll<HTMLVideoElement | HTMLIFrameElement>('video, iframe'));
  const replaced = new Set<Element>(targets);
  const replacements: Replacement[] = [];
  const holders: HTMLElement[] = [];
  for (const target of targets) {
    const parent = target.parentElement;
    if (!parent) continue;
    const node =
      target instanceof HTMLVideoElement
        ? videoFrame(target, scale)
        : target.clientWidth && target.clientHeight
          ? placeholder(target.ownerDocument, webPageLabel(target.src), target.clientWidth, target.clientHeight)
          : undefined;
    if (!node) continue;
    if (!parent.hasAttribute(HOLDER)) {
      parent.setAttribute(HOLDER, String(holders.length));
      holders.push(parent);
    }
    replacements.push({
      holder: parent.getAttribute(HOLDER)!,
      index: cloneIndex(parent.childNodes, target, (n) => replaced.has(n as Element)),
      node,
    });
  }

  return { replaced, replacements, holders };
}

/** Puts the replacements into the clone, each at its element's place among its parent's cloned children. */
function place(clone: Node, replacements: Replacement[]): void {
  if (!(clone instanceof Element)) return;
  // Last first, so earlier indices stay valid.
  for (const r of [...replacements].reverse()) {
    const holder = clone.getAttribute(HOLDER) === r.holder ? clone : clone.querySelector(`[${HOLDER}="${r.holder}"]`);
    holder?.insertBefore(r.node, holder.childNodes[r.index] ?? null);
  }
}

/**
 * Captures `screen` as shown, `width` pixels wide (its height in proportion), as a JPEG. `now` is the clock the
 * time of the capture is read from (the player's server clock). Rejects only when the browser cannot draw at all.
 */
export async function captureScreen(screen: HTMLElement, width: number, now: () => number): Promise<Capture> {
  const takenAt = now();
  const scale = width / Math.max(1, screen.clientWidth);
  const { replaced, replacements, holders } = prepare(screen, scale);
  try {
    const blob = await domToBlob(screen, {
      scale,
      type: 'image/jpeg',
      quality: 0.85,
      backgroundColor: '#000000',
      // #screen is centred in the window by a transform; the image is the screen itself.
      style: { transform: 'none', left: '0px', top: '0px' },
      // The player uses the system's fonts: nothing to embed, and no style sheet to read.
      font: false,
      timeout: 10_000,
      filter: (node) => !replaced.has(node as Element),
      onCloneNode: (clone) => place(clone, replacements),
    });

    return { blob, takenAt };
  } finally {
    for (const holder of holders) holder.removeAttribute(HOLDER);
  }
}
