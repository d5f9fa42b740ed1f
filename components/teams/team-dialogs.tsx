'use client';

import { TeamBodySchema } from '@/server/modules/teams/teams.schemas';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormDialog } from '@/components/ui/form-dialog';
import { ApiError } from '@/lib/api/client';
import { useCreateTeam, useDeleteTeam, useUpdateTeam, type Team } from '@/lib/api/teams';

/** Creates a team (no `team`) or renames one and changes its comment. */
export function TeamFormDialog({
  open,
  team,
  tenantName,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  team?: Team | null;
  tenantName?: string | null;
  onOpenChange: (open: boolean) => void;
  onCreated?: (team: Team) => void;
}) {
  const create = useCreateTeam();
  const update = useUpdateTeam();

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={team ? 'Edit team' : 'New team'}
      description={
        !team && tenantName ? (
          <>
            The team belongs to <span className="font-medium text-zinc-700">{tenantName}</span>.
          </>
        ) : undefined
      }
      schema={TeamBodySchema}
      required={{ name: 'Enter a name' }}
      values={{ name: team?.name ?? '', comment: team?.comment ?? '' }}
      submitLabel={team ? 'Save changes' : 'Create team'}
      onSubmit={async (values) => {
        const input = { name: values.name, comment: values.comment?.trim() ? values.comment.trim() : null };
        if (team) await update.mutateAsync({ id: team.id, input });
        else onCreated?.(await create.mutateAsync(input));
      }}
      fieldError={(error) => {
        if (!(error instanceof ApiError)) return undefined;
        if (error.key === 'team.error.nameExists') return { field: 'name', message: 'Another team has this name.' };
        if (error.key === 'resourceLimit.error.limitReached') return 'This tenant has reached its limit of teams. Delete a team, or ask for a higher limit.';

        return undefined;
      }}
    >
      {(fields) => (
        <>
          {fields.text('name', { label: 'Name', autoFocus: true })}
          {fields.textarea('comment', { label: 'Comment', hint: 'Optional. What the team is for.' })}
        </>
      )}
    </FormDialog>
  );
}

export function DeleteTeamDialog({
  team,
  onOpenChange,
  onDeleted,
}: {
  team: Team | null;
  onOpenChange: (open: boolean) => void;
  onDeleted?: () => void;
}) {
  const remove = useDeleteTeam();
  const members = team?.teamUserNumber;

  return (
    <ConfirmDialog
      open={team !== null}
      onOpenChange={onOpenChange}
      title="Delete team?"
      description={
        <>
          <span className="font-medium text-zinc-700">{team?.name}</span> and all its assignments will be removed
          {members ? ` (${members} ${members === 1 ? 'member' : 'members'})` : ''}. Members keep their accounts. This cannot be undone.
        </>
      }
      confirmLabel="Delete team"
      destructive
      onConfirm={async () => {
        if (!team) return;
        await remove.mutateAsync(team.id);
        onDeleted?.();
      }}
    />
  );
}
