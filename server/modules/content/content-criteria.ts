import { type CriteriaCompiler, term } from '@/server/modules/quick-filters';
import type { ContentCriteria } from '@/server/modules/quick-filters/quick-filters.schemas';
import { parseSearch, type SearchNode } from '@/server/query';
import { deviceContentResource } from './content.resource';

/**
 * CONTENT quick filters (spec 3 "Quick filter") over the device content list: the filter's own tenant, its
 * search, a case-insensitive name, any of its tags, and its content folder (with the folders below it when
 * `searchRecursively`). Compiled by the query compiler into one condition, like a typed `search`.
 */
export const contentCriteriaCompiler: CriteriaCompiler = {
  type: 'CONTENT',
  resource: deviceContentResource,
  nodes: (criteria, input) => {
    const c = criteria as ContentCriteria;
    const nodes: SearchNode[] = [term('customerId', '=', String(input.customerId))];
    if (c.search) nodes.push(parseSearch(c.search)!);
    if (c.name) nodes.push(term('name', '~', c.name));
    if (c.tags && c.tags.length > 0) nodes.push(term('tags', '∈', c.tags.join(',')));
    if (c.groupId) nodes.push(c.searchRecursively ? term('contentGroupPath', ':', c.groupId) : term('contentGroupId', '=', c.groupId));

    return nodes;
  },
};
