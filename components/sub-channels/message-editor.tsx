'use client';

import { useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import { typeUses, type ChannelDraft } from '@/components/channels/channel-draft';
import { ChannelItems, ChannelLibrary } from '@/components/channels/channel-items';
import { DraftInput, ItemSkipFields, ItemTagCondition, PlayOrderFields } from '@/components/channels/channel-parts';
import { DateRanges, ValidityFields } from '@/components/channels/channel-when';
import { ChannelWhere } from '@/components/channels/channel-where';
import { useDraftEditor } from '@/components/channels/draft-editor';
import {
  emptyMessageDraft,
  isMessageType,
  MESSAGE_TYPES,
  messageCreateBody,
  messageDraftOf,
  messageFieldOf,
  messageUpdateBody,
  useMessageTypeWords,
  type MessageDraft,
} from '@/components/sub-channels/message-draft';
import { Alert, LoadError } from '@/components/ui/alert';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { CheckboxField, Field, FormFooter, Select } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api/client';
import { messageResource, useCreateMessage, useUpdateMessage, type Message, type MessageGroup } from '@/lib/api/messages';
import { useErrorMessage } from '@/lib/i18n/errors';
import { MessageCreateSchema, MessageUpdateSchema } from '@/server/modules/messages/messages.schemas';

/** The wire fields a 400 may name, each shown on its editor field. */
const WIRE_FIELDS = [
  'name',
  'type',
  'weight',
  'saturation',
  'validFrom',
  'validTo',
  'resetValidFrom',
  'resetValidTo',
  'defaultDuration',
  'contentShuffleMode',
  'orderingMode',
  'affectedDateRanges',
  'deviceTagCondition',
  'contentTagCondition',
  'fileTagCondition',
  'teamAccessList',
  'contentQuickFilterId',
  'fileQuickFilterId',
  'deviceQuickFilterId',
  'contentId',
  'skipDefaultPage',
  'contentGroupAssignment',
  'fileAssignment',
  'fileFolderAssignment',
  'deviceAssignment',
  'deviceGroupAssignment',
] as const;

/** The channel editor's wire-to-field names for the lists (`fileFolderAssignment` → `fileFolders`). */
const LIST_FIELDS: Record<string, string> = {
  contentGroupAssignment: 'contentFolders',
  fileAssignment: 'files',
  fileFolderAssignment: 'fileFolders',
  deviceAssignment: 'devices',
  deviceGroupAssignment: 'deviceFolders',
};

function Part({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <section className="space-y-3 border-t border-zinc-100 pt-4 first:border-t-0 first:pt-0" aria-label={title}>
      <div>
        <h3 className="text-sm font-semibold text-zinc-900">{title}</h3>
        {hint ? <p className="text-sm text-zinc-500">{hint}</p> : null}
      </div>
      {children}
    </section>
  );
}

function MessageForm({ group, message, onDone }: { group: MessageGroup; message?: Message; onDone: () => void }) {
  const t = useTranslations('subChannels.editor');
  const types = useMessageTypeWords();
  const formWords = useTranslations('common.form');
  const errorMessage = useErrorMessage();
  const [initial] = useState<MessageDraft>(() => (message ? messageDraftOf(message) : emptyMessageDraft()));
  // A sub-channel plays one content: a newly picked one replaces it.
  const {
    draft,
    set,
    errors,
    formError,
    save: saveDraft,
    sectionProps,
  } = useDraftEditor(initial, (key, value) => (key === 'contents' && Array.isArray(value) && value.length > 1 ? value.slice(-1) : value));
  const create = useCreateMessage();
  const update = useUpdateMessage();
  const pending = create.isPending || update.isPending;
  const isNew = !message;
  const uses = typeUses(draft.type);
  const picksItems = uses.contents || uses.files || uses.fileFolders;
  const fieldProps = { ...sectionProps, disabled: pending };

  async function save() {
    const words = { enterName: t('enterName'), fieldsNeedAttention: t('fieldsNeedAttention'), form: formWords };
    const fieldOf = (wireField: string) => LIST_FIELDS[wireField] ?? messageFieldOf(wireField);
    const failure = (error: unknown) => (error instanceof ApiError && error.status === 404 ? t('gone') : errorMessage(error));
    const saved = await saveDraft({
      body: message ? messageUpdateBody(initial, draft) : messageCreateBody(draft, group.id),
      schema: message ? MessageUpdateSchema : MessageCreateSchema,
      send: (body) => (message ? update.mutateAsync({ id: message.id, body }) : create.mutateAsync(body)),
      wireFields: WIRE_FIELDS,
      fieldOf,
      words,
      failure,
    });
    if (saved) onDone();
  }

  return (
    <form
      noValidate
      aria-label={isNew ? t('new') : t('formLabel', { name: message.name ?? '' })}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div className="max-h-[74vh] space-y-4 overflow-y-auto px-5 py-4">
        {formError ? <Alert tone="error" title={formError} /> : null}
        <Part title={t('subChannel')}>
          <div className="grid gap-4 sm:grid-cols-2">
            <DraftInput {...fieldProps} field="name" id="message-name" label={t('name')} autoFocus maxLength={255} />
            <Field
              id="message-type"
              label={t('plays')}
              hint={!isNew ? t('typeFixed') : isMessageType(draft.type) ? types.hint(draft.type) : undefined}
              error={errors.type}
            >
              <Select
                id="message-type"
                value={draft.type}
                disabled={!isNew || pending}
                onChange={(e) => set('type', e.target.value as ChannelDraft['type'])}
              >
                {MESSAGE_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {types.label(type)}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <CheckboxField
            id="message-enabled"
            label={t('enabled')}
            checked={draft.enabled}
            disabled={pending}
            onChange={(e) => set('enabled', e.target.checked)}
          />
        </Part>

        <Part title={t('what')} hint={uses.contents ? t('whatHint') : undefined}>
          <div className={picksItems ? 'grid gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]' : undefined}>
            <div className="min-w-0 space-y-4">
              <ChannelItems {...fieldProps} />
              <ItemTagCondition {...fieldProps} />
              <div className="grid gap-4 sm:grid-cols-2">
                <DraftInput
                  {...fieldProps}
                  field="saturation"
                  id="message-saturation"
                  label={t('saturation')}
                  hint={t('saturationHint')}
                  type="number"
                  min={0}
                />
                <DraftInput {...fieldProps} field="weight" id="message-weight" label={t('order')} hint={t('orderHint')} type="number" />
                <PlayOrderFields {...fieldProps} idPrefix="message" />
                {uses.defaultDuration ? (
                  <DraftInput
                    {...fieldProps}
                    field="defaultDuration"
                    id="message-default-duration"
                    label={t('defaultDuration')}
                    hint={t('defaultDurationHint')}
                    type="number"
                    min={3}
                  />
                ) : null}
              </div>
              <CheckboxField
                id="message-capped"
                label={t('capped')}
                description={t('cappedHint')}
                checked={draft.capped}
                disabled={pending}
                onChange={(e) => set('capped', e.target.checked)}
              />
              <ItemSkipFields {...fieldProps} idPrefix="message" files={false} />
            </div>
            {picksItems && !pending ? (
              <aside aria-label={t('library')} className="flex h-[24rem] min-h-0 flex-col border-zinc-100 lg:border-l lg:pl-4">
                <ChannelLibrary {...sectionProps} />
              </aside>
            ) : null}
          </div>
        </Part>

        <Part title={t('where')} hint={t('whereHint')}>
          <ChannelWhere {...fieldProps} isNew={isNew} subChannel />
        </Part>

        <Part title={t('when')} hint={t('whenHint')}>
          <ValidityFields {...fieldProps} idPrefix="message" />
          <DateRanges {...fieldProps} />
          {errors.affectedDateRanges ? <p className="text-sm text-red-700">{errors.affectedDateRanges}</p> : null}
        </Part>
      </div>
      <FormFooter pending={pending} onCancel={onDone} submitLabel={isNew ? t('create') : t('save')} />
    </form>
  );
}

function EditLoader({ id, group, onDone }: { id: number; group: MessageGroup; onDone: () => void }) {
  const t = useTranslations('subChannels.editor');
  const detail = messageResource.useDetail(id);
  if (detail.isPending) return <Spinner className="m-8 size-6" label={t('loading')} />;
  if (detail.isError) return <LoadError title={t('loadError')} error={detail.error} onRetry={() => void detail.refetch()} />;

  return <MessageForm key={detail.data.id} group={group} message={detail.data} onDone={onDone} />;
}

/**
 * Adds a sub-channel to `group`, or edits the one `messageId` names: every message type with its items, how
 * many play per turn, the screens (the channel editor's targeting) and the dates (its date ranges).
 */
export function MessageEditorDialog({
  open,
  group,
  messageId,
  onOpenChange,
}: {
  open: boolean;
  group: MessageGroup;
  messageId?: number | null;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('subChannels.editor');
  const close = () => onOpenChange(false);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={messageId ? t('edit') : t('new')}
        description={t.rich('dialogDescription', {
          name: group.name ?? '',
          strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
        })}
        className="sm:top-[4vh] sm:max-w-3xl lg:max-w-5xl"
      >
        {open ? (
          messageId ? (
            <EditLoader id={messageId} group={group} onDone={close} />
          ) : (
            <MessageForm group={group} onDone={close} />
          )
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
