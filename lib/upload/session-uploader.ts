import { BasePlugin, type Body, type Meta, type PluginOpts, type Uppy, type UppyFile } from '@uppy/core';
import { ApiError } from '@/lib/api/client';
import { findFilesByChecksum, findFilesByNameAndSize, type MediaFile } from '@/lib/api/files';
import { cancelUpload, completeUpload, initUpload, recoverUpload, uploadThumbnail, type UploadedFile } from '@/lib/api/upload-sessions';
import { crc32OfBlob } from '@/lib/upload/crc32';
import { fingerprintOf, resumeStore, type StoredUpload } from '@/lib/upload/resume-store';
import { makePreview, type Preview } from '@/lib/upload/thumbnails';

/*
 * An Uppy uploader for the service's chunked upload sessions (spec 2 "Upload session"):
 * init → parts in parallel (PUT to the signed `uploadUrls`, or the part endpoint) → complete →
 * thumbnail PUT. Pause aborts the parts in flight and resume re-sends them (a re-sent part replaces
 * the earlier one); a session survives a reload through resume-store + `/recover`.
 */

export type DuplicateNotice = { fileName: string; matches: Array<Pick<MediaFile, 'id' | 'name' | 'fileFolderId'>>; byChecksum: boolean };

/** Why an upload stopped, as a catalogue key (`media.upload.problem.*`) and its arguments: the panel words it. */
export type UploadProblem =
  | { key: 'notLocal' }
  | { key: 'previewFailed' }
  | { key: 'partUnreachable'; part: number; target: string; here: string }
  | { key: 'partNetwork'; part: number; target: string }
  | { key: 'partRefused'; part: number; status: number; reason: string }
  | { key: 'thumbnailRefused'; status: number };

/** The error of an `upload-error` event: the problem in the console's language, and the error itself (an API error has a key). */
export type UploadFailure = { name: string; message: string; cause?: unknown };

export type SessionUploaderOptions = PluginOpts & {
  /** The tenant selector (ADMIN); undefined for the caller's own tenant. */
  customerId?: number;
  /** The folder new files go into, read when an upload starts. */
  getParentId: () => string | undefined;
  /** Parts in flight per file. */
  partConcurrency?: number;
  /** Files uploading at once. */
  fileConcurrency?: number;
  /** Target part size; S3 needs at least 5 MiB for every part but the last. */
  chunkSize?: number;
  onDuplicate?: (notice: DuplicateNotice) => void;
  onUploaded?: (file: UploadedFile) => void;
  /** Words a problem in the console's language; without it the message is the problem's key. */
  describe?: (problem: UploadProblem) => string;
};

const MiB = 1024 * 1024;
const DEFAULT_CHUNK = 8 * MiB;
const MAX_CHUNKS = 10_000;
/** Files up to this size get a browser CRC32 for the duplicate check; larger ones are matched by name and size. */
const CRC_LIMIT = 64 * MiB;
const PART_ATTEMPTS = 4;

class PausedError extends Error {
  constructor() {
    super('paused');
  }
}
class CancelledError extends Error {
  constructor() {
    super('cancelled');
  }
}

type Active = {
  fileId: string;
  paused: boolean;
  cancelled: boolean;
  requests: Set<XMLHttpRequest>;
  waiters: Array<() => void>;
  uploadId?: string;
  fingerprint?: string;
};

/** Part numbers are 1-based, as in S3 multipart uploads. */
function planChunks(size: number, preferred = DEFAULT_CHUNK): { totalChunks: number } {
  const chunk = Math.max(preferred, Math.ceil(size / MAX_CHUNKS));

  return { totalChunks: Math.max(1, Math.ceil(size / chunk)) };
}

/**
 * Why a part could not be sent, for the upload panel. The browser tells a script nothing about a failed
 * request (network, DNS, TLS or a CORS refusal look the same), so name where it went: a part URL on
 * another origin than the page is the usual cause (an object store without CORS rules for this page, or
 * an address the browser cannot reach).
 */
function partNetworkError(url: string, partNumber: number): UploadProblem {
  const here = typeof window === 'undefined' ? undefined : window.location.origin;
  const target = new URL(url, here ?? 'http://localhost').origin;
  if (here && target !== here) return { key: 'partUnreachable', part: partNumber, target, here };

  return { key: 'partNetwork', part: partNumber, target };
}

export class SessionUploader<M extends Meta, B extends Body> extends BasePlugin<SessionUploaderOptions, M, B> {
  private readonly active = new Map<string, Active>();

  private describe(problem: UploadProblem): string {
    return this.opts.describe?.(problem) ?? problem.key;
  }

  constructor(uppy: Uppy<M, B>, opts: SessionUploaderOptions) {
    super(uppy, { partConcurrency: 3, fileConcurrency: 2, chunkSize: DEFAULT_CHUNK, ...opts });
    this.id = opts.id ?? 'SessionUploader';
    this.type = 'uploader';
  }

  override install(): void {
    const { capabilities } = this.uppy.getState();
    this.uppy.setState({ capabilities: { ...capabilities, resumableUploads: true, individualCancellation: true } });
    this.uppy.addUploader(this.upload);
    this.uppy.on('upload-pause', this.onPause);
    this.uppy.on('pause-all', this.onPauseAll);
    this.uppy.on('resume-all', this.onResumeAll);
    this.uppy.on('file-removed', this.onRemoved);
    this.uppy.on('cancel-all', this.onCancelAll);
  }

  override uninstall(): void {
    this.uppy.removeUploader(this.upload);
    this.uppy.off('upload-pause', this.onPause);
    this.uppy.off('pause-all', this.onPauseAll);
    this.uppy.off('resume-all', this.onResumeAll);
    this.uppy.off('file-removed', this.onRemoved);
    this.uppy.off('cancel-all', this.onCancelAll);
    for (const state of this.active.values()) this.abort(state, false);
  }

  private readonly onPause = (file: UppyFile<M, B> | undefined, isPaused: boolean) => {
    const state = file && this.active.get(file.id);
    if (state) this.setPaused(state, isPaused);
  };
  private readonly onPauseAll = () => this.active.forEach((s) => this.setPaused(s, true));
  private readonly onResumeAll = () => this.active.forEach((s) => this.setPaused(s, false));
  private readonly onRemoved = (file: UppyFile<M, B>) => {
    const state = this.active.get(file.id);
    if (state) this.abort(state, true);
  };
  private readonly onCancelAll = () => this.active.forEach((s) => this.abort(s, true));

  private setPaused(state: Active, paused: boolean) {
    state.paused = paused;
    if (paused) {
      for (const xhr of state.requests) xhr.abort();
    } else {
      state.waiters.splice(0).forEach((wake) => wake());
    }
  }

  /** Stops a file; a removed file's session is cancelled on the server and forgotten. */
  private abort(state: Active, cancelSession: boolean) {
    state.cancelled = true;
    for (const xhr of state.requests) xhr.abort();
    state.waiters.splice(0).forEach((wake) => wake());
    if (cancelSession && state.uploadId) {
      if (state.fingerprint) resumeStore.delete(state.fingerprint);
      void cancelUpload(state.uploadId, this.opts.customerId).catch(() => undefined);
    }
  }

  private waitWhilePaused(state: Active): Promise<void> {
    if (state.cancelled) return Promise.reject(new CancelledError());
    if (!state.paused) return Promise.resolve();

    return new Promise<void>((resolve) => state.waiters.push(resolve)).then(() => this.waitWhilePaused(state));
  }

  private readonly upload = async (fileIDs: string[]): Promise<void> => {
    const files = fileIDs.map((id) => this.uppy.getFile(id)).filter((f): f is UppyFile<M, B> => Boolean(f) && !f.progress.uploadComplete);
    if (files.length === 0) return;
    this.uppy.emit('upload-start', files);
    const queue = [...files];
    const workers = Array.from({ length: Math.min(this.opts.fileConcurrency ?? 2, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await this.uploadOne(next);
    });
    await Promise.all(workers);
  };

  private async uploadOne(file: UppyFile<M, B>): Promise<void> {
    const data = file.data;
    if (!(data instanceof Blob)) {
      this.uppy.emit('upload-error', file, { name: 'UploadError', message: this.describe({ key: 'notLocal' }) });
      return;
    }
    const blob = data instanceof File ? data : new File([data], file.name, { type: file.type });
    const state: Active = { fileId: file.id, paused: Boolean(file.isPaused), cancelled: false, requests: new Set(), waiters: [] };
    this.active.set(file.id, state);
    try {
      const crc = blob.size <= CRC_LIMIT ? await crc32OfBlob(blob) : undefined;
      // makePreview fails only without a canvas or a JPEG encoder; its own message is not for the panel.
      const previewOrProblem = makePreview(blob).catch(() => Promise.reject(new Error(this.describe({ key: 'previewFailed' }))));
      const [preview] = await Promise.all([previewOrProblem, this.checkDuplicates(blob, crc)]);
      // Show our preview (video frames too) in the Dashboard.
      if (this.uppy.getFile(file.id)) this.uppy.setFileState(file.id, { preview: URL.createObjectURL(preview.blob) });
      const session = await this.openSession({ blob, file, state, preview, crc });
      await this.sendParts(blob, file, state, session);
      const created = await completeUpload(session.uploadId, this.opts.customerId);
      await this.sendThumbnail(created.id, preview.blob);
      if (state.fingerprint) resumeStore.delete(state.fingerprint);
      this.active.delete(file.id);
      if (!this.uppy.getFile(file.id)) return;
      this.uppy.emit('upload-success', this.uppy.getFile(file.id), {
        status: 200,
        body: created as unknown as B,
        uploadURL: created.location ?? undefined,
      });
      this.opts.onUploaded?.(created);
    } catch (error) {
      this.active.delete(file.id);
      if (error instanceof CancelledError || state.cancelled) return;
      const failure: UploadFailure = { name: 'UploadError', message: error instanceof Error ? error.message : String(error), cause: error };
      if (this.uppy.getFile(file.id)) this.uppy.emit('upload-error', this.uppy.getFile(file.id), failure);
    }
  }

  private async checkDuplicates(blob: File, crc: string | undefined): Promise<void> {
    if (!this.opts.onDuplicate) return;
    try {
      const byChecksum = crc !== undefined;
      const page = crc
        ? await findFilesByChecksum(crc, this.opts.customerId)
        : await findFilesByNameAndSize(blob.name, blob.size, this.opts.customerId);
      if (page.content.length > 0) this.opts.onDuplicate({ fileName: blob.name, matches: page.content, byChecksum });
    } catch {
      // The notice is a courtesy; the upload goes on without it.
    }
  }

  /** A remembered session for the same file (after a reload or a retry), else a new one. */
  private async openSession({
    blob,
    file,
    state,
    preview,
    crc,
  }: {
    blob: File;
    file: UppyFile<M, B>;
    state: Active;
    preview: Preview;
    crc: string | undefined;
  }) {
    const customerId = this.opts.customerId;
    const fingerprint = fingerprintOf(blob, customerId);
    state.fingerprint = fingerprint;
    const stored = resumeStore.get(fingerprint);
    if (stored) {
      try {
        const recovered = await recoverUpload(stored.uploadId, customerId);
        state.uploadId = stored.uploadId;
        this.uppy.log(
          `[SessionUploader] resuming ${blob.name}: ${recovered.missingChunks.length} of ${recovered.totalChunks} parts missing`,
        );

        return {
          uploadId: stored.uploadId,
          chunkSize: stored.chunkSize,
          totalChunks: recovered.totalChunks,
          missing: recovered.missingChunks,
          urls: recovered.uploadUrls ?? {},
        };
      } catch (error) {
        // Expired, completed or cancelled elsewhere: start again.
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        resumeStore.delete(fingerprint);
      }
    }
    const { totalChunks } = planChunks(blob.size, this.opts.chunkSize);
    const parentId = this.opts.getParentId();
    const init = await initUpload(
      {
        name: blob.name,
        size: blob.size,
        totalChunks,
        contentType: blob.type || file.type || undefined,
        parentId,
        width: preview.width,
        height: preview.height,
        // The server refuses to complete with other bytes than these.
        crcChecksum: crc,
      },
      customerId,
    );
    state.uploadId = init.uploadId;
    const record: StoredUpload = {
      uploadId: init.uploadId,
      name: blob.name,
      size: blob.size,
      totalChunks: init.totalChunks,
      chunkSize: init.maxChunkSize,
      customerId: customerId ?? null,
      parentId: parentId ?? null,
      uploadedBytes: 0,
      createdAt: Date.now(),
    };
    resumeStore.set(fingerprint, record);

    return {
      uploadId: init.uploadId,
      chunkSize: init.maxChunkSize,
      totalChunks: init.totalChunks,
      missing: Array.from({ length: init.totalChunks }, (_, i) => i + 1),
      urls: init.uploadUrls ?? {},
    };
  }

  private async sendParts(
    blob: File,
    file: UppyFile<M, B>,
    state: Active,
    session: { uploadId: string; chunkSize: number; totalChunks: number; missing: number[]; urls: Record<string, string> },
  ): Promise<void> {
    const partSize = (n: number) => Math.min(session.chunkSize, blob.size - (n - 1) * session.chunkSize);
    const missing = new Set(session.missing);
    let done = 0;
    for (let n = 1; n <= session.totalChunks; n++) if (!missing.has(n)) done += partSize(n);
    const inFlight = new Map<number, number>();
    const report = () => {
      const current = this.uppy.getFile(file.id);
      if (!current) return;
      let loaded = done;
      for (const bytes of inFlight.values()) loaded += bytes;
      this.uppy.emit('upload-progress', current, {
        uploadStarted: current.progress.uploadStarted ?? Date.now(),
        bytesUploaded: loaded,
        bytesTotal: blob.size,
      });
    };
    report();
    const queue = [...session.missing].sort((a, b) => a - b);
    const worker = async () => {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
        for (let attempt = 1; ; attempt++) {
          await this.waitWhilePaused(state);
          const start = (n - 1) * session.chunkSize;
          const body = blob.slice(start, start + partSize(n));
          const url =
            session.urls[String(n)] ??
            `/api/v2/file/upload/${encodeURIComponent(session.uploadId)}/part/${n}${this.opts.customerId === undefined ? '' : `?customerId=${this.opts.customerId}`}`;
          try {
            await this.putPart(state, { url, partNumber: n }, body, (loaded) => {
              inFlight.set(n, loaded);
              report();
            });
            inFlight.delete(n);
            done += body.size;
            report();
            if (state.fingerprint) resumeStore.progress(state.fingerprint, done);
            break;
          } catch (error) {
            inFlight.delete(n);
            report();
            if (error instanceof PausedError) continue;
            if (state.cancelled) throw new CancelledError();
            const retriable = !(error instanceof ApiError) || error.status >= 500 || error.status === 429 || error.status === 403;
            if (!retriable || attempt >= PART_ATTEMPTS) throw error;
            // A signed URL may have expired (403): ask for fresh ones.
            if (error instanceof ApiError && error.status === 403) {
              const fresh = await recoverUpload(session.uploadId, this.opts.customerId);
              session.urls = fresh.uploadUrls ?? {};
            }
            await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.opts.partConcurrency ?? 3, Math.max(queue.length, 1)) }, worker));
  }

  private putPart(
    state: Active,
    target: { url: string; partNumber: number },
    body: Blob,
    onProgress: (loaded: number) => void,
  ): Promise<void> {
    const { url, partNumber } = target;
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      state.requests.add(xhr);
      xhr.open('PUT', url);
      xhr.setRequestHeader('Content-Type', 'application/octet-stream');
      xhr.upload.onprogress = (e) => onProgress(e.loaded);
      xhr.onload = () => {
        state.requests.delete(xhr);
        if (xhr.status >= 200 && xhr.status < 300) return resolve();
        let parsed: { key?: string; message?: string } = {};
        try {
          parsed = JSON.parse(xhr.responseText) as typeof parsed;
        } catch {
          // not JSON (S3 answers XML)
        }
        const reason = parsed.message ?? (/<Message>([^<]*)<\/Message>/.exec(xhr.responseText)?.[1] || `HTTP ${xhr.status}`);
        reject(
          new ApiError({
            status: xhr.status,
            key: parsed.key ?? `http.error.${xhr.status}`,
            message: this.describe({ key: 'partRefused', part: partNumber, status: xhr.status, reason }),
          }),
        );
      };
      xhr.onerror = () => {
        state.requests.delete(xhr);
        reject(new Error(this.describe(partNetworkError(url, partNumber))));
      };
      xhr.onabort = () => {
        state.requests.delete(xhr);
        reject(state.cancelled ? new CancelledError() : new PausedError());
      };
      xhr.send(body);
    });
  }

  private async sendThumbnail(fileId: string, blob: Blob): Promise<void> {
    try {
      await uploadThumbnail(fileId, blob, this.opts.customerId);
    } catch (error) {
      if (error instanceof ApiError) throw new Error(this.describe({ key: 'thumbnailRefused', status: error.status }), { cause: error });
      throw error;
    }
  }
}
