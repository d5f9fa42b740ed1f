'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DialogFooter, Field, fieldAria, Textarea } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api/client';
import { errorMessage } from '@/lib/api/protected';
import { useCreateTeam, useDeleteTeam, useUpdateTeam, type Team } from '@/lib/api/teams';

const teamSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(255, 'At most 255 characters'),
  comment: z.string().max(4000, 'At most 4 000 characters'),
});
type TeamValues = z.infer<typeof teamSchema>;

/** Creates a team (no `team`) or renames one and changes its comment. */
export function TeamFormDialog({
  open,
  team,
  customerId,
  tenantName,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  team?: Team | null;
  customerId: number | undefined;
  tenantName?: string | null;
  onOpenChange: (open: boolean) => void;
  onCreated?: (team: Team) => void;
}) {
  const create = useCreateTeam(customerId);
  const update = useUpdateTeam(customerId);
  const [apiError, setApiError] = useState<string | null>(null);
  const ids = { name: useId(), comment: useId() };
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TeamValues>({ resolver: zodResolver(teamSchema), defaultValues: { name: '', comment: '' } });

  useEffect(() => {
    if (open) {
      reset({ name: team?.name ?? '', comment: team?.comment ?? '' });
      setApiError(null);
    }
  }, [open, team, reset]);

  const onSubmit = handleSubmit(async (values) => {
    setApiError(null);
    const input = { name: values.name.trim(), comment: values.comment.trim() ? values.comment.trim() : null };
    try {
      if (team) await update.mutateAsync({ id: team.id, input });
      else onCreated?.(await create.mutateAsync(input));
      onOpenChange(false);
    } catch (error) {
      if (error instanceof ApiError && error.key === 'team.error.nameExists') setError('name', { message: 'Another team has this name.' });
      else if (error instanceof ApiError && error.key === 'resourceLimit.error.limitReached') {
        setApiError('This tenant has reached its limit of teams. Delete a team, or ask for a higher limit.');
      } else setApiError(errorMessage(error));
    }
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !isSubmitting && onOpenChange(next)}>
      <DialogContent
        title={team ? 'Edit team' : 'New team'}
        description={
          team ? undefined : tenantName ? (
            <>
              The team belongs to <span className="font-medium text-zinc-700">{tenantName}</span>.
            </>
          ) : undefined
        }
      >
        <form onSubmit={onSubmit} noValidate>
          <div className="space-y-4 px-5 py-4">
            {apiError ? <Alert>{apiError}</Alert> : null}
            <Field id={ids.name} label="Name" error={errors.name?.message}>
              <Input autoComplete="off" autoFocus {...fieldAria(ids.name, errors.name?.message)} {...register('name')} />
            </Field>
            <Field id={ids.comment} label="Comment" error={errors.comment?.message} hint="Optional. What the team is for.">
              <Textarea rows={3} {...fieldAria(ids.comment, errors.comment?.message, true)} {...register('comment')} />
            </Field>
          </div>
          <DialogFooter>
            <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={isSubmitting}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? <Spinner /> : null}
              {team ? 'Save changes' : 'Create team'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function DeleteTeamDialog({
  team,
  customerId,
  onOpenChange,
  onDeleted,
}: {
  team: Team | null;
  customerId: number | undefined;
  onOpenChange: (open: boolean) => void;
  onDeleted?: () => void;
}) {
  const remove = useDeleteTeam(customerId);
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
