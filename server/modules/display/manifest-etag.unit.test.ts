import { describe, expect, it } from 'vitest';
import { campaign, device, file } from '@/server/playback/fixtures.test-kit';
import { targetedRules, type PlaybackRules } from '@/server/playback/resolver';
import { emptyManifestEtag, manifestEtagOf } from './manifest-etag';
import type { ContentGraph, GraphFile } from './manifest.queries';

/*
 * The manifest ETag is built from what decides the manifest: it must move with every input the manifest shows,
 * and must not move with the order the content graph lists files in (by name, in the database's collation).
 */

const DAY = 86_400_000;
const validUntil = 20_000 * DAY;
const graphFile = (n: number, crc = 'crc'): GraphFile => ({
  id: file(n).id,
  name: file(n).name,
  contentType: 'image/png',
  size: 10,
  crcCheckSum: crc,
  width: 1920,
  height: 1080,
  durationSeconds: null,
  validFrom: null,
  validTo: null,
  folderId: null,
  referencedBy: [],
  folderReferencedBy: [],
});
const graphOf = (files: GraphFile[]): ContentGraph => ({ contents: new Map(), files: new Map(files.map((f) => [f.id, f])) });
const screen = device();
const settings = { volume: 50 };

function etag(
  rules: PlaybackRules,
  graph: ContentGraph,
  overrides: { settings?: unknown; validUntil?: number; facts?: ReturnType<typeof device> } = {},
) {
  const facts = overrides.facts ?? screen;

  return manifestEtagOf({
    device: { id: facts.id, timeZone: facts.timeZone, settings: overrides.settings ?? settings },
    facts,
    targeted: targetedRules(rules, facts),
    graph,
    validUntil: overrides.validUntil ?? validUntil,
  });
}

describe('the manifest ETag', () => {
  const files = [file(1), file(2), file(3)];
  const rules: PlaybackRules = { campaigns: [campaign(1, { files, deviceGroupIds: [screen.folderIds[0]!, screen.folderIds[1]!] })] };
  const graph = graphOf([graphFile(1), graphFile(2), graphFile(3)]);
  const base = etag(rules, graph);

  it('does not move with the order the graph lists files in, nor with another read of the same data', () => {
    expect(etag(rules, graphOf([graphFile(3), graphFile(1), graphFile(2)]))).toBe(base);
    expect(etag({ campaigns: [{ ...rules.campaigns[0]! }] }, graphOf([graphFile(1), graphFile(2), graphFile(3)]))).toBe(base);
  });

  it("moves with the campaign, its items, the files' bytes, the settings, the zone, the period and the targeting", () => {
    const others = [
      etag({ campaigns: [{ ...rules.campaigns[0]!, defaultDurationS: 12 }] }, graph),
      etag({ campaigns: [{ ...rules.campaigns[0]!, files: files.slice(0, 2) }] }, graph),
      etag(rules, graphOf([graphFile(1), graphFile(2), graphFile(3, 'replaced')])),
      etag(rules, graph, { settings: { volume: 60 } }),
      etag(rules, graph, { facts: { ...screen, timeZone: 'Asia/Kolkata' } }),
      etag(rules, graph, { validUntil: validUntil + DAY }),
      etag({ campaigns: [{ ...rules.campaigns[0]!, deviceGroupIds: ['f0000000-0000-4000-8000-00000000dead'] }] }, graph),
      emptyManifestEtag(validUntil),
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
  });

  it('tells apart screens a RANDOM order targets (its seed is the screen), not those it does not', () => {
    const random: PlaybackRules = { campaigns: [campaign(1, { files, orderingMode: 'RANDOM' })] };
    const other = { ...screen, id: 'd0000000-0000-4000-8000-000000000002' };
    expect(etag(random, graph)).not.toBe(etag(random, graph, { facts: other }));
    expect(etag(rules, graph)).toBe(etag(rules, graph, { facts: other }));
  });
});
