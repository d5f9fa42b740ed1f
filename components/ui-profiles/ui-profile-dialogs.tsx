'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useMemo, useState } from 'react';
import { RulesEditor } from '@/components/ui-profiles/rules-editor';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { CheckboxField, DialogFooter } from '@/components/ui/field';
import { FormDialog } from '@/components/ui/form-dialog';
import { SearchInput } from '@/components/ui/search-input';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api/client';
import { useAssignUiProfile, useCreateUiProfile, useUiProfileUsers, useUpdateUiProfile, type UiProfile } from '@/lib/api/ui-profiles';
import { useUsers } from '@/lib/api/users';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';
import type { RulesDocument } from '@/lib/ui-profile/rules';
import { UiProfileCreateSchema } from '@/server/modules/ui-profiles/ui-profiles.schemas';

/** The profile's name and comment, as the API checks them (the rules are edited beside the form). */
const profileFormSchema = UiProfileCreateSchema.pick({ name: true, comment: true });

/** Creates a profile (no `profile`) or edits its name, comment and rules. */
export function UiProfileDialog({
  open,
  profile,
  customerId,
  onOpenChange,
}: {
  open: boolean;
  profile: UiProfile | null;
  customerId: number | undefined;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('uiProfiles.dialog');
  const formWords = useTranslations('common.form');
  const create = useCreateUiProfile(customerId);
  const update = useUpdateUiProfile(customerId);
  const [rules, setRules] = useState<RulesDocument>({});
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [editorKey, setEditorKey] = useState(0);

  useEffect(() => {
    if (open) {
      setRules(profile?.hiddenUIElementRules ?? { version: 1 });
      setJsonError(null);
      setEditorKey((k) => k + 1);
    }
  }, [open, profile]);

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={profile ? t('edit') : t('new')}
      description={t('description')}
      className="top-[6vh] max-w-2xl"
      bodyClassName="max-h-[70vh] space-y-4 overflow-y-auto px-5 py-4"
      schema={profileFormSchema}
      required={{ name: formWords('enterName') }}
      values={{ name: profile?.name ?? '', comment: profile?.comment ?? '' }}
      submitLabel={profile ? t('save') : t('create')}
      submitDisabled={jsonError !== null}
      onSubmit={async (values) => {
        const input = { name: values.name, comment: values.comment, hiddenUIElementRules: rules };
        if (profile) await update.mutateAsync({ id: profile.id, input });
        else await create.mutateAsync(input);
      }}
      fieldError={(error) => {
        if (!(error instanceof ApiError)) return undefined;
        if (error.key === 'userInterfaceProfile.error.nameExists') return { field: 'name', message: t('nameExists') };
        if (error.key === 'resourceLimit.error.limitReached') return t('limitReached');

        return undefined;
      }}
    >
      {(fields) => (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            {fields.text('name', { label: t('name') })}
            {fields.text('comment', { label: t('comment') })}
          </div>
          <div className="space-y-1.5">
            <p className="text-sm font-medium text-zinc-800">{t('rules')}</p>
            <p className="text-sm text-zinc-500">{t('rulesHint')}</p>
            <RulesEditor key={editorKey} doc={rules} onChange={setRules} onJsonError={setJsonError} />
          </div>
        </>
      )}
    </FormDialog>
  );
}

/** Chooses the users who get the profile; a user has one profile, so assigning moves it here. */
export function AssignUiProfileDialog({
  profile,
  customerId,
  onOpenChange,
}: {
  profile: UiProfile | null;
  customerId: number | undefined;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('uiProfiles.assign');
  const label = useLabel();
  const format = useFormat();
  const errorMessage = useErrorMessage();
  const open = profile !== null;
  const [text, setText] = useState('');
  const users = useUsers({ page: 0, size: 100, sort: 'name,asc', text, withTenant: false });
  const current = useUiProfileUsers(customerId, profile?.id ?? null);
  const assign = useAssignUiProfile(customerId);
  const [selected, setSelected] = useState<Set<string> | null>(null);
  const [apiError, setApiError] = useState<string | null>(null);
  const initial = useMemo(() => new Set((current.data?.content ?? []).map((u) => u.id)), [current.data]);
  const chosen = selected ?? initial;

  useEffect(() => {
    if (open) {
      setText('');
      setSelected(null);
      setApiError(null);
    }
  }, [open, profile?.id]);

  function toggle(id: string) {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  }

  const assignUserIds = [...chosen].filter((id) => !initial.has(id));
  const removeUserIds = [...initial].filter((id) => !chosen.has(id));
  const changes = assignUserIds.length + removeUserIds.length;

  async function submit() {
    if (!profile) return;
    setApiError(null);
    try {
      await assign.mutateAsync({ id: profile.id, assignUserIds, removeUserIds });
      onOpenChange(false);
    } catch (error) {
      setApiError(errorMessage(error));
    }
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !assign.isPending && onOpenChange(next)}>
      <DialogContent
        title={t('title')}
        description={t.rich('description', {
          name: profile?.name ?? '',
          strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
        })}
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (changes > 0) void submit();
          }}
        >
          <div className="space-y-4 px-5 py-4">
            {apiError ? <Alert>{apiError}</Alert> : null}
            <SearchInput label={t('search')} placeholder={t('searchPlaceholder')} value={text} onChange={setText} />
            <div className="max-h-72 overflow-y-auto rounded-md ring-1 ring-zinc-200" aria-busy={users.isFetching || current.isFetching}>
              {users.isPending || current.isPending ? (
                <p className="flex items-center gap-2 px-3 py-4 text-sm text-zinc-500">
                  <Spinner /> {t('loading')}
                </p>
              ) : users.isError || current.isError ? (
                <p className="px-3 py-4 text-sm text-red-700">{t('loadError')}</p>
              ) : (users.data?.content.length ?? 0) === 0 ? (
                <p className="px-3 py-4 text-sm text-zinc-500">{t('noMatch')}</p>
              ) : (
                <ul className="divide-y divide-zinc-100" aria-label={t('users')}>
                  {users.data?.content.map((user) => (
                    <li key={user.id} className="px-3 py-2.5">
                      <CheckboxField
                        id={`assign-${user.id}`}
                        checked={chosen.has(user.id)}
                        onChange={() => toggle(user.id)}
                        label={user.name || user.email}
                        description={t('userLine', { email: user.email, role: label('role', user.role) })}
                      />
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </div>
          <DialogFooter className="items-center">
            <span className="mr-auto text-sm text-zinc-500" aria-live="polite">
              {changes > 0
                ? t('changes', { added: format.number(assignUserIds.length), removed: format.number(removeUserIds.length) })
                : t('assigned', { count: format.number(chosen.size) })}
            </span>
            <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={assign.isPending}>
              {t('cancel')}
            </Button>
            <Button type="submit" disabled={changes === 0 || assign.isPending}>
              {assign.isPending ? <Spinner /> : null}
              {t('save')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
