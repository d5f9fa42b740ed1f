import type { Criteria, FileCriteria } from '@/server/modules/quick-filters/quick-filters.schemas';
import { nullTerm, term, type CriteriaCompiler } from '@/server/modules/quick-filters';
import { parseSearch, type Operator, type SearchNode } from '@/server/query';
import { fileResource } from './files.resource';

/** The FILE criteria (spec 3) over the file resource (spec 2 "File"). */
function fileNodes(criteria: Criteria, input: { customerId: number; now: Date }): SearchNode[] {
  const c = criteria as FileCriteria;
  // The filter's own tenant: an ADMIN listing every tenant still gets only the filter owner's files.
  const nodes: SearchNode[] = [term('customerId', '=', String(input.customerId))];
  const search = c.search ? parseSearch(c.search) : undefined;
  if (search) nodes.push(search);
  // `name` is documented as case-insensitive contains: the `~` extension, not the spec's case-sensitive `:`.
  if (c.name) nodes.push(term('name', '~', c.name));
  // Tags: files carrying ANY of the tags (the query language's `tags∈a,b`; docs/decisions.md).
  if (c.tags && c.tags.length > 0) nodes.push(term('tags', '∈', c.tags.join(',')));
  if (c.folderId) nodes.push(c.searchRecursively ? term('fileFolderPath', ':', c.folderId) : term('fileFolderId', '=', c.folderId));
  if (c.validFileOnly) {
    const now = String(input.now.getTime());
    const bound = (field: string, op: Operator): SearchNode =>
      c.isUndefinedValidityValid ? { type: 'or', children: [nullTerm(field), term(field, op, now)] } : term(field, op, now);
    nodes.push(bound('validFrom', '≤'), bound('validTo', '≥'));
  }

  return nodes;
}

export const fileCriteriaCompiler: CriteriaCompiler = { type: 'FILE', resource: fileResource, nodes: fileNodes };
