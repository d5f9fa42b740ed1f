import { z } from '@hono/zod-openapi';

const rulesSchema = z
  .record(z.string(), z.unknown())
  .openapi({
    description:
      'JSON document owned by the console (`version`, `legacy`, `newUi`, `dashboard`, `loopEditor`, `contentEditor`, `playlistEditor`, `regionalFormatSettings`). ' +
      'Hides UI elements only; it grants or removes no API permission.',
  });

export const UiProfileSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    comment: z.string().optional(),
    hiddenUIElementRules: rulesSchema.optional(),
    customerId: z.number().int().optional(),
  })
  .openapi('UserInterfaceProfile');

export const UiProfileCreateSchema = z
  .object({
    name: z.string().trim().min(1).max(255),
    comment: z.string().max(2000).optional(),
    hiddenUIElementRules: rulesSchema,
  })
  .openapi('UserInterfaceProfileCreate');

export const UiProfileUpdateSchema = z
  .object({
    name: z.string().trim().min(1).max(255).optional(),
    comment: z.string().max(2000).optional(),
    hiddenUIElementRules: rulesSchema.optional().openapi({ description: 'Omitted: kept. Sent: replaces the whole document.' }),
  })
  .openapi('UserInterfaceProfileUpdate');

export const UiProfileAssignSchema = z
  .object({
    assignUserIds: z.array(z.string().uuid()).max(1000).optional(),
    removeUserIds: z.array(z.string().uuid()).max(1000).optional(),
  })
  .openapi('UserInterfaceProfileAssignment');

export type UiProfile = z.infer<typeof UiProfileSchema>;
export type UiProfileCreate = z.infer<typeof UiProfileCreateSchema>;
export type UiProfileUpdate = z.infer<typeof UiProfileUpdateSchema>;
export type UiProfileAssign = z.infer<typeof UiProfileAssignSchema>;
