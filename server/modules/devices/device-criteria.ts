import { type CriteriaCompiler, term } from '@/server/modules/quick-filters';
import type { Criteria } from '@/server/modules/quick-filters/quick-filters.schemas';
import { parseSearch, type SearchNode } from '@/server/query';
import { deviceResource } from './devices.resource';

type DeviceCriteria = Extract<Criteria, { type: 'DEVICE' }>;

/**
 * DEVICE quick filters (spec 3 "Quick filter") over the device list: the filter's own tenant, its search,
 * a case-insensitive name, any of its tags, and its device folder (with the folders below it when
 * `searchRecursively`). One condition, like a typed `search`.
 */
export const deviceCriteriaCompiler: CriteriaCompiler = {
  type: 'DEVICE',
  resource: deviceResource,
  nodes: (criteria, input) => {
    const c = criteria as DeviceCriteria;
    const nodes: SearchNode[] = [term('customerId', '=', String(input.customerId))];
    if (c.search) nodes.push(parseSearch(c.search)!);
    if (c.name) nodes.push(term('name', '~', c.name));
    if (c.tags && c.tags.length > 0) nodes.push(term('tags', '∈', c.tags.join(',')));
    if (c.deviceGroupId)
      nodes.push(c.searchRecursively ? term('deviceGroupPath', ':', c.deviceGroupId) : term('deviceGroupId', '=', c.deviceGroupId));

    return nodes;
  },
};
