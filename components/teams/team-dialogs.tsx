'use client';

import { useTranslations } from 'next-intl';
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
  const t = useTranslations('teams.form');

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={team ? t('editTitle') : t('newTitle')}
      description={
        !team && tenantName
          ? t.rich('belongsTo', { tenant: tenantName, strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span> })
          : undefined
      }
      schema={TeamBodySchema}
      required={{ name: t('enterName') }}
      values={{ name: team?.name ?? '', comment: team?.comment ?? '' }}
      submitLabel={team ? t('save') : t('create')}
      onSubmit={async (values) => {
        const input = { name: values.name, comment: values.comment?.trim() ? values.comment.trim() : null };
        if (team) await update.mutateAsync({ id: team.id, input });
        else onCreated?.(await create.mutateAsync(input));
      }}
      fieldError={(error) => {
        if (!(error instanceof ApiError)) return undefined;
        if (error.key === 'team.error.nameExists') return { field: 'name', message: t('nameExists') };
        if (error.key === 'resourceLimit.error.limitReached') return t('limitReached');

        return undefined;
      }}
    >
      {(fields) => (
        <>
          {fields.text('name', { label: t('name'), autoFocus: true })}
          {fields.textarea('comment', { label: t('comment'), hint: t('commentHint') })}
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
  const t = useTranslations('teams.deleteDialog');

  return (
    <ConfirmDialog
      open={team !== null}
      onOpenChange={onOpenChange}
      title={t('title')}
      description={t.rich('body', {
        name: team?.name ?? '',
        members: team?.teamUserNumber ?? 0,
        strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
      })}
      confirmLabel={t('confirm')}
      destructive
      onConfirm={async () => {
        if (!team) return;
        await remove.mutateAsync(team.id);
        onDeleted?.();
      }}
    />
  );
}
