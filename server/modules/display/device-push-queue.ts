import type { DevicePushNotice } from './device-push';

/**
 * The push work of one instance, done one piece after another in the order it arrived: each piece is a statement
 * or two for the devices held here. One change for thousands of screens arrives as one notice per 200 of them; while
 * the work is behind, `commands` notices that follow one another join one delivery (one read and one write for all
 * their devices, not two a notice). Any other work queued in between starts a new one, so the order holds.
 */
export class DevicePushQueue {
  private pending: Promise<void> = Promise.resolve();
  private commandSlot: Set<string> | undefined;

  constructor(
    private readonly deps: {
      handle: (notice: DevicePushNotice) => Promise<void>;
      failed: (err: unknown) => void;
    },
  ) {}

  notice(notice: DevicePushNotice): void {
    if (notice.kind !== 'commands') return this.run(() => this.deps.handle(notice));
    if (this.commandSlot) {
      for (const id of notice.deviceIds) this.commandSlot.add(id);
      return;
    }
    const slot = new Set(notice.deviceIds);
    this.commandSlot = slot;
    this.chain(() => {
      // Its turn has come: the notices from now on start a slot of their own.
      if (this.commandSlot === slot) this.commandSlot = undefined;
      return this.deps.handle({ kind: 'commands', deviceIds: [...slot] });
    });
  }

  /** Other work, after everything queued before it. */
  run(work: () => Promise<void>): void {
    this.commandSlot = undefined;
    this.chain(work);
  }

  /** Answers when everything queued so far is done. */
  idle(): Promise<void> {
    return this.pending;
  }

  private chain(work: () => Promise<void>): void {
    this.pending = this.pending.then(work).catch(this.deps.failed);
  }
}
