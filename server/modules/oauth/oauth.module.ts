import { defineModule } from '@/server/modules/module';
import { registerOAuthRoutes } from './oauth.handlers';
import { removeExpiredTokens } from './oauth.service';

export const oauthModule = defineModule({
  name: 'oauth',
  routes: registerOAuthRoutes,
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
