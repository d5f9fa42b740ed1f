import type { z } from 'zod';

/**
 * The console's words for the checks of the modules' wire schemas: a form validates with the same schema
 * the API does (`*.schemas.ts`), and this error map turns each failed check into a sentence for the
 * field. `required` names what an empty required field asks for, by field ("name" → "Enter a name").
 */
export function formMessages(required: Partial<Record<string, string>> = {}): z.core.$ZodErrorMap {
  return (issue) => {
    const field = issue.path?.map(String).join('.') ?? '';
    const input = issue.input;
    if ((issue.code === 'invalid_type' && (input === undefined || input === null || input === '')) || (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) <= 1)) {
      return required[field] ?? 'Required';
    }
    if (issue.code === 'too_small' && issue.origin === 'string') return `At least ${issue.minimum.toLocaleString('en')} characters`;
    if (issue.code === 'too_big' && issue.origin === 'string') return `At most ${issue.maximum.toLocaleString('en')} characters`;
    if (issue.code === 'too_small' && (issue.origin === 'number' || issue.origin === 'int')) return `At least ${issue.minimum.toLocaleString('en')}`;
    if (issue.code === 'too_big' && (issue.origin === 'number' || issue.origin === 'int')) return `At most ${issue.maximum.toLocaleString('en')}`;
    if (issue.code === 'too_small' && issue.origin === 'array') return Number(issue.minimum) <= 1 ? 'Choose at least one' : `Choose at least ${issue.minimum}`;
    if (issue.code === 'invalid_format' && issue.format === 'email') return 'Enter a valid e-mail address';
    if (issue.code === 'invalid_value') return 'Choose one of the options';

    return undefined;
  };
}
