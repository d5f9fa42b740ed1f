import { z } from '@hono/zod-openapi';
import { epochMs as epochMsValue, intId, resourceName } from '@/server/http/wire.schemas';
import { tagListOf } from '@/server/modules/tags/tags.schemas';
import { projected } from '@/server/query/projection.schemas';
import { updateBody } from '@/server/http/update-body';

/*
 * Wire shapes of files (spec 2 "File"). No server imports: the console reuses these for forms and types.
 */

const fileOrientations = ['landscape', 'portrait', 'square'] as const;
export const teamAssignmentModes = ['MERGE', 'OVERWRITE', 'KEEP_TARGET'] as const;

const epochMs = (description: string) => epochMsValue.optional().openapi({ description: `${description} (Unix epoch milliseconds)` });

export const FileSchema = projected(
  z.object({
    id: z.string().uuid(),
    name: z.string().optional(),
    contentType: z.string().optional(),
    size: z.number().int().optional(),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    createDate: epochMs('Upload time'),
    creatorEmail: z.string().optional(),
    creator: z.object({ email: z.string().optional(), name: z.string().optional() }).optional(),
    customerId: intId.optional(),
    fileFolderId: z.string().uuid().optional(),
    fileFolderPath: z.string().optional().openapi({
      description:
        "Ids of the root folder down to the file's folder, joined by `/`; search `fileFolderPath:{folderId}` finds files anywhere below a folder",
    }),
    location: z.string().optional().openapi({ description: 'Download path' }),
    thumbnail: z.string().optional().openapi({ description: 'Thumbnail path; present once the thumbnail is uploaded' }),
    previewPath: z.string().optional(),
    crcCheckSum: z.string().optional(),
    validFrom: epochMs('Start of validity'),
    validTo: epochMs('End of validity'),
    fileMutabilityType: z.string().optional(),
    tags: z.array(z.string()).optional(),
    metaData: z.record(z.string(), z.unknown()).optional(),
    muted: z.boolean().optional(),
    lastPreviewUploadTime: epochMs('Thumbnail upload time'),
    readOnly: z.boolean().optional().openapi({ description: 'The caller reaches the file only through read-only team assignments' }),
    orientation: z.enum(fileOrientations).optional(),
    isCloudAFile: z.boolean().optional(),
    isCloudBFile: z.boolean().optional(),
    usageDetails: z
      .object({ contentUsage: z.array(z.record(z.string(), z.unknown())) })
      .optional()
      .openapi({ description: 'Select-only' }),
    duplicateDetails: z
      .array(z.object({ id: z.string(), name: z.string(), fileFolderId: z.string(), size: z.number().int(), createDate: epochMsValue }))
      .optional()
      .openapi({ description: 'Select-only: other files of the customer with the same crcCheckSum' }),
    campaignUsageDetails: z
      .array(z.record(z.string(), z.unknown()))
      .optional()
      .openapi({ description: 'Select-only: channels using the file' }),
    topLevelCampaignUsageDetails: z
      .array(z.record(z.string(), z.unknown()))
      .optional()
      .openapi({ description: 'Select-only: schedules using the file' }),
    messageUsageDetails: z
      .array(z.record(z.string(), z.unknown()))
      .optional()
      .openapi({ description: 'Select-only: sub-channels using the file' }),
  }),
).openapi('File');

/** PUT /api/file/{fileId}: null or omitted fields keep their value (spec 1 rule 2). */
export const FileUpdateSchema = updateBody('FileUpdate', {
  name: resourceName,
  validFrom: epochMsValue.openapi({ description: 'Unix epoch milliseconds' }),
  validTo: epochMsValue.openapi({ description: 'Unix epoch milliseconds' }),
  tags: tagListOf(500),
  metaData: z.record(z.string(), z.unknown()),
  muted: z.boolean(),
});

export type FileUpdate = z.infer<typeof FileUpdateSchema>;

export const TagListSchema = tagListOf(500).openapi('TagList');

export const BulkUpdateResultSchema = z
  .object({ updated: z.number().int().openapi({ description: 'Files changed by the call' }) })
  .openapi('BulkUpdateResult');

/** A file as the API answers it (`File` is the DOM's name). */
export type FileEntity = z.infer<typeof FileSchema>;
