import { countTeamsOf, countUiProfilesOf, countUsersOf } from './resource-limits.queries';
import { registerUsageCounter } from './resource-limits.usage';
import { countQuickFiltersOf } from '@/server/modules/quick-filters/quick-filters.queries';

// Counters of modules that exist today; later modules register theirs the same way.
registerUsageCounter('USER', countUsersOf);
registerUsageCounter('UI_PROFILE', countUiProfilesOf);
registerUsageCounter('TEAM', countTeamsOf);
registerUsageCounter('QUICK_FILTER', countQuickFiltersOf);
