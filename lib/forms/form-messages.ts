import { createTranslator } from 'next-intl';
import type { z } from 'zod';
import type { Translate } from '@/lib/i18n/translate';
import common from '@/messages/en/common.json';

/** The words of the shared checks: a component's `useTranslations('common.form')`. */
export type FormWords = Translate<'common.form'>;

const english: FormWords = createTranslator({ locale: 'en', messages: { common }, namespace: 'common.form' });

/**
 * The console's words for the checks of the modules' wire schemas: a form validates with the same schema
 * the API does (`*.schemas.ts`), and this error map turns each failed check into a sentence for the
 * field. `required` names what an empty required field asks for, by field ("name" → "Enter a name"), in the
 * caller's words; `t` words the rest in the console's language (English without it).
 */
export function formMessages(required: Partial<Record<string, string>> = {}, t: FormWords = english): z.core.$ZodErrorMap {
  return (issue) => {
    const field = issue.path?.map(String).join('.') ?? '';
    const input = issue.input;
    if (
      (issue.code === 'invalid_type' && (input === undefined || input === null || input === '')) ||
      (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) <= 1)
    ) {
      return required[field] ?? t('required');
    }
    if (issue.code === 'too_small' && issue.origin === 'string') return t('minLength', { min: Number(issue.minimum) });
    if (issue.code === 'too_big' && issue.origin === 'string') return t('maxLength', { max: Number(issue.maximum) });
    if (issue.code === 'too_small' && (issue.origin === 'number' || issue.origin === 'int'))
      return t('min', { min: Number(issue.minimum) });
    if (issue.code === 'too_big' && (issue.origin === 'number' || issue.origin === 'int')) return t('max', { max: Number(issue.maximum) });
    if (issue.code === 'too_small' && issue.origin === 'array') return t('chooseAtLeast', { min: Number(issue.minimum) });
    if (issue.code === 'invalid_format' && issue.format === 'email') return t('email');
    if (issue.code === 'invalid_value') return t('option');

    return undefined;
  };
}
