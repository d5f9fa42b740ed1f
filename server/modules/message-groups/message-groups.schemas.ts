import { z } from '@hono/zod-openapi';
import { clearable, updateBody } from '@/server/http/update-body';
import { intId, resourceName } from '@/server/http/wire.schemas';

/*
 * Wire shapes of message groups (spec 2 "Message group and message"). No server imports: the console reuses these.
 */

export const contentShuffleModes = ['BALANCED', 'SERIAL'] as const;

const weight = z.number().int().min(-1_000_000).max(1_000_000).openapi({ description: 'Order among groups: lower plays first' });
const saturation = z.number().min(0).max(1_000_000).openapi({ description: 'Stored; players ignore it (spec 2)' });
const shuffle = z.enum(contentShuffleModes).openapi({ description: 'Stored; players ignore it (spec 2)' });

export const MessageGroupSchema = z
  .object({
    id: intId,
    name: z.string(),
    weight: z.number().int().optional(),
    saturation: z.number().optional(),
    contentShuffleMode: z.enum(contentShuffleModes).optional(),
    customerId: intId.optional(),
    createdDate: z.string().optional(),
    lastSavedAt: z.string().optional(),
    readOnly: z.boolean().optional().openapi({ description: 'Computed: read-only through every team of the caller' }),
    teamAssignments: z.array(z.record(z.string(), z.unknown())).optional().openapi({ description: 'select-only: the teams of the group' }),
  })
  .openapi('MessageGroup');

export const MessageGroupCreateSchema = z
  .object({ name: resourceName, weight: weight.optional(), saturation: saturation.optional(), contentShuffleMode: shuffle.optional() })
  .openapi('MessageGroupCreate');

export const MessageGroupUpdateSchema = updateBody('MessageGroupUpdate', {
  name: resourceName,
  weight,
  saturation: clearable(saturation),
  contentShuffleMode: clearable(shuffle),
});

export type MessageGroup = z.infer<typeof MessageGroupSchema>;
export type MessageGroupCreate = z.infer<typeof MessageGroupCreateSchema>;
export type MessageGroupUpdate = z.infer<typeof MessageGroupUpdateSchema>;
