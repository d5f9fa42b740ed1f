/**
 * Connected devices whose manifest may have changed, checked in batches. One change to ten thousand screens arrives
 * as fifty notices: they join one queue, worked off `batch` devices at a time, so the tenant's campaigns are read once
 * per batch rather than once per notice.
 */
export class ManifestCheckQueue {
  private readonly queued = new Set<string>();
  private checking: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      check: (deviceIds: string[]) => Promise<void>;
      batch: number;
      failed: (err: unknown, count: number) => void;
    },
  ) {}

  /** Queues devices and answers when they have been checked. */
  add(deviceIds: readonly string[]): Promise<void> {
    for (const id of deviceIds) this.queued.add(id);
    this.checking ??= this.work();

    return this.checking;
  }

  private async work(): Promise<void> {
    // Let the other notices of the same change arrive first.
    await new Promise((resolve) => setImmediate(resolve));
    for (;;) {
      // Checked and cleared in one synchronous step, so a device queued meanwhile always finds a worker.
      if (this.queued.size === 0) {
        this.checking = undefined;

        return;
      }
      const batch = [...this.queued].slice(0, this.deps.batch);
      for (const id of batch) this.queued.delete(id);
      try {
        await this.deps.check(batch);
      } catch (err) {
        this.deps.failed(err, batch.length);
      }
    }
  }
}
