import { describe, expect, it } from 'vitest';
import { preflight } from './deletion-preflight';

const base = { id: '00000000-0000-4000-8000-000000000001', name: 'a.png' };

describe('deletion preflight (spec 2)', () => {
  it('clears an unused writable file', () => {
    expect(preflight({ ...base, readOnly: false, usageDetails: { contentUsage: [] }, campaignUsageDetails: [] }).verdict).toBe('clear');
  });
  it('blocks read-only files and files used by channels, schedules or sub-channels', () => {
    expect(preflight({ ...base, readOnly: true }).verdict).toBe('blocked');
    const used = preflight({ ...base, campaignUsageDetails: [{ id: 'c1', name: 'Lobby' }] });
    expect(used.verdict).toBe('blocked');
    expect(used.reasons).toEqual([{ key: 'channels', names: ['Lobby'] }]);
    expect(preflight({ ...base, messageUsageDetails: [{ id: 'm1' }] }).verdict).toBe('blocked');
  });
  it('warns about content usage and recognises playlist-only usage', () => {
    const playlists = preflight({ ...base, usageDetails: { contentUsage: [{ id: 'p', name: 'Morning', deviceContentType: 'PLAYLIST' }] } });
    expect(playlists).toMatchObject({ verdict: 'warn', playlistOnly: true, reasons: [{ key: 'playlists', names: ['Morning'] }] });
    const mixed = preflight({
      ...base,
      usageDetails: {
        contentUsage: [
          { id: 'p', deviceContentType: 'PLAYLIST' },
          { id: 's', deviceContentType: 'SLIDE' },
        ],
      },
    });
    expect(mixed).toMatchObject({ verdict: 'warn', playlistOnly: false });
  });
});
