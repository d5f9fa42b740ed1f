/*
 * A screenshot of what plays, as far as a page can take one without asking (STACK-NOTES "Browser player
 * bundle"): the current image or video frame drawn to a canvas. Slides and web pages are DOM, not pixels:
 * undefined, and the command is answered unsupported.
 */
export async function captureFrame(stage: HTMLElement, width: number): Promise<Blob | undefined> {
  const layer = stage.querySelector<HTMLElement>('.layer[data-state="current"]');
  const media = layer?.querySelector<HTMLImageElement | HTMLVideoElement>(':scope > img, :scope > video');
  if (!media) return undefined;
  const w = media instanceof HTMLVideoElement ? media.videoWidth : media.naturalWidth;
  const h = media instanceof HTMLVideoElement ? media.videoHeight : media.naturalHeight;
  if (!w || !h) return undefined;
  const scale = Math.min(1, width / w);
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(w * scale);
  canvas.height = Math.round(h * scale);
  const context = canvas.getContext('2d');
  if (!context) return undefined;
  try {
    context.drawImage(media, 0, 0, canvas.width, canvas.height);

    return (await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85))) ?? undefined;
  } catch {
    // A cross-origin frame taints the canvas.
    return undefined;
  }
}
