import type { ServiceContext } from '@/server/context/service-context';
import { definePlugPoint } from '@/server/plug-point';
import type { CampaignAiring } from './campaigns.schemas';

/**
 * The next airings of campaigns (GET /api/v2/campaign/airing): what a screen would play, so the module that resolves
 * playback for screens (display) plugs it in (its manifest), and this module names no display code.
 */
export type CampaignAiringReader = {
  airings: (ctx: ServiceContext, input: { campaignIds: string; at?: number }) => Promise<CampaignAiring[]>;
};

export const campaignAiringReaders = definePlugPoint<CampaignAiringReader>('campaignAirings', () => 'campaignAirings');

export function campaignAiringReader(): CampaignAiringReader {
  const reader = campaignAiringReaders.items()[0];
  if (!reader) throw new Error('No campaign airing reader is installed (the display module plugs it in)');

  return reader;
}
