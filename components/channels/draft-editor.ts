'use client';

import { useState } from 'react';
import type { z } from 'zod';
import { bodyIssues, type ChannelDraft } from '@/components/channels/channel-draft';
import type { SectionProps } from '@/components/channels/channel-parts';
import { ApiError } from '@/lib/api/client';
import { apiFieldErrors } from '@/lib/api/field-errors';
import type { FormWords } from '@/lib/forms/form-messages';

type DraftErrors = Partial<Record<string, string>>;

/** How one editor saves its draft's body: the schema the API checks it with, the call, and its words. */
export type DraftSave<B> = {
  body: B;
  /** The API's own body schema: its checks run before the body is sent. */
  schema: z.ZodType;
  send: (body: B) => Promise<unknown>;
  /** The wire fields a 400 may name; `fieldOf` maps each (and each path of `schema`'s issues) to its editor field. */
  wireFields: readonly string[];
  fieldOf: (wireField: string) => string;
  words: { enterName: string; fieldsNeedAttention: string; form: FormWords };
  /** The form's message for a failure that names no field. */
  failure: (error: unknown) => string;
};

/**
 * The state of an editor of a channel draft (the channel editor, the sub-channel editor): the draft, its
 * field errors and the form's message, and `save`, which checks before it sends and shows what the API refused
 * on the fields it names. `adjust` rewrites a value as it is set (a sub-channel keeps one content).
 */
export function useDraftEditor<D extends ChannelDraft>(initial: D, adjust?: (key: string, value: unknown) => unknown) {
  const [draft, setDraft] = useState<D>(initial);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const assign = (key: string, value: unknown) => {
    setDraft((d) => ({ ...d, [key]: adjust ? adjust(key, value) : value }));
    setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
    setFormError(null);
  };
  /** Sets a field of this editor's draft. */
  const set = <K extends keyof D & string>(key: K, value: D[K]) => assign(key, value);
  /** The same, for the sections shared by every channel draft (channel-parts.tsx, channel-when.tsx, …). */
  const setShared: SectionProps['set'] = (key, value) => assign(key, value);

  /** Resolves true when the API took the body. */
  async function save<B>({ body, schema, send, wireFields, fieldOf, words, failure }: DraftSave<B>): Promise<boolean> {
    setFormError(null);
    if (!draft.name.trim()) {
      setErrors({ name: words.enterName });

      return false;
    }
    const issues = bodyIssues(schema, body, fieldOf, words.enterName, words.form);
    if (Object.keys(issues).length > 0) {
      setErrors(issues);
      setFormError(words.fieldsNeedAttention);

      return false;
    }
    try {
      await send(body);

      return true;
    } catch (error) {
      const fields = apiFieldErrors(error, wireFields);
      if (fields.length > 0) setErrors(Object.fromEntries(fields.map((f) => [fieldOf(f.field), f.message])));
      const shown = fields.length > 0 && error instanceof ApiError && error.status === 400;
      setFormError(shown ? words.fieldsNeedAttention : failure(error));

      return false;
    }
  }

  return { draft, set, errors, formError, setFormError, save, sectionProps: { draft, set: setShared, errors } };
}
