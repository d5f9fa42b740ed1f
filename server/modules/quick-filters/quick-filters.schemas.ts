import { z } from '@hono/zod-openapi';
import { intId, resourceName } from '@/server/http/wire.schemas';
import { tagSchema } from '@/server/modules/tags/tags.schemas';
import { updateBody } from '@/server/http/update-body';

/*
 * Wire shapes of quick filters (spec 3 "Quick filter"). No server imports: the console reuses these
 * for its "save the current search" form.
 */

export const filteredEntityTypeValues = ['FILE', 'CONTENT', 'DEVICE'] as const;

const common = {
  search: z.string().max(8192).nullish().openapi({ description: 'A `search` expression over the entity (spec 1 query language)' }),
  searchRecursively: z.boolean().nullish().openapi({ description: 'The folder and all its sub-folders' }),
  name: z.string().max(1024).nullish().openapi({ description: 'Name contains (case-insensitive)' }),
  tags: z.array(tagSchema).max(1000).nullish().openapi({ description: 'Items carrying any of these tags' }),
};

const FileCriteriaSchema = z
  .strictObject({
    type: z.literal('FILE'),
    ...common,
    folderId: z.string().uuid().nullish().openapi({ description: 'A file folder' }),
    validFileOnly: z.boolean().nullish().openapi({ description: 'Only files valid now (validFrom ≤ now ≤ validTo)' }),
    isUndefinedValidityValid: z
      .boolean()
      .nullish()
      .openapi({ description: 'With validFileOnly: a missing validFrom/validTo counts as valid' }),
  })
  .openapi('FileQuickFilterCriteria');

const ContentCriteriaSchema = z
  .strictObject({
    type: z.literal('CONTENT'),
    ...common,
    groupId: z.string().uuid().nullish().openapi({ description: 'A content folder' }),
  })
  .openapi('ContentQuickFilterCriteria');

const DeviceCriteriaSchema = z
  .strictObject({
    type: z.literal('DEVICE'),
    ...common,
    deviceGroupId: z.string().uuid().nullish().openapi({ description: 'A device folder' }),
  })
  .openapi('DeviceQuickFilterCriteria');

export const CriteriaSchema = z
  .discriminatedUnion('type', [FileCriteriaSchema, ContentCriteriaSchema, DeviceCriteriaSchema])
  .openapi('QuickFilterCriteria', { description: "`type` must equal the filter's `filteredEntityType`" });

export type FileCriteria = z.infer<typeof FileCriteriaSchema>;
export type ContentCriteria = z.infer<typeof ContentCriteriaSchema>;
export type Criteria = z.infer<typeof CriteriaSchema>;

const FilteredEntityTypeSchema = z.enum(filteredEntityTypeValues);

export const QuickFilterCreateSchema = z
  .object({
    name: resourceName,
    filteredEntityType: FilteredEntityTypeSchema,
    criteria: CriteriaSchema,
    listed: z.boolean().optional().openapi({ description: 'Visible in filter dropdowns (default true)' }),
    custom: z.boolean().optional(),
  })
  .openapi('QuickFilterCreate');

export const QuickFilterUpdateSchema = updateBody('QuickFilterUpdate', {
  name: resourceName,
  filteredEntityType: FilteredEntityTypeSchema.openapi({ description: 'Immutable: only the current value is accepted' }),
  criteria: CriteriaSchema,
  listed: z.boolean(),
  custom: z.boolean(),
});

export type QuickFilterCreate = z.infer<typeof QuickFilterCreateSchema>;
export type QuickFilterUpdate = z.infer<typeof QuickFilterUpdateSchema>;

export const QuickFilterSchema = z
  .object({
    id: z.string(),
    name: z.string().optional(),
    filteredEntityType: FilteredEntityTypeSchema.optional(),
    criteria: z.record(z.string(), z.unknown()).optional(),
    listed: z.boolean().optional(),
    custom: z.boolean().optional(),
    customerId: intId.optional(),
    createdDate: z.string().optional(),
    readOnly: z
      .boolean()
      .optional()
      .openapi({ description: "Used by channels or sub-channels, or only read-only through the caller's teams" }),
    campaignUsageDetails: z.array(z.record(z.string(), z.unknown())).optional().openapi({ description: 'select-only' }),
    messageUsageDetails: z.array(z.record(z.string(), z.unknown())).optional().openapi({ description: 'select-only' }),
  })
  .openapi('QuickFilter');

export type QuickFilter = z.infer<typeof QuickFilterSchema>;
