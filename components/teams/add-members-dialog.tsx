'use client';

import { useEffect, useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { AssignmentFooter, ReadOnlyField } from './assignment-dialog-parts';
import { CheckboxField } from '@/components/ui/field';
import { SearchInput } from '@/components/ui/search-input';
import { Spinner } from '@/components/ui/spinner';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage, isCancelled } from '@/lib/api/protected';
import { useUpdateUser } from '@/lib/api/users';
import { MEMBER_MEANS, RESTRICTED_MEANS } from '@/components/teams/access-words';
import { teamKeys, useTeamCandidates, useUpdateTeamAssignments } from '@/lib/api/teams';
import { roleLabel } from '@/lib/api/types';

/** Picks users of the tenant (never OWNER or ADMIN: they cannot join teams) to add to a team. */
export function AddMembersDialog({
  open,
  onOpenChange,
  teamId,
  teamName,
  memberIds,
  customerId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  teamId: string;
  teamName: string;
  memberIds: ReadonlySet<string>;
  customerId: number | undefined;
}) {
  const [text, setText] = useState('');
  const [picked, setPicked] = useState<Map<string, string>>(new Map());
  const [readOnly, setReadOnly] = useState(false);
  const [restrict, setRestrict] = useState(false);
  const [apiError, setApiError] = useState<string | null>(null);
  const candidates = useTeamCandidates(text, customerId, open);
  const update = useUpdateTeamAssignments(teamId, 'user', customerId);
  const readOnlyId = useId();
  const restrictId = useId();
  const updateUser = useUpdateUser();
  const queryClient = useQueryClient();
  const available = (candidates.data?.content ?? []).filter((u) => !memberIds.has(u.id));

  useEffect(() => {
    if (open) {
      setText('');
      setPicked(new Map());
      setReadOnly(false);
      setRestrict(false);
      setApiError(null);
    }
  }, [open]);

  function toggle(id: string, label: string) {
    setPicked((current) => {
      const next = new Map(current);
      if (next.has(id)) next.delete(id);
      else next.set(id, label);

      return next;
    });
  }

  async function submit() {
    setApiError(null);
    try {
      await update.mutateAsync({ resourcesToAdd: [...picked.keys()].map((id) => ({ id, readOnly })) });
      if (restrict) {
        // One protected change per user (the API updates users one by one); the first asks for the code.
        for (const user of available.filter((u) => picked.has(u.id) && !u.restricted)) {
          await updateUser.mutateAsync({ email: user.email, changes: { restricted: true } });
        }
        await queryClient.invalidateQueries({ queryKey: teamKeys.members(teamId) });
      }
      onOpenChange(false);
    } catch (error) {
      if (!isCancelled(error)) setApiError(errorMessage(error));
    }
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !update.isPending && onOpenChange(next)}>
      <DialogContent title="Add members" description={
          <>
            Users who join <span className="font-medium text-zinc-700">{teamName}</span> see what is assigned to it. {MEMBER_MEANS}
          </>
        }>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (picked.size > 0) void submit();
          }}
        >
          <div className="space-y-4 px-5 py-4">
            {apiError ? <Alert>{apiError}</Alert> : null}
            <SearchInput label="Search users by name or e-mail" placeholder="Search by name or e-mail" value={text} onChange={setText} />
            <div className="max-h-72 overflow-y-auto rounded-md ring-1 ring-zinc-200" aria-busy={candidates.isFetching}>
              {candidates.isPending ? (
                <p className="flex items-center gap-2 px-3 py-4 text-sm text-zinc-500">
                  <Spinner /> Loading users…
                </p>
              ) : candidates.isError ? (
                <p className="px-3 py-4 text-sm text-red-700">The users could not be loaded: {candidates.error.message}</p>
              ) : available.length === 0 ? (
                <p className="px-3 py-4 text-sm text-zinc-500">
                  {text.trim() ? `No one else matches “${text.trim()}”.` : 'Everyone who can join is already a member.'} Administrators cannot join teams.
                </p>
              ) : (
                <ul className="divide-y divide-zinc-100" aria-label="Users who can join">
                  {available.map((user) => (
                    <li key={user.id} className="px-3 py-2.5">
                      <CheckboxField
                        id={`candidate-${user.id}`}
                        checked={picked.has(user.id)}
                        onChange={() => toggle(user.id, user.name || user.email)}
                        label={user.name || user.email}
                        description={`${user.email} · ${roleLabel(user.role)}${user.restricted ? ' · Restricted' : ''}`}
                      />
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <CheckboxField
              id={restrictId}
              checked={restrict}
              onChange={(e) => setRestrict(e.target.checked)}
              label="Restrict them to their teams"
              description={RESTRICTED_MEANS}
            />
            <ReadOnlyField id={readOnlyId} checked={readOnly} onChange={setReadOnly} description="Other team members can see these users but not edit them." />
          </div>
          <AssignmentFooter picked={picked.size} isPending={update.isPending || updateUser.isPending} onCancel={() => onOpenChange(false)} submitLabel={picked.size > 1 ? `Add ${picked.size} members` : 'Add member'} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
