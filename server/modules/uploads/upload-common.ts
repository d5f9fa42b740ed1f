import { sql } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { NotFoundError, ValidationError } from '@/server/errors';
import { INVALID_COMBINATION } from '@/server/http/wire.schemas';
import type { ServiceContext } from '@/server/context/service-context';
import type { UploadedFile } from './uploads.schemas';
import { fileResource, FILE_DEFAULT_SELECT, readFile } from '@/server/modules/files';
import { files } from '@/server/modules/files/files.table';
import { normalizeTags } from '@/server/modules/tags';
import { parseTeamIdsParam } from '@/server/modules/teams';
import { findOne } from '@/server/query';
import type { FileCreateParameters } from './file-create';

/** The query parameters of POST /api/file as they arrive (strings) after schema validation. */
export type CreateParameterInput = {
  teamIds?: string;
  inheritParentTeams?: boolean;
  validFrom?: number;
  validTo?: number;
  tags?: string | string[];
  width?: number;
  height?: number;
  muted?: boolean;
  metaData?: Record<string, unknown>;
  fileIdToReplace?: string;
  removeOldFile?: boolean;
};

/** Validates the create parameters before any byte is stored, so bad input costs no upload. */
export function fileCreateParameters(input: CreateParameterInput): FileCreateParameters {
  if (input.teamIds) parseTeamIdsParam(input.teamIds);
  const rawTags = Array.isArray(input.tags) ? input.tags : (input.tags ?? '').split(',');
  const tags = normalizeTags(rawTags.map((t) => t.trim()).filter((t) => t !== ''));
  if (input.validFrom !== undefined && input.validTo !== undefined && input.validFrom > input.validTo) {
    throw new ValidationError('file.error.invalidValidity', 'validFrom must not be after validTo', {
      validFrom: input.validFrom,
      validTo: input.validTo,
    });
  }
  for (const [name, value] of [
    ['width', input.width],
    ['height', input.height],
  ] as const) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1 || value > 1_000_000)) {
      throw new ValidationError('request.error.invalid', `${name} must be a positive number of pixels`, { parameter: name });
    }
  }
  if (input.removeOldFile && !input.fileIdToReplace) {
    throw new ValidationError(INVALID_COMBINATION, 'removeOldFile needs fileIdToReplace', { parameter: 'removeOldFile' });
  }

  return {
    teamIds: input.teamIds || undefined,
    inheritParentTeams: input.inheritParentTeams ?? false,
    validFrom: input.validFrom === undefined ? undefined : new Date(input.validFrom),
    validTo: input.validTo === undefined ? undefined : new Date(input.validTo),
    tags,
    width: input.width,
    height: input.height,
    muted: input.muted ?? false,
    metaData: input.metaData,
    fileIdToReplace: input.fileIdToReplace,
    removeOldFile: input.removeOldFile ?? false,
  };
}

/**
 * Created files answered as GET /api/v2/file/{id} answers them (with `readOnly`). A file the uploader
 * cannot see through its teams (e.g. a restricted user uploading without `teamIds`) is still answered,
 * in the list's shape without `readOnly`.
 */
export async function readFiles(
  db: Executor,
  ctx: Pick<ServiceContext, 'actor' | 'scope'>,
  ids: readonly string[],
): Promise<UploadedFile[]> {
  const out: UploadedFile[] = [];
  for (const id of ids) {
    try {
      out.push(await readFile<UploadedFile>(db, ctx, id));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      const row = await findOne<UploadedFile>(db, {
        resource: fileResource,
        scope: ctx.scope,
        where: [sql`${files.id} = ${id}`],
        defaultSelect: FILE_DEFAULT_SELECT,
      });
      if (!row) throw error;
      out.push(row);
    }
  }

  return out;
}
