import { defineModule } from '@/server/modules/module';
import { maintainPlayPartitions, PLAY_PARTITIONS_JOB } from './proof-of-play.jobs';
import { registerProofOfPlayRoutes } from './proof-of-play.handlers';
import { playRollupDays, playSubjects } from './proof-of-play.table';

/**
 * Proof of play (spec 4 §5): the players' play events (`POST /api/display/proofOfPlay`), stored raw in
 * monthly partitions and counted in day rollups of quarter-hour slots in the same transaction; the names of
 * what was played are kept for the reports.
 */
export const proofOfPlayModule = defineModule({
  name: 'proof-of-play',
  routes: registerProofOfPlayRoutes,
  tables: [playRollupDays, playSubjects],
  jobs: ({ db, log }) => [{ name: PLAY_PARTITIONS_JOB, cron: '41 2 * * *', run: async () => void (await maintainPlayPartitions(db, new Date(), log)) }],
  prepare: async (db) => void (await maintainPlayPartitions(db)),
});
