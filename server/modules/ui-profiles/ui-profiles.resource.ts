import { defineResource } from '@/server/query/resource';
import { uiProfiles } from './ui-profiles.table';

/** Searchable and selectable fields of `userInterfaceProfile` (spec 3 "UI profile"). */
export const uiProfileResource = defineResource({
  name: 'userInterfaceProfile',
  table: uiProfiles,
  tenant: (t) => t.customerId,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    comment: { kind: 'scalar', type: 'string', sql: t.comment },
    hiddenUIElementRules: { kind: 'scalar', type: 'json', sql: t.hiddenUIElementRules },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
  }),
});
