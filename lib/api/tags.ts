'use client';

import { useQuery } from '@tanstack/react-query';
import { api, ok, tenantQuery } from '@/lib/api/client';
import { useTenant } from '@/lib/tenant/tenant-context';
import type { TagGroup } from '@/server/modules/tags/tags.schemas';

const tagKeys = {
  all: ['tags'] as const,
  group: (customerId: number | undefined, group: TagGroup) => [...tagKeys.all, group, { customerId }] as const,
};

/** The tenant's tags of one group with their counts, most used first. */
export function useTags(group: TagGroup) {
  const { customerId } = useTenant();

  return useQuery({
    queryKey: tagKeys.group(customerId, group),
    queryFn: async ({ signal }) => {
      const listing = await ok(api.GET('/api/tag', { params: { query: { select: group, ...tenantQuery(customerId) } }, signal }));

      return Object.entries(listing[group] ?? {})
        .map(([tag, info]) => ({ tag, count: info.count, comment: info.comment }))
        .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
    },
    staleTime: 30_000,
  });
}

/** Spec 3 tag format: no leading `-` or whitespace; letters, digits, `-`, `_`, `#`, `.`, `"`; at most 2048 characters. */
export type TagProblem = 'empty' | 'tooLong' | 'badStart' | 'badCharacters';

/** What is wrong with a tag, as a key the console words (messages `ui.tags.problem`), or null. */
export function tagFormatError(tag: string): TagProblem | null {
  if (!tag) return 'empty';
  if (tag.length > 2048) return 'tooLong';
  if (/^[-\s]/.test(tag)) return 'badStart';
  // The server's pattern (server/modules/tags/tags.rules.ts).
  if (!/^[\p{L}\p{Nd}_#."][\p{L}\p{M}\p{Nd}_#."-]*$/u.test(tag)) return 'badCharacters';

  return null;
}
