'use client';

import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { z } from 'zod';
import type { ContentDragItems } from '@/components/content/content-drag';
import { ContentFolderTree } from '@/components/content/content-folder-tree';
import { blockedReasonText, planDeletion } from '@/components/content/deletion-plan';
import { Alert } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormDialog } from '@/components/ui/form-dialog';
import { MoveDialog } from '@/components/ui/move-dialog';
import { Spinner } from '@/components/ui/spinner';
import {
  contentResource,
  contentTypeOf,
  emptyPlaylist,
  fetchTemplates,
  useCreateFromTemplate,
  useCreatePlaylist,
  useCreateSlide,
  fetchForDeletion,
  useDeleteContents,
  useDuplicateContent,
  type DeviceContent,
} from '@/lib/api/content';
import type { ContentGroup } from '@/lib/api/content-groups';
import { useErrorMessage } from '@/lib/i18n/errors';
import { DuplicateSchema } from '@/server/modules/content/content.schemas';

const RESOLUTIONS = ['1920x1080', '1080x1920', '3840x2160', '2160x3840', '1280x720'] as const;

const NewPlaylistSchema = DuplicateSchema.extend({ resolution: z.enum(RESOLUTIONS) });

export function NewPlaylistDialog({
  open,
  folderId,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  folderId: string;
  onOpenChange: (open: boolean) => void;
  onCreated: (item: DeviceContent) => void;
}) {
  const create = useCreatePlaylist();
  const t = useTranslations('content.dialogs');

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('newPlaylist.title')}
      description={t('newPlaylist.description')}
      schema={NewPlaylistSchema}
      required={{ name: t('enterName') }}
      values={{ name: '', resolution: '1920x1080' as const }}
      submitLabel={t('newPlaylist.submit')}
      onSubmit={async (values) => {
        const [width, height] = values.resolution.split('x').map(Number) as [number, number];
        onCreated(await create.mutateAsync({ contentGroupId: folderId, name: values.name, data: emptyPlaylist(width, height) }));
      }}
    >
      {(fields) => (
        <>
          {fields.text('name', { label: t('name'), autoFocus: true })}
          {fields.select('resolution', {
            label: t('newPlaylist.screen'),
            hint: t('newPlaylist.screenHint'),
            children: RESOLUTIONS.map((r) => (
              <option key={r} value={r}>
                {t(`newPlaylist.resolutions.${r}`)}
              </option>
            )),
          })}
        </>
      )}
    </FormDialog>
  );
}

const BLANK = [
  { value: 'blank-landscape', size: { width: 1920, height: 1080 }, structureType: 'SLIDE' },
  { value: 'blank-portrait', size: { width: 1080, height: 1920 }, structureType: 'SLIDE' },
  { value: 'interactive-landscape', size: { width: 1920, height: 1080 }, structureType: 'COMPLEX' },
  { value: 'interactive-portrait', size: { width: 1080, height: 1920 }, structureType: 'COMPLEX' },
] as const;

const NewSlideSchema = DuplicateSchema.extend({ template: z.string().min(1) });

/** A new slide: blank, or from a starter template. */
export function NewSlideDialog({
  open,
  folderId,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  folderId: string;
  onOpenChange: (open: boolean) => void;
  onCreated: (item: DeviceContent) => void;
}) {
  const templates = useQuery({
    queryKey: ['content', 'templates'],
    queryFn: ({ signal }) => fetchTemplates(signal),
    enabled: open,
    staleTime: 5 * 60_000,
  });
  const createBlank = useCreateSlide();
  const fromTemplate = useCreateFromTemplate();
  const t = useTranslations('content.dialogs');

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('newSlide.title')}
      description={t('newSlide.description')}
      schema={NewSlideSchema}
      required={{ name: t('enterName') }}
      values={{ name: '', template: 'blank-landscape' }}
      submitLabel={t('newSlide.submit')}
      onSubmit={async (values) => {
        const blank = BLANK.find((b) => b.value === values.template);
        const item = blank
          ? await createBlank.mutateAsync({
              contentGroupId: folderId,
              name: values.name,
              structureType: blank.structureType,
              data: {
                pages: [
                  {
                    name: blank.structureType === 'COMPLEX' ? 'Home' : 'Default',
                    tags: [],
                    pageStyle: { backgroundColor: '#111827' },
                    pageData: { screenSize: blank.size },
                    widgets: [],
                  },
                ],
              },
            })
          : await fromTemplate.mutateAsync({ templateId: values.template, contentGroupId: folderId, name: values.name });
        onCreated(item);
      }}
    >
      {(fields) => (
        <>
          {fields.text('name', { label: t('name'), autoFocus: true })}
          {fields.select('template', {
            label: t('newSlide.startFrom'),
            hint: t('newSlide.startHint'),
            children: (
              <>
                {BLANK.map((b) => (
                  <option key={b.value} value={b.value}>
                    {t(`newSlide.blank.${b.value}`)}
                  </option>
                ))}
                {(templates.data?.content ?? []).map((template) => (
                  <option key={template.id} value={template.id}>
                    {t('newSlide.template', { name: template.name ?? '' })}
                  </option>
                ))}
              </>
            ),
          })}
        </>
      )}
    </FormDialog>
  );
}

export function DuplicateContentDialog({ item, onOpenChange }: { item: DeviceContent | null; onOpenChange: (open: boolean) => void }) {
  const duplicate = useDuplicateContent();
  const t = useTranslations('content.dialogs');

  return (
    <FormDialog
      open={item !== null}
      onOpenChange={onOpenChange}
      title={t('duplicate.title', { type: item ? contentTypeOf(item) : 'SLIDE' })}
      description={t('duplicate.description')}
      schema={DuplicateSchema}
      required={{ name: t('enterName') }}
      values={{ name: item ? t('duplicate.copyName', { name: item.name ?? '' }).slice(0, 255) : '' }}
      submitLabel={t('duplicate.submit')}
      onSubmit={(values) => duplicate.mutateAsync({ item: item!, name: values.name })}
    >
      {(fields) => fields.text('name', { label: t('duplicate.nameLabel'), autoFocus: true })}
    </FormDialog>
  );
}

/**
 * Deletes the selected items after showing where each is embedded: items other content embeds (outside the
 * selection), locked and read-only ones are listed and kept; the rest are deleted, embedders first.
 */
export function DeleteContentDialog({
  ids,
  onOpenChange,
  onDeleted,
}: {
  ids: string[] | null;
  onOpenChange: (open: boolean) => void;
  onDeleted?: (ids: string[]) => void;
}) {
  const customerId = contentResource.useScope();
  const remove = useDeleteContents();
  const [done, setDone] = useState<number | null>(null);
  const t = useTranslations('content');
  const errorMessage = useErrorMessage();
  const checks = useQuery({
    queryKey: [...contentResource.keys.lists(), 'for-deletion', { customerId, ids }],
    queryFn: ({ signal }) => fetchForDeletion(ids!, customerId, signal),
    enabled: ids !== null && ids.length > 0,
    staleTime: 0,
  });
  const plan = checks.data ? planDeletion(checks.data.content) : null;
  const single = ids?.length === 1;
  const first = checks.data?.content[0];
  const embeddedIn = single ? (first?.usageDetails ?? []) : [];
  const count = ids?.length ?? 0;

  return (
    <ConfirmDialog
      open={ids !== null}
      onOpenChange={(open) => {
        if (!open) setDone(null);
        onOpenChange(open);
      }}
      title={
        single
          ? first
            ? t('dialogs.delete.titleOne', { type: contentTypeOf(first), name: first.name ?? '' })
            : t('dialogs.delete.titleItem')
          : t('dialogs.delete.titleMany', { count })
      }
      description={t('dialogs.delete.description')}
      confirmLabel={
        plan && plan.order.length > 0 && plan.order.length !== count
          ? t('dialogs.delete.some', { some: plan.order.length, count })
          : t('dialogs.delete.confirm')
      }
      destructive
      onConfirm={async () => {
        if (!plan) throw new Error(t('dialogs.delete.stillChecking'));
        if (plan.order.length === 0)
          throw new Error(single && plan.blocked[0] ? blockedReasonText(plan.blocked[0].reason, t) : t('dialogs.delete.noneDeletable'));
        setDone(0);
        try {
          await remove(plan.order, setDone);
        } finally {
          setDone(null);
        }
        onDeleted?.(plan.order.map((i) => i.id));
      }}
    >
      {checks.isError ? <Alert>{errorMessage(checks.error)}</Alert> : null}
      {checks.isPending && ids ? (
        <p className="flex items-center gap-2 text-sm text-zinc-500" role="status">
          <Spinner /> {t('dialogs.delete.checking', { count })}
        </p>
      ) : null}
      {embeddedIn.length > 0 ? (
        <div className="text-sm text-zinc-700" data-testid="content-usage">
          <p className="font-medium">{t('dialogs.delete.embeddedIn')}</p>
          <ul className="mt-1 list-disc pl-5">
            {embeddedIn.map((u) => (
              <li key={u.id}>{u.name}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {plan && plan.blocked.length > 0 ? (
        <Alert title={single ? t('dialogs.delete.cannotOne') : t('dialogs.delete.cannotMany', { count: plan.blocked.length })}>
          <ul className="mt-1 list-disc space-y-0.5 pl-4" data-testid="content-delete-blocked">
            {plan.blocked.map((b) => (
              <li key={b.item.id}>
                {single ? null : <span className="font-medium">{b.item.name}: </span>}
                {blockedReasonText(b.reason, t)}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {plan && plan.blocked.length === 0 ? (
        <p className="text-sm text-zinc-600">{single ? t('dialogs.delete.noEmbedderOne') : t('dialogs.delete.noEmbedderMany')}</p>
      ) : null}
      {done !== null && plan ? (
        <p className="flex items-center gap-2 text-sm text-zinc-600" role="status">
          <Spinner /> {t('dialogs.delete.progress', { done, total: plan.order.length })}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}

/** Picks a content folder and moves the selection there (locked items stay; `move` says what happened). */
export function MoveContentDialog({
  items,
  root,
  onOpenChange,
  move,
}: {
  items: ContentDragItems | null;
  root: ContentGroup | undefined;
  onOpenChange: (open: boolean) => void;
  move: (targetId: string, items: ContentDragItems) => Promise<unknown>;
}) {
  const count = (items?.contentIds.length ?? 0) + (items?.contentGroupIds.length ?? 0);
  const t = useTranslations('content.dialogs.move');

  return (
    <MoveDialog
      open={items !== null}
      onOpenChange={onOpenChange}
      title={t('title', { count })}
      description={t('description', { count })}
      tree={(target, choose) =>
        root ? <ContentFolderTree root={root} selectedId={target ?? ''} openPath={[]} onSelect={(f) => choose(f.id)} /> : <Spinner />
      }
      onMove={(target) => move(target, items!)}
    />
  );
}
