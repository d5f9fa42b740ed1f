import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runUnderTimeZone } from '@/server/test/time-zone-child';
import { corpus } from './tz-corpus.test-kit';

/*
 * Resolution never depends on the process time zone: the same corpus run in child processes under TZ=UTC,
 * America/Chicago and Asia/Kathmandu answers byte-identical JSON, equal to this process's answer.
 */

const MODULE = fileURLToPath(new URL('./tz-corpus.test-kit.ts', import.meta.url));
const runUnder = (tz: string) => runUnderTimeZone(MODULE, 'corpus', tz);

describe('independence of the process time zone', () => {
  it('answers the same segments and explanations under TZ=UTC, America/Chicago and Asia/Kathmandu', { timeout: 120_000 }, async () => {
    const zones = ['UTC', 'America/Chicago', 'Asia/Kathmandu'];
    const runs = await Promise.all(zones.map(runUnder));
    // the children really ran in those zones: their local offset on 2026-01-01 (minutes behind UTC)
    expect(runs.map((r) => r.offset)).toEqual([0, 360, -345]);
    const here = JSON.stringify(corpus());
    for (const run of runs) expect(run.json).toBe(here);
  });
});
