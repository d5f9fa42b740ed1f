/**
 * Open upload sessions remembered in localStorage, so an upload interrupted by a reload continues
 * when the same file is added again: the fingerprint finds the session, `/recover` says which chunks
 * are missing.
 */
export type StoredUpload = {
  uploadId: string;
  name: string;
  size: number;
  totalChunks: number;
  chunkSize: number;
  customerId: number | null;
  parentId: string | null;
  uploadedBytes: number;
  createdAt: number;
};

const KEY = 'signage.media.uploads';
/** DECISIONS §7: the server cancels a session after 24 hours; forget it a little earlier. */
const MAX_AGE_MS = 23 * 60 * 60 * 1000;

export function fingerprintOf(file: Pick<File, 'name' | 'size' | 'lastModified' | 'type'>, customerId: number | undefined): string {
  return [customerId ?? 'own', file.name, file.size, file.lastModified, file.type].join('|');
}

function readAll(): Record<string, StoredUpload> {
  if (typeof localStorage === 'undefined') return {};
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, StoredUpload>;
    const now = Date.now();

    return Object.fromEntries(
      Object.entries(parsed).filter(([, u]) => u && typeof u.uploadId === 'string' && now - u.createdAt < MAX_AGE_MS),
    );
  } catch {
    return {};
  }
}

function writeAll(all: Record<string, StoredUpload>): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage full or disabled: the upload still works, it just cannot resume after a reload.
  }
  window.dispatchEvent(new Event('signage-uploads-changed'));
}

export const resumeStore = {
  get(fingerprint: string): StoredUpload | undefined {
    return readAll()[fingerprint];
  },
  set(fingerprint: string, upload: StoredUpload): void {
    writeAll({ ...readAll(), [fingerprint]: upload });
  },
  progress(fingerprint: string, uploadedBytes: number): void {
    const all = readAll();
    const entry = all[fingerprint];
    if (!entry) return;
    entry.uploadedBytes = uploadedBytes;
    writeAll(all);
  },
  delete(fingerprint: string): void {
    const all = readAll();
    delete all[fingerprint];
    writeAll(all);
  },
  list(customerId: number | undefined): Array<StoredUpload & { fingerprint: string }> {
    return Object.entries(readAll())
      .filter(([, u]) => (u.customerId ?? null) === (customerId ?? null))
      .map(([fingerprint, u]) => ({ ...u, fingerprint }));
  },
};
