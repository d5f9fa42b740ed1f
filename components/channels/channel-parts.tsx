'use client';

import { useTranslations } from 'next-intl';
import type { ComponentProps, ReactNode } from 'react';
import { typeUses, type ChannelDraft, type Named } from '@/components/channels/channel-draft';
import { CheckboxField, Field, Select } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { TagInput } from '@/components/ui/tag-input';
import type { TagGroup } from '@/server/modules/tags/tags.schemas';
import { XIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { useQuickFilters, type QuickFilterType } from '@/lib/api/quick-filters';

/** What every section of the channel editor gets: the draft, its setter, the API's field errors. */
export type SectionProps = {
  draft: ChannelDraft;
  set: <K extends keyof ChannelDraft>(key: K, value: ChannelDraft[K]) => void;
  errors: Partial<Record<string, string>>;
  disabled: boolean;
};

/** The draft's fields a user types: any text (names, numbers as typed), not a choice of a few values. */
type TypedField = {
  [K in keyof ChannelDraft]: ChannelDraft[K] extends string ? (string extends ChannelDraft[K] ? K : never) : never;
}[keyof ChannelDraft];

/** One typed field of the draft (a name, a number), with its hint, or the API's error for it. */
export function DraftInput({
  draft,
  set,
  errors,
  disabled,
  field,
  id,
  label,
  hint,
  ...input
}: SectionProps & { field: TypedField; id: string; label: string; hint?: string } & Pick<
    ComponentProps<'input'>,
    'type' | 'min' | 'maxLength' | 'autoFocus'
  >) {
  const error = errors[field];

  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <Input
        id={id}
        value={draft[field]}
        disabled={disabled}
        onChange={(e) => set(field, e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        {...input}
      />
    </Field>
  );
}

export function FieldError({ message }: { message?: string }) {
  return message ? <p className="text-sm text-red-700">{message}</p> : null;
}

export function Chips<I extends string | number>({
  items,
  label,
  onRemove,
  disabled,
}: {
  items: Named<I>[];
  label: string;
  onRemove: (id: I) => void;
  disabled: boolean;
}) {
  const t = useTranslations('channels.parts');
  if (items.length === 0) return null;

  return (
    <ul aria-label={label} className="flex flex-wrap gap-1.5">
      {items.map((item) => (
        <li
          key={String(item.id)}
          className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-sm text-brand-800 ring-1 ring-brand-200 ring-inset"
        >
          {item.name}
          <button
            type="button"
            aria-label={t('remove', { name: item.name })}
            disabled={disabled}
            onClick={() => onRemove(item.id)}
            className="cursor-pointer rounded-full p-0.5 hover:bg-brand-100"
          >
            <XIcon className="size-3.5" />
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A folder tree whose clicks add or remove folders, the chosen ones as chips below it. */
export function FolderChooser({
  hint,
  tree,
  chosen,
  label,
  onRemove,
  error,
  disabled,
}: {
  hint: ReactNode;
  tree: ReactNode | null;
  chosen: Named[];
  label: string;
  onRemove: (id: string) => void;
  error?: string;
  disabled: boolean;
}) {
  return (
    <div className="space-y-2">
      <p className="text-sm text-zinc-500">{hint}</p>
      <div className="max-h-64 overflow-y-auto rounded-md p-2 ring-1 ring-zinc-200 ring-inset">
        {tree ?? <Spinner className="m-2 size-4" />}
      </div>
      <Chips items={chosen} label={label} disabled={disabled} onRemove={onRemove} />
      <FieldError message={error} />
    </div>
  );
}

/** A tag condition (`{tags, operator}`, spec 2): the tags, and whether any or all of them are needed. */
export function TagCondition({
  id,
  label,
  subject,
  suggest,
  tags,
  operator,
  onTags,
  onOperator,
  disabled,
  conditionLabel,
}: {
  id: string;
  label: string;
  /** Who needs the tags: "Screens need", "Content needs". */
  subject: string;
  suggest: TagGroup;
  tags: string[];
  operator: 'AND' | 'OR';
  onTags: (tags: string[]) => void;
  onOperator: (operator: 'AND' | 'OR') => void;
  disabled: boolean;
  conditionLabel?: string;
}) {
  const t = useTranslations('channels.parts');

  return (
    <div className="space-y-1.5">
      <p className="text-sm font-medium text-zinc-800">{label}</p>
      <TagInput id={id} label={label} value={tags} onChange={onTags} suggest={suggest} />
      <div className="flex items-center gap-2 text-sm whitespace-nowrap text-zinc-600">
        {subject}
        <div className="w-40">
          <Select
            aria-label={conditionLabel ?? t('condition', { label })}
            value={operator}
            disabled={disabled}
            onChange={(e) => onOperator(e.target.value as 'AND' | 'OR')}
            className="h-8"
          >
            <option value="OR">{t('anyTag')}</option>
            <option value="AND">{t('allTags')}</option>
          </Select>
        </div>
      </div>
    </div>
  );
}

/** What a channel or sub-channel of a dynamic type plays is narrowed by content or file tags (none: everything in the folders). */
export function ItemTagCondition({ draft, set, disabled }: Pick<SectionProps, 'draft' | 'set' | 'disabled'>) {
  const t = useTranslations('channels.parts');
  const which =
    draft.type === 'CONTENT_DYNAMIC'
      ? ({
          id: 'channel-content-tags',
          label: t('contentTags'),
          subject: t('contentNeeds'),
          suggest: 'deviceContentTags',
          tags: 'contentTags',
          operator: 'contentTagOperator',
        } as const)
      : draft.type === 'ASSETS_DYNAMIC'
        ? ({
            id: 'channel-file-tags',
            label: t('mediaTags'),
            subject: t('filesNeed'),
            suggest: 'fileTags',
            tags: 'fileTags',
            operator: 'fileTagOperator',
          } as const)
        : null;
  if (!which) return null;

  return (
    <TagCondition
      id={which.id}
      label={which.label}
      subject={which.subject}
      suggest={which.suggest}
      tags={draft[which.tags]}
      operator={draft[which.operator]}
      onTags={(tags) => set(which.tags, tags)}
      onOperator={(op) => set(which.operator, op)}
      disabled={disabled}
    />
  );
}

/** How a type's items follow each other: pages per item (`contentShuffleMode`) and item order (`orderingMode`). */
export function PlayOrderFields({ draft, set, errors, disabled, idPrefix }: SectionProps & { idPrefix: string }) {
  const t = useTranslations('channels.parts');
  const uses = typeUses(draft.type);

  return (
    <>
      {uses.shuffle ? (
        <Field id={`${idPrefix}-shuffle`} label={t('shuffle')} error={errors.contentShuffleMode}>
          <Select
            id={`${idPrefix}-shuffle`}
            value={draft.contentShuffleMode}
            disabled={disabled}
            onChange={(e) => set('contentShuffleMode', e.target.value as ChannelDraft['contentShuffleMode'])}
          >
            <option value="SERIAL">{t('shuffleMode.SERIAL')}</option>
            <option value="BALANCED">{t('shuffleMode.BALANCED')}</option>
          </Select>
        </Field>
      ) : null}
      {uses.ordering ? (
        <Field id={`${idPrefix}-ordering`} label={t('ordering')} error={errors.orderingMode}>
          <Select
            id={`${idPrefix}-ordering`}
            value={draft.orderingMode}
            disabled={disabled}
            onChange={(e) => set('orderingMode', e.target.value as ChannelDraft['orderingMode'])}
          >
            <option value="DEFAULT">{t('orderingMode.DEFAULT')}</option>
            <option value="ALPHABET">{t('orderingMode.ALPHABET')}</option>
            <option value="RANDOM">{t('orderingMode.RANDOM')}</option>
          </Select>
        </Field>
      ) : null}
    </>
  );
}

/**
 * What of the items is left out (spec 2 `skipDefaultPage`, `skipInvalidFiles`), for the types they apply to.
 * A sub-channel has no `skipInvalidFiles` (`files` false).
 */
export function ItemSkipFields({
  draft,
  set,
  disabled,
  idPrefix,
  files = true,
}: Pick<SectionProps, 'draft' | 'set' | 'disabled'> & { idPrefix: string; files?: boolean }) {
  const t = useTranslations('channels.parts');
  const uses = typeUses(draft.type);

  return (
    <>
      {uses.contentPages ? (
        <CheckboxField
          id={`${idPrefix}-skip-default-page`}
          label={t('skipDefaultPage')}
          description={t('skipDefaultPageHint')}
          checked={draft.skipDefaultPage}
          disabled={disabled}
          onChange={(e) => set('skipDefaultPage', e.target.checked)}
        />
      ) : null}
      {files && uses.filesPlay ? (
        <CheckboxField
          id={`${idPrefix}-skip-invalid`}
          label={t('skipInvalidFiles')}
          description={t('skipInvalidFilesHint')}
          checked={draft.skipInvalidFiles}
          disabled={disabled}
          onChange={(e) => set('skipInvalidFiles', e.target.checked)}
        />
      ) : null}
    </>
  );
}

/** Adds `item` to a list of named items, or takes it out when it is there. */
export const toggled = <I,>(list: readonly Named<I>[], item: Named<I>): Named<I>[] =>
  list.some((x) => x.id === item.id) ? list.filter((x) => x.id !== item.id) : [...list, item];

/** A quick filter of one entity type, chosen in a select (the filter's items or screens are read when played). */
export function QuickFilterField({
  id,
  label,
  type,
  value,
  onChange,
  error,
  disabled,
}: {
  id: string;
  label: string;
  type: QuickFilterType;
  value: string;
  onChange: (id: string) => void;
  error?: string;
  disabled: boolean;
}) {
  const t = useTranslations('channels.parts');
  const filters = useQuickFilters(type);

  return (
    <Field id={id} label={label} error={error}>
      <Select id={id} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('chooseFilter')}</option>
        {(filters.data?.content ?? []).map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
      </Select>
    </Field>
  );
}
