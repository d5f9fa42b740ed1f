import { uuidEquals } from '@/server/db/sql';
import type { ServiceContext } from '@/server/context/service-context';
import { NotFoundError } from '@/server/errors';
import { findPage, type ListInput } from '@/server/query';
import type { SlideData, SlideDocument } from './content-data.schemas';
import { contentTemplateResource } from './content-templates.resource';
import { findTemplate } from './content-templates.queries';
import type { DeviceContent, Template } from './content.schemas';
import { contentTemplates } from './content.table';
import { createDeviceContent, readDeviceContent } from './content.service';
import { slideDataOf } from './slide-document.schemas';

/** GET /api/template: the starter templates (shared by every tenant), paged, with `search` (tags, name) and `select`. */
export function listTemplates(ctx: ServiceContext, input: ListInput) {
  const { sort, ...query } = input;

  return findPage<Template>(ctx.db, { resource: contentTemplateResource, sort: sort.length > 0 ? sort : ['position,asc'], ...query });
}

/**
 * POST /api/content/fromTemplate/{templateId}: a new slide from a starter template, or a copy of one of the
 * tenant's own slides (the content of its Templates folder), in `contentGroupId` (the root when absent).
 */
export async function createFromTemplate(
  ctx: ServiceContext,
  input: { templateId: string; contentGroupId?: string; name: string },
): Promise<DeviceContent> {
  const starter = await findTemplate(ctx.db, uuidEquals(contentTemplates.id, input.templateId));
  const source = starter
    ? { structureType: starter.structureType, data: starter.data as SlideData }
    : await ownTemplate(ctx, input.templateId);

  return createDeviceContent(ctx, {
    contentGroupId: input.contentGroupId,
    name: input.name,
    deviceContentType: 'content',
    structureType: source.structureType,
    data: source.data,
  });
}

async function ownTemplate(ctx: ServiceContext, id: string): Promise<{ structureType: 'SLIDE' | 'COMPLEX'; data: SlideData }> {
  const item = await readDeviceContent(ctx.db, ctx, id, 'deviceContentType,structureType,data').catch((err: unknown) => {
    if (err instanceof NotFoundError) throw new NotFoundError('template', id);
    throw err;
  });
  if (item.deviceContentType !== 'content') throw new NotFoundError('template', id);

  // Read as the API answers it (keyed by page name); stored as the page list again.
  return { structureType: item.structureType ?? 'SLIDE', data: slideDataOf(item.data as SlideDocument) };
}
