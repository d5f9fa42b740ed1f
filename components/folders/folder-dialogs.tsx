'use client';

import type { ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormDialog, type FormFields, type SubmitFailure } from '@/components/ui/form-dialog';

/*
 * The folder dialogs of every folder tree (media, content, screens): a new folder inside a parent, a folder
 * renamed, a folder deleted. A tree gives its words, its name schema (the module's wire schema), its
 * mutation and what it adds (the device folder's kind, the content folder's "delete its content too").
 */

/** A tree's words for its folder dialogs. */
export type FolderDialogWords = {
  /** The label of the name field. */
  name: string;
  /** What an empty name asks for. */
  enterName: string;
  newTitle: string;
  /** The new folder dialog's line naming the parent (none: no line). */
  inside?: (parentName: string) => string;
  create: string;
  renameTitle: string;
  rename: string;
};

type NameValues = FieldValues & { name: string };

/** A new folder inside `parent` (open while `parent` is set); `fields` adds a tree's own fields after the name. */
export function NewFolderDialog<TValues extends NameValues, TOutput>({
  parent,
  onOpenChange,
  words,
  schema,
  values,
  create,
  fieldError,
  fields,
}: {
  parent: { id: string; name: string } | null;
  onOpenChange: (open: boolean) => void;
  words: FolderDialogWords;
  schema: z.ZodType<TOutput, TValues>;
  /** The form's values when it opens (an empty name and the tree's defaults). */
  values: TValues;
  /** Creates the folder in `parentId` (and tells the page, which opens it or selects it). */
  create: (values: TOutput, parentId: string) => Promise<unknown>;
  fieldError?: (error: unknown) => SubmitFailure<TValues>;
  fields?: (fields: FormFields<TValues>) => ReactNode;
}) {
  return (
    <FormDialog
      open={parent !== null}
      onOpenChange={onOpenChange}
      title={words.newTitle}
      description={parent && words.inside ? words.inside(parent.name) : undefined}
      schema={schema}
      // `name` is a field of every TValues (NameValues), which react-hook-form's Path<TValues> cannot see for a generic TValues.
      required={{ name: words.enterName } as Partial<Record<keyof TValues & string, string>>}
      values={values}
      submitLabel={words.create}
      onSubmit={(submitted) => create(submitted, parent!.id)}
      fieldError={fieldError}
    >
      {(form) => (
        <>
          {/* `name` is a Path of every TValues (see `required`). */}
          {form.text('name' as never, { label: words.name, autoFocus: true })}
          {fields?.(form)}
        </>
      )}
    </FormDialog>
  );
}

/** Renames `folder` (open while it is set). */
export function RenameFolderDialog<TOutput extends { name: string }>({
  folder,
  onOpenChange,
  words,
  schema,
  rename,
  fieldError,
}: {
  folder: { id: string; name?: string | null } | null;
  onOpenChange: (open: boolean) => void;
  words: FolderDialogWords;
  schema: z.ZodType<TOutput, { name: string }>;
  rename: (input: { id: string; name: string }) => Promise<unknown>;
  fieldError?: (error: unknown) => SubmitFailure<{ name: string }>;
}) {
  return (
    <FormDialog
      open={folder !== null}
      onOpenChange={onOpenChange}
      title={words.renameTitle}
      schema={schema}
      required={{ name: words.enterName }}
      values={{ name: folder?.name ?? '' }}
      submitLabel={words.rename}
      onSubmit={(values) => rename({ id: folder!.id, name: values.name })}
      fieldError={fieldError}
    >
      {(fields) => fields.text('name', { label: words.name, autoFocus: true })}
    </FormDialog>
  );
}

/** Deletes `folder` (open while it is set) after the tree's question; `children` says what happens to what it holds. */
export function DeleteFolderDialog({
  folder,
  onOpenChange,
  title,
  description,
  confirmLabel,
  remove,
  children,
}: {
  folder: { id: string } | null;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** Deletes the folder and tells the page (which leaves it); throws to keep the dialog open with the error. */
  remove: () => Promise<unknown>;
  children?: ReactNode;
}) {
  return (
    <ConfirmDialog
      open={folder !== null}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      destructive
      onConfirm={remove}
    >
      {children}
    </ConfirmDialog>
  );
}
