import { and, sql, type SQL } from 'drizzle-orm';
import { bulkCustomerId } from '@/server/auth/tenant-scope';
import { withTransaction } from '@/server/db/transaction';
import { ValidationError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import { auditChange } from '@/server/modules/audit-log';
import { maxTagsTotalLength, normalizeTags, registerTags, tagVerbSql, type TagVerb } from '@/server/modules/tags';
import { compileSearch } from '@/server/query';
import { anyFileMatches, bulkUpdateFiles } from './files.queries';
import { fileResource } from './files.resource';
import { assertValidity, writableFilesCondition } from './files.service';
import { files } from './files.table';

/*
 * The bulk verbs over `search` (`/api/v2/file/tags/*`, `/api/v2/file/validity/set`): one UPDATE whose
 * WHERE is the compiled search, the tenant scope and the caller's team writability, so no file row is
 * read into memory. Only rows that actually change are written and counted (`{updated}`).
 */

export type BulkResult = { updated: number };

export async function bulkFileTags(ctx: ServiceContext, input: { verb: TagVerb; search?: string; tags: string[] }): Promise<BulkResult> {
  // Removing needs no format check: it must be able to clean up any tag that exists.
  const tags = input.verb === 'remove' ? [...new Set(input.tags)] : normalizeTags(input.tags);
  const { set, changes, tooLong } = tagVerbSql(files.tags, input.verb, tags);

  return withTransaction(ctx.db, async (tx) => {
    // The tag limit holds for each file's whole list: one file that would pass it refuses the call, nothing changes.
    if (input.verb === 'add' && (await anyFileMatches(tx, and(matching(ctx, input.search, changes), tooLong)!))) {
      throw new ValidationError('tag.error.invalid', `A file's tags would exceed ${maxTagsTotalLength} characters in total`, {
        maxLength: maxTagsTotalLength,
      });
    }
    const perCustomer = await bulkUpdateFiles(tx, set, matching(ctx, input.search, changes));
    if (input.verb !== 'remove') for (const { customerId } of perCustomer) await registerTags(tx, customerId, 'FILE', tags);
    const updated = total(perCustomer);
    await auditChange(tx, ctx, {
      entityType: 'file',
      customerId: bulkCustomerId(ctx.scope, perCustomer),
      action: `${input.verb}Tags`,
      message: `Tags ${{ add: 'added to', set: 'set on', remove: 'removed from' }[input.verb]} ${updated} files: ${tags.join(', ')}`,
      changes: { search: input.search ?? null, tags, updated },
    });

    return { updated };
  });
}

export async function setFileValidity(
  ctx: ServiceContext,
  input: { search?: string; validFrom?: number; validTo?: number },
): Promise<BulkResult> {
  const validFrom = input.validFrom === undefined ? null : new Date(input.validFrom);
  const validTo = input.validTo === undefined ? null : new Date(input.validTo);
  assertValidity(validFrom, validTo);
  const from = timestamp(validFrom);
  const to = timestamp(validTo);
  const set = sql`${sql.identifier('valid_from')} = ${from}, ${sql.identifier('valid_to')} = ${to}`;
  const changes = sql`(${files.validFrom} is distinct from ${from} or ${files.validTo} is distinct from ${to})`;

  return withTransaction(ctx.db, async (tx) => {
    const perCustomer = await bulkUpdateFiles(tx, set, matching(ctx, input.search, changes));
    const updated = total(perCustomer);
    const range = `${validFrom?.toISOString() ?? 'open'} – ${validTo?.toISOString() ?? 'open'}`;
    await auditChange(tx, ctx, {
      entityType: 'file',
      customerId: bulkCustomerId(ctx.scope, perCustomer),
      action: 'setValidity',
      message: `Validity of ${updated} files set to ${range}`,
      changes: { search: input.search ?? null, validFrom: validFrom?.getTime() ?? null, validTo: validTo?.getTime() ?? null, updated },
    });

    return { updated };
  });
}

function matching(ctx: ServiceContext, search: string | undefined, changes: SQL): SQL {
  const searched = search === undefined || search.trim() === '' ? undefined : compileSearch(fileResource, search);

  return and(writableFilesCondition(ctx), searched, changes)!;
}

function timestamp(value: Date | null): SQL {
  return value === null ? sql`null::timestamptz` : sql`to_timestamp(${value.getTime() / 1000}::double precision)`;
}

function total(perCustomer: { count: number }[]): number {
  return perCustomer.reduce((sum, c) => sum + c.count, 0);
}
