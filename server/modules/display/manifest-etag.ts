import { createHash } from 'node:crypto';
import { ownedMemo } from '@/server/playback/memo';
import type { CampaignRules, DeviceFacts, PlayRules, targetedRules } from '@/server/playback/resolver';
import { closureIds, inFoldersOf } from './manifest-closure';
import type { ContentGraph } from './manifest.queries';

/**
 * The ETag (bare): a hash of what decides the manifest, not of the resolved manifest, so that telling thousands
 * of screens of a change resolves none of them. It covers the URL period (`validUntil`), the device's zone,
 * settings and layers, which campaigns and messages target it (`targetedRules`: its sharing key), each targeted
 * campaign whole (time rules, order, candidate items with their messages) with the closure of what it may play
 * (every content's name, kind, version and document, every file's fields and folder membership), and the layers'
 * content closures. The segments are a function of these (a property test shows it), so the ETag changes with
 * anything the manifest shows; it may change for a campaign that targets the device without playing in the period,
 * which costs a refetch, never a stale screen. It does not move with `generatedAt`: a manifest stays whole until
 * `validUntil`.
 */
export type EtagInputs = {
  device: { id: string; timeZone: string; settings: unknown };
  facts: DeviceFacts;
  targeted: ReturnType<typeof targetedRules>;
  graph: ContentGraph;
  /** The manifest's `validUntil` (`manifestPeriod`): the URLs' period. */
  validUntil: number;
};

export function manifestEtagOf({ device, facts, targeted, graph, validUntil }: EtagInputs): string {
  const layers = [facts.emergencyContent, facts.defaultEmergencyContent, facts.content].map((ref) =>
    ref ? layerDigest(graph, ref.id) : null,
  );

  return hashEtag({
    v: 3,
    period: validUntil,
    timeZone: device.timeZone,
    settings: device.settings,
    plan: targeted.planKey,
    seed: targeted.key === targeted.planKey ? null : device.id,
    campaigns: targeted.rules.campaigns.map((campaign) => campaignDigest(graph, campaign)),
    layers,
  });
}

const hashEtag = (shown: unknown): string => createHash('sha256').update(JSON.stringify(shown)).digest('base64url').slice(0, 27);

const layerDigests = ownedMemo<ContentGraph, string>();

/** What the ETag hashes of a layer's content closure, once per graph. */
const layerDigest = (graph: ContentGraph, contentId: string): string =>
  layerDigests(graph, contentId, () =>
    createHash('sha256')
      .update(closureText(graph, [contentId], []))
      .digest('base64url'),
  );

const campaignDigests = new WeakMap<CampaignRules, WeakMap<ContentGraph, string>>();

/**
 * A campaign whole (rules, items, messages) with the closure of everything it and its messages may play, once
 * per campaign and graph. The loader reads every set in a fixed order (playback-rules.queries.ts), so the
 * campaign's JSON is stable.
 */
function campaignDigest(graph: ContentGraph, campaign: CampaignRules): string {
  let byGraph = campaignDigests.get(campaign);
  if (!byGraph) campaignDigests.set(campaign, (byGraph = new WeakMap()));
  let digest = byGraph.get(graph);
  if (digest === undefined) {
    const { contentIds, fileIds } = campaignItems([campaign]);
    digest = createHash('sha256')
      .update(JSON.stringify(campaign))
      .update(closureText(graph, contentIds, fileIds))
      .digest('base64url');
    byGraph.set(graph, digest);
  }

  return digest;
}

/** The content and file ids `campaigns` and their messages may play (the roots of the ETag's closures). */
export function campaignItems(campaigns: readonly CampaignRules[]): { contentIds: string[]; fileIds: string[] } {
  const contentIds = new Set<string>();
  const fileIds = new Set<string>();
  const add = (rules: PlayRules) => {
    for (const content of rules.contents ?? []) contentIds.add(content.id);
    for (const file of rules.files ?? []) fileIds.add(file.id);
  };
  for (const campaign of campaigns) {
    add(campaign);
    for (const group of campaign.messageGroups ?? []) for (const message of group.messages) add(message);
  }

  return { contentIds: [...contentIds], fileIds: [...fileIds] };
}

export const layerContentIds = (facts: Iterable<DeviceFacts>): string[] => {
  const ids = new Set<string>();
  for (const f of facts) for (const ref of [f.emergencyContent, f.defaultEmergencyContent, f.content]) if (ref) ids.add(ref.id);

  return [...ids];
};

const stamps = ownedMemo<ContentGraph, string>();

/**
 * What the ETag hashes of the closure of `roots` and `fileIds` (fed to the campaign's own hash, one update): each
 * content's id, name, kind, structure, version and document hash, each file's fields and folder membership, by id.
 * Each item's text is written once per graph.
 */
function closureText(graph: ContentGraph, roots: readonly string[], fileIds: readonly string[]): string {
  const closure = closureIds(graph, roots, fileIds);
  const parts: string[] = [];
  for (const id of closure.contentIds) {
    parts.push(
      stamps(graph, id, () => {
        const c = graph.contents.get(id)!;

        return JSON.stringify([c.id, c.name, c.deviceContentType, c.structureType, c.version, c.dataHash]);
      }),
    );
  }
  parts.push('|');
  for (const id of [...closure.fileIds].sort()) {
    const f = graph.files.get(id)!;
    const inFolders = inFoldersOf(f, closure.reached);
    parts.push(
      stamps(graph, `${id}${inFolders.length > 0 ? '+' : ''}`, () =>
        JSON.stringify([
          f.id,
          f.name,
          f.contentType,
          f.size,
          f.crcCheckSum,
          f.width,
          f.height,
          f.durationSeconds,
          f.validFrom,
          f.validTo,
          inFolders,
        ]),
      ),
    );
  }

  return parts.join('');
}

/** The ETag of a manifest with nothing to play (an unclaimed device). */
export const emptyManifestEtag = (validUntil: number): string =>
  hashEtag({ v: 3, period: validUntil, timeZone: 'UTC', settings: {}, plan: null, campaigns: [], layers: [] });
