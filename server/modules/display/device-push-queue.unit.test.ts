import { describe, expect, it } from 'vitest';
import type { DevicePushNotice } from './device-push';
import { DevicePushQueue } from './device-push-queue';

/** A queue whose handler records each call and waits until the test lets it finish. */
function blockedQueue() {
  const handled: string[] = [];
  const releases: Array<() => void> = [];
  const queue = new DevicePushQueue({
    handle: (notice: DevicePushNotice) => {
      handled.push(`${notice.kind}:${[...notice.deviceIds].sort().join(',')}`);
      return new Promise<void>((resolve) => releases.push(resolve));
    },
    failed: (err) => {
      throw err;
    },
  });
  const releaseNext = async () => {
    // Let the chain reach its next handler call before releasing it (bounded: a queue that never calls fails).
    for (let i = 0; releases.length === 0; i++) {
      if (i > 1000) throw new Error('the queue called no handler');
      await Promise.resolve();
    }
    releases.shift()?.();
    await Promise.resolve();
  };
  return { queue, handled, releaseNext };
}

describe('DevicePushQueue', () => {
  it('joins commands notices that arrive while the work is behind into one delivery', async () => {
    const { queue, handled, releaseNext } = blockedQueue();
    queue.notice({ kind: 'commands', deviceIds: ['a'] });
    await releaseNext(); // "a" is being delivered; what follows waits for it.
    queue.notice({ kind: 'commands', deviceIds: ['b', 'c'] });
    queue.notice({ kind: 'commands', deviceIds: ['c', 'd'] });
    queue.notice({ kind: 'commands', deviceIds: ['e'] });
    await releaseNext();
    await queue.idle();
    expect(handled).toEqual(['commands:a', 'commands:b,c,d,e']);
  });

  it('keeps the order: other work between commands notices starts a new delivery', async () => {
    const { queue, handled, releaseNext } = blockedQueue();
    const ran: string[] = [];
    queue.notice({ kind: 'commands', deviceIds: ['a'] });
    queue.notice({ kind: 'revoked', deviceIds: ['x'] });
    queue.notice({ kind: 'commands', deviceIds: ['b'] });
    queue.run(() => {
      ran.push(`tick after ${handled.length}`);
      return Promise.resolve();
    });
    queue.notice({ kind: 'commands', deviceIds: ['c'] });
    queue.notice({ kind: 'commands', deviceIds: ['d'] });
    for (let i = 0; i < 4; i++) await releaseNext();
    await queue.idle();
    expect(handled).toEqual(['commands:a', 'revoked:x', 'commands:b', 'commands:c,d']);
    expect(ran).toEqual(['tick after 3']);
  });

  it('a commands notice after its slot was taken up gets a delivery of its own', async () => {
    const { queue, handled, releaseNext } = blockedQueue();
    queue.notice({ kind: 'commands', deviceIds: ['a'] });
    await releaseNext();
    await queue.idle();
    queue.notice({ kind: 'commands', deviceIds: ['b'] });
    await releaseNext();
    await queue.idle();
    expect(handled).toEqual(['commands:a', 'commands:b']);
  });
});
