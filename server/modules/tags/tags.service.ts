import enLabels from '@/messages/en/labels.json';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import { isUniqueViolation } from '@/server/db/errors';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, NotFoundError, ValidationError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import { auditOf } from '@/server/modules/audit-log';
import * as q from './tags.queries';
import { normalizeTags, type TagType } from './tags.rules';
import { tagGroups, tagTypeValues, type TagCreate, type TagGroup, type TagUpdate } from './tags.schemas';

/** How many suggestions GET /api/tag/suggest answers at most. */
const SUGGESTION_LIMIT = 20;

type TagInfo = { count: number; comment?: string };
type TagKey = { tagType: TagType; tag: string };

/** GET /api/tag: `{<group>: {<tag>: {count, comment}}}` for the selected groups (all by default). */
export async function listTags(
  ctx: ServiceContext,
  input: { select?: string },
): Promise<Partial<Record<TagGroup, Record<string, TagInfo>>>> {
  const groups = parseGroups(input.select);
  const rows = await q.selectTagCounts(
    ctx.db,
    groups.map((g) => tagGroups[g]),
    ctx.scope,
  );
  const listing: Partial<Record<TagGroup, Record<string, TagInfo>>> = Object.fromEntries(groups.map((g) => [g, {}]));
  const groupOf = Object.fromEntries(Object.entries(tagGroups).map(([g, t]) => [t, g])) as Record<TagType, TagGroup>;
  for (const row of rows) {
    const target = listing[groupOf[row.tagType]];
    if (target) target[row.tag] = { count: Number(row.count), ...(row.comment === null ? {} : { comment: row.comment }) };
  }

  return listing;
}

/** GET /api/tag/suggest: tags starting with `keyword` (case-insensitive), most used first. */
export function suggestTags(ctx: ServiceContext, input: { keyword?: string; entity?: TagType | TagGroup }): Promise<string[]> {
  const types = input.entity === undefined ? [...tagTypeValues] : [entityType(input.entity)];

  return q.selectSuggestions(ctx.db, { types, scope: ctx.scope, prefix: input.keyword ?? '', limit: SUGGESTION_LIMIT });
}

/** POST /api/tag?tagType=: registers a tag ahead of use, with its comment. */
export async function createTag(ctx: ServiceContext, input: { tagType: TagType; body: TagCreate }) {
  const [tag] = normalizeTags([input.body.tag]);
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  const comment = input.body.comment ?? null;
  try {
    return await withTransaction(ctx.db, async (tx) => {
      await q.insertTag(tx, { customerId, tagType: input.tagType, tag: tag!, comment });
      await audit(
        tx,
        ctx,
        { customerId, key: { tagType: input.tagType, tag: tag! } },
        'create',
        `Tag '${tag}' (${enLabels.entityType[input.tagType]}) created`,
        { comment },
      );

      return toTag({ tagType: input.tagType, tag: tag! }, comment, await q.countTagUsage(tx, customerId, input.tagType, tag!));
    });
  } catch (err) {
    if (isUniqueViolation(err, 'tag_pkey'))
      throw new ConflictError('tag.error.exists', `The ${input.tagType} tag '${tag}' already exists`, { tag, tagType: input.tagType });
    throw err;
  }
}

/**
 * PUT /api/tag?tag=&tagType=: changes the comment of a registered (or used) tag. An omitted (or null)
 * comment keeps it; `""` removes it.
 */
export async function updateTag(ctx: ServiceContext, input: TagKey & { body: TagUpdate }) {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  const key = { customerId, tagType: input.tagType, tag: input.tag };
  const { comment } = input.body;

  return withTransaction(ctx.db, async (tx) => {
    const count = await q.countTagUsage(tx, customerId, input.tagType, input.tag);
    if (comment === undefined) {
      const row = await q.findTag(tx, key);
      if (!row && count === 0) throw new NotFoundError('tag', input.tag);

      return toTag(input, row?.comment ?? null, count);
    }
    const updated = await q.updateTagComment(tx, key, comment);
    if (!updated) {
      // A tag on rows written before the registry existed (or by a direct insert) is still a tag of the customer.
      if (count === 0) throw new NotFoundError('tag', input.tag);
      await q.insertTag(tx, { ...key, comment });
    }
    await audit(
      tx,
      ctx,
      { customerId, key: input },
      'update',
      `Tag '${input.tag}' (${enLabels.entityType[input.tagType]}) comment changed`,
      { comment },
    );

    return toTag(input, comment, count);
  });
}

/** DELETE /api/tag?tag=&tagType=: removes a registered tag; refused (409) while any row carries it. */
export async function deleteTag(ctx: ServiceContext, input: TagKey): Promise<void> {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  await withTransaction(ctx.db, async (tx) => {
    // Delete first: the row lock makes a concurrent registerTags of the same tag wait for our outcome.
    const deleted = await q.deleteTag(tx, { customerId, ...input });
    const count = await q.countTagUsage(tx, customerId, input.tagType, input.tag);
    if (count > 0) {
      throw new ConflictError('tag.error.inUse', `The ${input.tagType} tag '${input.tag}' is used by ${count} item(s)`, {
        tag: input.tag,
        tagType: input.tagType,
        count,
      });
    }
    if (!deleted) throw new NotFoundError('tag', input.tag);
    await audit(tx, ctx, { customerId, key: input }, 'delete', `Tag '${input.tag}' (${enLabels.entityType[input.tagType]}) deleted`);
  });
}

function parseGroups(select: string | undefined): TagGroup[] {
  const names = (select ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0 || names.includes('*')) return Object.keys(tagGroups) as TagGroup[];
  const bad = names.find((n) => !Object.hasOwn(tagGroups, n));
  if (bad) {
    throw new ValidationError('select.error.unknownField', `Unknown tag group '${bad}'; groups: ${Object.keys(tagGroups).join(', ')}`, {
      field: bad,
      parameter: 'select',
    });
  }

  return [...new Set(names)] as TagGroup[];
}

/** The tag type `entity` (a type or a listing group, as the route's schema takes it) names. */
function entityType(entity: TagType | TagGroup): TagType {
  return Object.hasOwn(tagGroups, entity) ? tagGroups[entity as TagGroup] : (entity as TagType);
}

function toTag(key: TagKey, comment: string | null, count: number) {
  return { tag: key.tag, tagType: key.tagType, ...(comment === null ? {} : { comment }), count };
}

const audit = auditOf('tag', ({ customerId, key }: { customerId: number; key: TagKey }) => ({
  entityId: `${key.tagType}:${key.tag}`,
  entityName: key.tag,
  customerId,
}));
