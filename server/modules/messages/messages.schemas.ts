import { z } from '@hono/zod-openapi';
import { dropNullAttributes, nullsDropped, updateBody } from '@/server/http/update-body';
import { combinationIssue, intId, uuid } from '@/server/http/wire.schemas';
import {
  assignmentShapes,
  CampaignTeamAccessListSchema,
  channelRuleResponseFields,
  channelRuleWritableFields,
  deviceSelectionModeValues,
} from '@/server/modules/campaigns/campaigns.schemas';
import { projected } from '@/server/query/projection.schemas';

/*
 * Wire shapes of messages (sub-channels), spec 2 "Message group and message": writes `/api/message`, reads
 * `/api/v2/message`. Device targeting and assignments are the campaigns' shapes. No server imports.
 */

export const messageTypeValues = [
  'CONTENT',
  'CONTENT_DYNAMIC',
  'ASSETS_STATIC',
  'ASSETS_DYNAMIC',
  'CONTENT_QUICK_FILTER',
  'ASSET_QUICK_FILTER',
] as const;
export type MessageType = (typeof messageTypeValues)[number];

const { messageGroupAssignment: _noGroups, ...messageAssignmentShapes } = assignmentShapes;

/** The fields a create and an update share (every one optional here). */
const writableFields = {
  ...channelRuleWritableFields,
  saturation: z.number().int().min(0).max(100_000).openapi({ description: 'Items per turn: 1 one item/page, N items, 0 all items' }),
  isPlayedElementsCappedByItemCount: z
    .boolean()
    .openapi({ description: 'Default true: a saturation above the item count plays only the items there are' }),
  contentId: uuid.openapi({ description: 'The content a CONTENT message plays' }),
  ...messageAssignmentShapes,
};

// Nulls are dropped before validation (null = omitted), so each optional attribute also takes null.
const optionalShape = Object.fromEntries(
  Object.entries(nullsDropped(writableFields)).map(([key, schema]) => [key, (schema as z.ZodType).optional()]),
) as {
  [K in keyof typeof writableFields]: z.ZodOptional<(typeof writableFields)[K]>;
};

/** What names the items of each type (required on create). */
const requiredByMessageType: Record<MessageType, keyof typeof writableFields> = {
  CONTENT: 'contentId',
  CONTENT_DYNAMIC: 'contentGroupAssignment',
  ASSETS_STATIC: 'fileAssignment',
  ASSETS_DYNAMIC: 'fileFolderAssignment',
  CONTENT_QUICK_FILTER: 'contentQuickFilterId',
  ASSET_QUICK_FILTER: 'fileQuickFilterId',
};

type CreateShape = z.infer<z.ZodObject<typeof optionalShape>> & { type: MessageType; deviceSelectionMode?: string };

function isMissing(body: CreateShape, field: keyof typeof writableFields): boolean {
  const value = (body as Record<string, unknown>)[field];
  if (value === undefined) return true;
  if (field in messageAssignmentShapes) return ((value as { assignments?: unknown[] }).assignments ?? []).length === 0;

  return false;
}

function checkCreate(body: CreateShape, ctx: z.RefinementCtx): void {
  const required: { field: keyof typeof writableFields; why: string }[] = [
    { field: requiredByMessageType[body.type], why: `type ${body.type}` },
  ];
  const mode = body.deviceSelectionMode ?? 'DYNAMIC';
  if (mode === 'STATIC') required.push({ field: 'deviceAssignment', why: 'deviceSelectionMode STATIC' });
  if (mode === 'QUICK_FILTER') required.push({ field: 'deviceQuickFilterId', why: 'deviceSelectionMode QUICK_FILTER' });
  for (const { field, why } of required) {
    if (isMissing(body, field))
      combinationIssue(
        ctx,
        [field],
        field in messageAssignmentShapes ? `${why} needs ${field} with at least one assignment` : `${why} needs ${field}`,
      );
  }
  if (body.validFrom && body.validTo && body.validFrom > body.validTo)
    combinationIssue(ctx, ['validTo'], 'validTo must not be before validFrom');
}

/** POST /api/message: `name`, `messageGroupId`, `type` and `version` 2.0 always; what names the items by type. */
export const MessageCreateSchema = z
  .preprocess(
    dropNullAttributes,
    z
      .object({
        ...optionalShape,
        name: writableFields.name,
        messageGroupId: intId.openapi({ description: 'The message group (sub-channel group) it belongs to' }),
        type: z.enum(messageTypeValues).openapi({ description: 'Immutable' }),
        version: z.literal('2.0', { error: 'A message has version 2.0' }),
        deviceSelectionMode: z
          .enum(deviceSelectionModeValues)
          .optional()
          .openapi({ description: 'Immutable; default DYNAMIC (without deviceGroupAssignment: every screen its channel plays on)' }),
      })
      .superRefine(checkCreate),
  )
  .openapi('MessageCreate');

/** PUT /api/message/{id}: partial; assignment objects are additive; `type`, `deviceSelectionMode`, `messageGroupId` and `version` are ignored. */
export const MessageUpdateSchema = updateBody(
  'MessageUpdate',
  {
    ...writableFields,
    resetValidFrom: z.boolean(),
    resetValidTo: z.boolean(),
    type: z.unknown().openapi({ description: 'Immutable: ignored' }),
    deviceSelectionMode: z.unknown().openapi({ description: 'Immutable: ignored' }),
    messageGroupId: z.unknown().openapi({ description: 'Immutable: ignored' }),
    version: z.unknown().openapi({ description: 'Ignored' }),
  },
  'Assignment objects add (`assignments`) and remove (`removeIds`); `resetValidFrom`/`resetValidTo: true` clear the dates.',
);

export const MessageSchema = projected(
  z.object({
    id: intId,
    name: z.string().optional(),
    customerId: intId.optional(),
    messageGroupId: intId.optional(),
    messageGroupName: z.string().optional(),
    type: z.enum(messageTypeValues).optional(),
    ...channelRuleResponseFields,
    isPlayedElementsCappedByItemCount: z.boolean().optional(),
    contentId: z.string().optional(),
    contentName: z.string().optional(),
    teamAccessList: CampaignTeamAccessListSchema.optional(),
  }),
).openapi('Message');

export type Message = z.infer<typeof MessageSchema>;
export type MessageCreate = z.output<typeof MessageCreateSchema>;
export type MessageUpdate = z.output<typeof MessageUpdateSchema>;
