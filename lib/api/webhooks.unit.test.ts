import { describe, expect, it } from 'vitest';
import { isAwaiting, type WebhookExecution } from '@/lib/api/webhooks';

const execution = (id: string, outcome?: 'SUCCEEDED' | 'FAILED'): WebhookExecution => ({
  id,
  actionId: 1,
  eventId: 'e',
  receivedAt: 0,
  ...(outcome && { outcome }),
});

describe('isAwaiting (the executions list reads again)', () => {
  it('waits while a listed execution has no outcome', () => {
    expect(isAwaiting({ content: [execution('a'), execution('b', 'SUCCEEDED')] })).toBe(true);
    expect(isAwaiting({ content: [execution('b', 'FAILED')] })).toBe(false);
  });

  it('waits for the awaited execution until it is listed with its outcome', () => {
    expect(isAwaiting({ content: [execution('b', 'FAILED')] }, 'a')).toBe(true);
    expect(isAwaiting({ content: [execution('a', 'SUCCEEDED'), execution('b', 'FAILED')] }, 'a')).toBe(false);
    expect(isAwaiting(undefined, 'a')).toBe(false);
  });
});
