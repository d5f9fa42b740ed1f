import { advertiserPlaySources } from '@/server/modules/advertisers';
import { defineModule, plug } from '@/server/modules/module';
import { compactRollups, maintainPlayPartitions, PLAY_PARTITIONS_JOB, PLAY_ROLLUP_COMPACTION_JOB } from './proof-of-play.jobs';
import { registerProofOfPlayRoutes } from './proof-of-play.handlers';
import { findAdvertiserPlays, summarizeAdvertiserPlays } from './advertiser-plays.queries';
import { playRollupDays, playRollupDayTotals, playSubjects } from './proof-of-play.table';

/**
 * Proof of play (spec 4 §5): the players' play events (`POST /api/display/proofOfPlay`), stored raw in
 * monthly partitions and counted in day rollups of quarter-hour slots in the same transaction (merged into
 * one row a key by a job every minute); the names of what was played are kept for the reports
 * (`/api/v2/proof-of-display/...`, reports.*.ts) and the advertisers' CSV history (plugged into the advertisers' export).
 */
export const proofOfPlayModule = defineModule({
  name: 'proof-of-play',
  routes: registerProofOfPlayRoutes,
  tables: [playRollupDays, playRollupDayTotals, playSubjects],
  plugs: [plug(advertiserPlaySources, { name: 'proof-of-play', batch: findAdvertiserPlays, summary: summarizeAdvertiserPlays })],
  jobs: ({ db, log }) => [
    { name: PLAY_PARTITIONS_JOB, cron: '41 2 * * *', run: async () => void (await maintainPlayPartitions(db, new Date(), log)) },
    { name: PLAY_ROLLUP_COMPACTION_JOB, cron: '* * * * *', run: async () => void (await compactRollups(db, log)) },
  ],
  prepare: async (db) => void (await maintainPlayPartitions(db)),
});
