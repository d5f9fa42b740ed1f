import { contentUsages } from '@/server/modules/content';
import { deviceGroupUsages } from '@/server/modules/device-groups';
import { fileReferences } from '@/server/modules/files';
import { defineModule, plug } from '@/server/modules/module';
import { quickFilterUsages } from '@/server/modules/quick-filters';
import { messageGroupScreens } from '@/server/modules/message-groups';
import { usageCounters } from '@/server/modules/resource-limits';
import { tagSources } from '@/server/modules/tags';
import { teamResources } from '@/server/modules/teams';
import {
  campaignContentUsages,
  campaignDeviceGroupUsages,
  campaignFileReferences,
  campaignQuickFilterUsage,
  scheduleFileReferences,
} from './campaign-references';
import { registerCampaignRoutes } from './campaigns.handlers';
import { screensOfMessageGroup } from './campaign-targeting.queries';
import { countCampaignsOf, insertCampaign } from './campaigns.queries';
import { campaignAssignmentTables, campaigns } from './campaigns.table';

/**
 * Campaigns: channels (`level` WIDGET) and schedules (`level` TOP), spec 2 "Campaign". What they play and
 * where are assignment tables; which screens they target is one SQL statement (campaign-targeting.queries.ts), also
 * used to tell those screens when a campaign changes. Message groups and messages come later.
 */
export const campaignsModule = defineModule({
  name: 'campaigns',
  routes: registerCampaignRoutes,
  tables: [campaigns, ...campaignAssignmentTables],
  plugs: [
    plug(teamResources, { type: 'campaign', table: campaigns, idColumn: campaigns.id, customerIdColumn: campaigns.customerId }),
    plug(tagSources, {
      name: 'campaign',
      tagType: 'CAMPAIGN',
      table: campaigns,
      tagsColumn: campaigns.tags,
      customerIdColumn: campaigns.customerId,
    }),
    plug(usageCounters, { resource: 'CAMPAIGN', count: countCampaignsOf }),
    plug(fileReferences, campaignFileReferences, scheduleFileReferences),
    plug(deviceGroupUsages, ...campaignDeviceGroupUsages),
    plug(contentUsages, ...campaignContentUsages),
    plug(quickFilterUsages, campaignQuickFilterUsage),
    plug(messageGroupScreens, { screensOf: screensOfMessageGroup }),
  ],
  sweep: {
    campaign: async (db, customerId) =>
      String(
        (
          await insertCampaign(db, {
            customerId,
            name: 'sweep',
            level: 'WIDGET',
            type: 'CONTENT',
            contentShuffleMode: 'BALANCED',
            defaultDuration: 10,
          })
        ).id,
      ),
  },
});
