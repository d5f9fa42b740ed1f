'use client';

import { Link } from '@/components/ui/link';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useEffect, useId, useState, type ReactNode } from 'react';
import {
  createBody,
  draftFieldOf,
  draftOf,
  emptyDraft,
  typeUses,
  updateBody,
  type ChannelDraft,
  type SlotChoice,
} from '@/components/channels/channel-draft';
import { useChannelAccess } from '@/components/channels/channel-access';
import { ChannelItems, ChannelLibrary } from '@/components/channels/channel-items';
import { DraftInput, FieldError, ItemSkipFields, ItemTagCondition, PlayOrderFields } from '@/components/channels/channel-parts';
import { ChannelWhere } from '@/components/channels/channel-where';
import { airingOf, useChannelWords } from '@/components/channels/channel-words';
import { DateRanges, ValidityFields, WeekGrid } from '@/components/channels/channel-when';
import { useDraftEditor } from '@/components/channels/draft-editor';
import { NoAccess } from '@/components/settings/no-access';
import { TeamChoice } from '@/components/teams/team-choice';
import { Alert, LoadError } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CheckboxField, Field, Select } from '@/components/ui/field';
import { ChevronLeftIcon, LockIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { TagInput } from '@/components/ui/tag-input';
import { useAdvertisers } from '@/lib/api/advertisers';
import { channelResource, useChannelAirings, useCreateChannel, useUpdateChannel, type Campaign } from '@/lib/api/campaigns';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabelOptions } from '@/lib/i18n/labels';
import { CampaignCreateSchema, CampaignUpdateSchema } from '@/server/modules/campaigns/campaigns.schemas';

/** The wire fields a 400 may name, each shown on its editor field (`draftFieldOf`). */
const WIRE_FIELDS = [
  'name',
  'type',
  'weight',
  'saturation',
  'validFrom',
  'validTo',
  'defaultDuration',
  'contentShuffleMode',
  'orderingMode',
  'affectedHours',
  'affectedDays',
  'affectedDateRanges',
  'deviceTagCondition',
  'contentTagCondition',
  'fileTagCondition',
  'teamAccessList',
  'playedAssetTeamAccessList',
  'locked',
  'contentQuickFilterId',
  'fileQuickFilterId',
  'deviceQuickFilterId',
  'playbackSlotDuration',
  'playbackSlotNumberOfElementsToPlay',
  'tags',
  'advertiserId',
  'duration',
  'playbackSlotItemType',
  'skipDefaultPage',
  'skipInvalidFiles',
  'contentAssignment',
  'contentGroupAssignment',
  'fileAssignment',
  'fileFolderAssignment',
  'messageGroupAssignment',
  'deviceAssignment',
  'deviceGroupAssignment',
] as const;

function Section({ title, description, children, aside }: { title: string; description?: string; children: ReactNode; aside?: ReactNode }) {
  const id = useId();
  const t = useTranslations('channels.editor');

  return (
    <Card className="p-5">
      <div aria-labelledby={id} role="group" className={aside ? 'grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]' : undefined}>
        <div className="min-w-0 space-y-4">
          <div>
            <h2 id={id} className="text-base font-semibold text-zinc-900">
              {title}
            </h2>
            {description ? <p className="text-sm text-zinc-500">{description}</p> : null}
          </div>
          {children}
        </div>
        {aside ? (
          <aside aria-label={t('library')} className="flex h-[26rem] min-h-0 flex-col border-zinc-100 lg:border-l lg:pl-5">
            {aside}
          </aside>
        ) : null}
      </div>
    </Card>
  );
}

/** The saved channel's next airing, as the channels list says it (e.g. "Nothing to play"). */
function NextAiring({ channel }: { channel: Campaign }) {
  const airing = useChannelAirings([channel.id]);
  const t = useTranslations('channels');
  const words = useChannelWords();

  return (
    <p className="text-sm text-zinc-500">
      {t('nextAiring')}:{' '}
      <span data-testid="channel-next-airing">
        {words.airing(airingOf(airing.data?.[0], channel.enabled, channel.affectedScreenCount))}
      </span>
    </p>
  );
}

const SLOT_CHOICES: SlotChoice[] = ['one', 'n', 'all'];

function Form({ channel, onReload }: { channel?: Campaign; onReload?: () => Promise<unknown> }) {
  const router = useRouter();
  const t = useTranslations('channels');
  const channelTypes = useLabelOptions('channelType');
  const slotItemTypes = useLabelOptions('slotItemType');
  const formWords = useTranslations('common.form');
  const errorMessage = useErrorMessage();
  const access = useChannelAccess();
  const isNew = !channel;
  const [initial] = useState<ChannelDraft>(() => (channel ? draftOf(channel) : emptyDraft()));
  const { draft, set, errors, formError, setFormError, save: saveDraft } = useDraftEditor(initial);
  const advertisers = useAdvertisers({ page: 0, size: 200, sort: 'name,asc', text: '' });
  const create = useCreateChannel();
  const update = useUpdateChannel();
  const lock = useUpdateChannel();
  const pending = create.isPending || update.isPending || lock.isPending;
  const readOnly = !access.canEdit || channel?.readOnly === true || channel?.locked === true;
  const disabled = readOnly || pending;
  const uses = typeUses(draft.type);
  const picksItems = uses.contents || uses.files || uses.fileFolders;
  const fieldProps = { draft, set, errors, disabled };

  /** Locks or unlocks the saved channel (a locked one refuses every change but unlocking, spec 2 `locked`). */
  async function toggleLock() {
    if (!channel) return;
    setFormError(null);
    try {
      await lock.mutateAsync({ id: channel.id, body: { locked: !channel.locked } });
      await onReload?.();
    } catch (error) {
      setFormError(errorMessage(error));
    }
  }

  async function save() {
    const words = { enterName: t('editor.enterName'), fieldsNeedAttention: t('editor.fieldsNeedAttention'), form: formWords };
    const saved = await saveDraft({
      body: channel ? updateBody(initial, draft) : createBody(draft),
      schema: channel ? CampaignUpdateSchema : CampaignCreateSchema,
      send: (body) => (channel ? update.mutateAsync({ id: channel.id, body }) : create.mutateAsync(body)),
      wireFields: WIRE_FIELDS,
      fieldOf: draftFieldOf,
      words,
      failure: errorMessage,
    });
    if (saved) router.push('/channels');
  }

  return (
    <form
      className="space-y-5 pb-24"
      aria-label={isNew ? t('newChannel') : t('editor.formLabel', { name: channel.name ?? '' })}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <Link href="/channels" className="inline-flex items-center gap-1 text-sm text-zinc-500 hover:text-zinc-800">
            <ChevronLeftIcon className="size-4" />
            {t('title')}
          </Link>
          <h1 className="flex items-center gap-2 text-xl font-semibold text-zinc-900">
            {isNew ? t('newChannel') : channel.name}
            {channel?.locked ? <LockIcon className="size-5 text-zinc-400" aria-label={t('locked')} /> : null}
          </h1>
          {channel ? <NextAiring channel={channel} /> : null}
        </div>
        {channel && access.canEdit && channel.readOnly !== true ? (
          <Button variant="secondary" onClick={() => void toggleLock()} disabled={pending}>
            {lock.isPending ? <Spinner className="size-4" /> : <LockIcon className="size-4" />}
            {channel.locked ? t('editor.unlock') : t('editor.lock')}
          </Button>
        ) : null}
      </div>
      {readOnly && channel ? (
        <Alert tone="info" title={channel.locked ? t('editor.locked.title') : t('editor.readOnly.title')}>
          {channel.locked
            ? access.canEdit && channel.readOnly !== true
              ? t('editor.locked.canUnlock')
              : t('editor.locked.cannotUnlock')
            : t('editor.readOnly.body')}
        </Alert>
      ) : null}
      {formError ? <Alert tone="error" title={formError} /> : null}

      <Section title={t('channel')}>
        <div className="grid gap-4 sm:grid-cols-2">
          <DraftInput {...fieldProps} field="name" id="channel-name" label={t('editor.name')} maxLength={255} />
          <Field
            id="channel-type"
            label={t('editor.type')}
            hint={isNew ? t(`typeHint.${draft.type}`) : t('editor.typeFixed')}
            error={errors.type}
          >
            <Select
              id="channel-type"
              value={draft.type}
              disabled={disabled || !isNew}
              onChange={(e) => set('type', e.target.value as ChannelDraft['type'])}
            >
              {channelTypes.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <CheckboxField
          id="channel-enabled"
          label={t('editor.enabled')}
          description={t('editor.enabledHint')}
          checked={draft.enabled}
          disabled={disabled}
          onChange={(e) => set('enabled', e.target.checked)}
        />
      </Section>

      <Section
        title={t('editor.what.title')}
        description={t('editor.what.description')}
        aside={picksItems && !disabled ? <ChannelLibrary draft={draft} set={set} /> : undefined}
      >
        <ChannelItems {...fieldProps} />
        <ItemTagCondition draft={draft} set={set} disabled={disabled} />
        <div className="grid gap-4 sm:grid-cols-2">
          <PlayOrderFields {...fieldProps} idPrefix="channel" />
          <DraftInput
            {...fieldProps}
            field="defaultDuration"
            id="channel-default-duration"
            label={t('editor.what.defaultDuration')}
            hint={t('editor.what.defaultDurationHint')}
            type="number"
            min={3}
          />
        </div>
        <ItemSkipFields draft={draft} set={set} disabled={disabled} idPrefix="channel" />
        {uses.readsAssets ? (
          <TeamChoice
            value={draft.playedAssetTeamIds}
            onChange={(ids) => set('playedAssetTeamIds', ids)}
            disabled={disabled}
            error={errors.playedAssetTeamAccessList}
            legend={t('editor.what.teams')}
            hint={t('editor.what.teamsHint')}
          />
        ) : null}
      </Section>

      <Section title={t('editor.where')}>
        <ChannelWhere {...fieldProps} isNew={isNew} />
      </Section>

      <Section title={t('editor.when.title')} description={t('editor.when.description')}>
        <ValidityFields {...fieldProps} idPrefix="channel" />
        <WeekGrid {...fieldProps} />
        {errors.from ? <p className="text-sm text-red-700">{errors.from}</p> : null}
        <div className="space-y-2">
          <h3 className="text-sm font-medium text-zinc-800">{t('when.dateRanges')}</h3>
          <DateRanges {...fieldProps} />
          {errors.affectedDateRanges ? <p className="text-sm text-red-700">{errors.affectedDateRanges}</p> : null}
        </div>
      </Section>

      <Section title={t('editor.share.title')} description={t('editor.share.description')}>
        <div className="grid gap-4 sm:grid-cols-3">
          <DraftInput {...fieldProps} field="weight" id="channel-weight" label={t('order')} hint={t('orderHint')} type="number" />
          <DraftInput
            {...fieldProps}
            field="saturation"
            id="channel-saturation"
            label={t('editor.share.saturation')}
            hint={t('editor.share.saturationHint')}
            type="number"
            min={0}
          />
          <DraftInput
            {...fieldProps}
            field="slotDuration"
            id="channel-slot-duration"
            label={t('editor.share.slotDuration')}
            hint={t('editor.share.slotDurationHint')}
            type="number"
            min={1}
          />
        </div>
        <fieldset className="flex flex-wrap items-center gap-x-5 gap-y-2" disabled={disabled}>
          <legend className="mb-1 text-sm font-medium text-zinc-800">{t('editor.share.slot')}</legend>
          {SLOT_CHOICES.map((c) => (
            <label key={c} className="flex items-center gap-2 text-sm text-zinc-700">
              <input type="radio" name="slot" className="accent-brand-600" checked={draft.slot === c} onChange={() => set('slot', c)} />
              {t(`editor.share.slotChoice.${c}`)}
            </label>
          ))}
          {draft.slot === 'n' ? (
            <Input
              aria-label={t('editor.share.slotCount')}
              type="number"
              min={1}
              value={draft.slotCount}
              onChange={(e) => set('slotCount', e.target.value)}
              className="w-24"
              aria-invalid={errors.slotCount ? true : undefined}
            />
          ) : null}
        </fieldset>
        {errors.slotCount ? <p className="text-sm text-red-700">{errors.slotCount}</p> : null}
        <Field
          id="channel-slot-item-type"
          label={t('editor.share.slotItemType')}
          hint={t('editor.share.slotItemTypeHint')}
          error={errors.slotItemType}
        >
          <Select
            id="channel-slot-item-type"
            value={draft.slotItemType}
            disabled={disabled}
            onChange={(e) => set('slotItemType', e.target.value as ChannelDraft['slotItemType'])}
          >
            {/* The API has no reset for it: "Not set" only until one is saved. */}
            <option value="" disabled={initial.slotItemType !== ''}>
              {t('editor.share.slotItemTypeNotSet')}
            </option>
            {slotItemTypes.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        </Field>
      </Section>

      <Section title={t('editor.more.title')} description={t('editor.more.description')}>
        <div className="grid gap-4 sm:grid-cols-3">
          <div className="space-y-1.5">
            <p className="text-sm font-medium text-zinc-800">{t('editor.more.tags')}</p>
            <TagInput
              id="channel-tags"
              label={t('editor.more.tags')}
              value={draft.tags}
              onChange={(tags) => set('tags', tags)}
              suggest="campaignTags"
            />
            <FieldError message={errors.tags} />
          </div>
          <Field id="channel-advertiser" label={t('editor.more.advertiser')} error={errors.advertiserId}>
            <Select
              id="channel-advertiser"
              value={draft.advertiserId}
              disabled={disabled}
              onChange={(e) => set('advertiserId', e.target.value)}
            >
              <option value="">{t('editor.more.noAdvertiser')}</option>
              {(advertisers.data?.content ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </Select>
          </Field>
          <DraftInput
            {...fieldProps}
            field="duration"
            id="channel-duration"
            label={t('editor.more.duration')}
            hint={t('editor.more.durationHint')}
            type="number"
            min={1}
          />
        </div>
      </Section>

      {!readOnly ? (
        <div className="fixed inset-x-0 bottom-0 z-10 border-t border-zinc-200 bg-white/95 px-6 py-3 backdrop-blur lg:pl-64">
          <div className="mx-auto flex max-w-6xl justify-end gap-2">
            <Button variant="secondary" onClick={() => router.push('/channels')} disabled={pending}>
              {t('editor.cancel')}
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner className="size-4" /> : null}
              {isNew ? t('editor.create') : t('editor.save')}
            </Button>
          </div>
        </div>
      ) : null}
    </form>
  );
}

/** `/channels/new` and `/channels/{id}`: the whole channel on one page. */
export function ChannelEditor({ id }: { id?: string }) {
  const t = useTranslations('channels');
  const access = useChannelAccess();
  const detail = channelResource.useDetail(id ?? null);
  useEffect(() => {
    if (detail.data?.name) document.title = t('editor.documentTitle', { name: detail.data.name });
  }, [detail.data?.name, t]);
  if (!access.canView) return <NoAccess title={t('noAccess.title')}>{t('noAccess.body')}</NoAccess>;
  if (!id) {
    if (!access.canEdit) return <NoAccess title={t('noAccess.createTitle')}>{t('noAccess.createBody')}</NoAccess>;

    return <Form />;
  }
  if (detail.isPending) return <Spinner className="m-8 size-6" label={t('editor.loading')} />;
  if (detail.isError) return <LoadError title={t('editor.loadError')} error={detail.error} onRetry={() => void detail.refetch()} />;

  return <Form key={detail.data.id} channel={detail.data} onReload={() => detail.refetch()} />;
}
