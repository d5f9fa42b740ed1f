import { z } from '@hono/zod-openapi';
import { clearable, updateBody } from '@/server/http/update-body';
import { intId, resourceName } from '@/server/http/wire.schemas';

const rulesSchema = z.record(z.string(), z.unknown()).openapi({
  description:
    'JSON document owned by the console (`version`, `legacy`, `newUi`, `dashboard`, `loopEditor`, `contentEditor`, `playlistEditor`, `regionalFormatSettings`). ' +
    'Hides UI elements only; it grants or removes no API permission.',
});

export const UiProfileSchema = z
  .object({
    id: intId,
    name: z.string(),
    comment: z.string().optional(),
    hiddenUIElementRules: rulesSchema.optional(),
    customerId: intId.optional(),
  })
  .openapi('UserInterfaceProfile');

export const UiProfileCreateSchema = z
  .object({
    name: resourceName,
    comment: z.string().max(2000).optional(),
    hiddenUIElementRules: rulesSchema,
  })
  .openapi('UserInterfaceProfileCreate');

export const UiProfileUpdateSchema = updateBody('UserInterfaceProfileUpdate', {
  name: resourceName,
  comment: clearable(z.string().max(2000)),
  hiddenUIElementRules: rulesSchema.openapi({ description: 'Omitted or null: kept. Sent: replaces the whole document.' }),
});

export const UiProfileAssignSchema = updateBody(
  'UserInterfaceProfileAssignment',
  {
    assignUserIds: z.array(z.string().uuid()).max(1000),
    removeUserIds: z.array(z.string().uuid()).max(1000),
  },
  "Users of the profile's customer; a user is not both assigned and removed.",
);

export type UiProfile = z.infer<typeof UiProfileSchema>;
export type UiProfileCreate = z.infer<typeof UiProfileCreateSchema>;
export type UiProfileUpdate = z.infer<typeof UiProfileUpdateSchema>;
export type UiProfileAssign = z.infer<typeof UiProfileAssignSchema>;
