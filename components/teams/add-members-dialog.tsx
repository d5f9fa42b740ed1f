'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { AssignmentFooter, ReadOnlyField } from './assignment-dialog-parts';
import { CheckboxField } from '@/components/ui/field';
import { SearchInput } from '@/components/ui/search-input';
import { Spinner } from '@/components/ui/spinner';
import { useQueryClient } from '@tanstack/react-query';
import { isCancelled } from '@/lib/api/protected';
import { useUpdateUser } from '@/lib/api/users';
import { teamKeys, useTeamCandidates, useUpdateTeamAssignments } from '@/lib/api/teams';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel } from '@/lib/i18n/labels';

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
  const t = useTranslations('teams');
  const label = useLabel();
  const errorMessage = useErrorMessage();
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

  function toggle(id: string, name: string) {
    setPicked((current) => {
      const next = new Map(current);
      if (next.has(id)) next.delete(id);
      else next.set(id, name);

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
      <DialogContent
        title={t('addMembers.title')}
        description={
          <>
            {t.rich('addMembers.description', {
              team: teamName,
              strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
            })}{' '}
            {t('access.member')}
          </>
        }
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (picked.size > 0) void submit();
          }}
        >
          <div className="space-y-4 px-5 py-4">
            {apiError ? <Alert>{apiError}</Alert> : null}
            <SearchInput
              label={t('addMembers.searchLabel')}
              placeholder={t('addMembers.searchPlaceholder')}
              value={text}
              onChange={setText}
            />
            <div className="max-h-72 overflow-y-auto rounded-md ring-1 ring-zinc-200" aria-busy={candidates.isFetching}>
              {candidates.isPending ? (
                <p className="flex items-center gap-2 px-3 py-4 text-sm text-zinc-500">
                  <Spinner /> {t('addMembers.loading')}
                </p>
              ) : candidates.isError ? (
                <p className="px-3 py-4 text-sm text-red-700">{t('addMembers.loadError', { message: errorMessage(candidates.error) })}</p>
              ) : available.length === 0 ? (
                <p className="px-3 py-4 text-sm text-zinc-500">
                  {text.trim() ? t('addMembers.noMatch', { text: text.trim() }) : t('addMembers.allMembers')} {t('addMembers.noAdmins')}
                </p>
              ) : (
                <ul className="divide-y divide-zinc-100" aria-label={t('addMembers.list')}>
                  {available.map((user) => (
                    <li key={user.id} className="px-3 py-2.5">
                      <CheckboxField
                        id={`candidate-${user.id}`}
                        checked={picked.has(user.id)}
                        onChange={() => toggle(user.id, user.name || user.email)}
                        label={user.name || user.email}
                        description={t('addMembers.candidate', {
                          email: user.email,
                          role: label('role', user.role),
                          restricted: user.restricted ? 'yes' : 'no',
                        })}
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
              label={t('addMembers.restrict')}
              description={t('access.restricted')}
            />
            <ReadOnlyField id={readOnlyId} checked={readOnly} onChange={setReadOnly} description={t('addMembers.readOnlyHint')} />
          </div>
          <AssignmentFooter
            picked={picked.size}
            isPending={update.isPending || updateUser.isPending}
            onCancel={() => onOpenChange(false)}
            submitLabel={t('addMembers.submit', { count: picked.size })}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
