import { callerDirectories } from '@/server/auth/authenticate';
import { defineModule, plug } from '@/server/modules/module';
import { ACTIVITY_WRITE_INTERVAL_SECONDS, recordRequestActivity, sessionStores } from '@/server/modules/users';
import { findCallerByTokenHash, findCallerByTokenId, revokeAllFamiliesOfUser } from './oauth.queries';
import { oauthAccessTokens, oauthRefreshTokens, oauthTokenFamilies } from './oauth.table';
import { registerOAuthRoutes } from './oauth.handlers';
import { removeExpiredTokens } from './oauth.service';

export const oauthModule = defineModule({
  name: 'oauth',
  routes: registerOAuthRoutes,
  tables: [oauthTokenFamilies, oauthAccessTokens, oauthRefreshTokens],
  plugs: [
    plug(callerDirectories, {
      byTokenHash: findCallerByTokenHash,
      byTokenId: findCallerByTokenId,
      recordActivity: recordRequestActivity,
      activityIntervalSeconds: ACTIVITY_WRITE_INTERVAL_SECONDS,
    }),
    plug(sessionStores, { name: 'oauth', revokeAllOfUser: revokeAllFamiliesOfUser }),
  ],
  jobs: ({ db, config, log }) => [
    {
      name: 'auth.remove-expired-tokens',
      cron: '*/15 * * * *',
      run: async () => {
        const removed = await removeExpiredTokens(db, config);
        if (removed > 0) log.info({ removed }, 'expired token families removed');
      },
    },
  ],
});
