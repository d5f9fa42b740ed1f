import { and, eq, sql, type SQL } from 'drizzle-orm';
import { bulkCustomerId } from '@/server/auth/tenant-scope';
import type { ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import { withTransaction } from '@/server/db/transaction';
import { ValidationError } from '@/server/errors';
import { auditChange } from '@/server/modules/audit-log';
import { maxTagsTotalLength, normalizeTags, registerTags, tagVerbSql, type TagVerb } from '@/server/modules/tags';
import { readOnlyExpression } from '@/server/modules/teams';
import { compileSearch } from '@/server/query';
import { assignedDevicesSql } from './content-assignments';
import { deviceContentResource } from './content.resource';
import { contentAccess, type ContentKind } from './content.service';
import { deviceContents } from './content.table';
import { anyContentMatches, bulkUpdateContent, onlineOfflineOf, usageOfMatching } from './content.queries';

/*
 * Verbs over a `search` of device content: the bulk tag verbs (one UPDATE whose WHERE is the compiled search,
 * the tenant scope and the caller's team writability, so no row is read into memory; locked items are left
 * alone), usage details and the online/offline ratio of the screens that show the matching items.
 */

/** Items the caller sees in its scope, of `kind` when given, matching `search`. */
function visibleMatching(ctx: ServiceContext, search: string | undefined, kind?: ContentKind): SQL {
  const searched = search === undefined || search.trim() === '' ? undefined : compileSearch(deviceContentResource, search);

  return and(
    scopeCondition(ctx.scope, deviceContents.customerId),
    contentAccess(ctx),
    kind ? eq(deviceContents.deviceContentType, kind) : undefined,
    searched,
  )!;
}

/** POST /api/v2/deviceContent/tags/{add,set,remove}?search=: answers how many items changed. */
export async function bulkContentTags(
  ctx: ServiceContext,
  input: { verb: TagVerb; search?: string; tags: string[] },
): Promise<{ updated: number }> {
  const tags = input.verb === 'remove' ? [...new Set(input.tags)] : normalizeTags(input.tags);
  const { set, changes, tooLong } = tagVerbSql(deviceContents.tags, input.verb, tags);
  const where = and(
    visibleMatching(ctx, input.search),
    sql`not ${readOnlyExpression(ctx, 'deviceContent', deviceContents.id)}`,
    sql`not ${deviceContents.locked}`,
    changes,
  )!;

  return withTransaction(ctx.db, async (tx) => {
    if (input.verb === 'add' && (await anyContentMatches(tx, and(where, tooLong)!))) {
      throw new ValidationError('tag.error.invalid', `An item's tags would exceed ${maxTagsTotalLength} characters in total`, {
        maxLength: maxTagsTotalLength,
      });
    }
    const perCustomer = await bulkUpdateContent(tx, set, where);
    if (input.verb !== 'remove') for (const { customerId } of perCustomer) await registerTags(tx, customerId, 'CONTENT', tags);
    const updated = perCustomer.reduce((sum, c) => sum + c.count, 0);
    await auditChange(tx, ctx, {
      entityType: 'deviceContent',
      customerId: bulkCustomerId(ctx.scope, perCustomer),
      action: `${input.verb}Tags`,
      message: `Tags ${{ add: 'added to', set: 'set on', remove: 'removed from' }[input.verb]} ${updated} content items: ${tags.join(', ')}`,
      changes: { search: input.search ?? null, tags, updated },
    });

    return { updated };
  });
}

/** GET /api/{content or simpleLoop}/usageDetails?search=: the content that embeds each matching item (at most 1 000 items). */
export function contentUsageDetails(ctx: ServiceContext, kind: ContentKind, search: string | undefined) {
  return usageOfMatching(ctx.db, visibleMatching(ctx, search, kind));
}

/** GET /api/{content or simpleLoop}/getDeviceOnlineOfflineRatio?search=: the screens that show the matching items. */
export function deviceOnlineOfflineRatio(ctx: ServiceContext, kind: ContentKind, search: string | undefined) {
  return onlineOfflineOf(ctx.db, visibleMatching(ctx, search, kind), assignedDevicesSql);
}
