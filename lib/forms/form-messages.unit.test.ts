import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formMessages } from '@/lib/forms/form-messages';
import de from '@/messages/de';
import { emailAddress, ianaTimeZone } from '@/server/http/wire.schemas';
import { TeamBodySchema } from '@/server/modules/teams/teams.schemas';

const german = createTranslator({ locale: 'de', messages: de, namespace: 'common.form' });

const messagesOf = (schema: z.ZodType, value: unknown, required: Record<string, string> = {}, t?: typeof german) => {
  const result = schema.safeParse(value, { error: formMessages(required, t) });

  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('form messages for the wire schemas', () => {
  // The service words these shared formats for API clients; a console form must still word them in its own language.
  it("words the shared e-mail and time-zone formats in the form's language, and the API's words stay the fallback", () => {
    const schema = z.object({ email: emailAddress, timeZone: ianaTimeZone, reportZone: ianaTimeZone.openapi({ description: 'derived' }) });
    const bad = { email: 'nope', timeZone: 'Mars/Olympus', reportZone: 'europe/berlin' };
    expect(messagesOf(schema, bad, {}, german)).toEqual({
      email: german('email'),
      timeZone: german('option'),
      reportZone: german('option'),
    });
    const api = schema.safeParse(bad);
    const zone = 'An IANA time zone such as Europe/Berlin';
    expect(api.success ? [] : api.error.issues.map((i) => i.message)).toEqual(['An e-mail address', zone, zone]);
  });

  it('words the checks of a module schema for its form', () => {
    expect(messagesOf(TeamBodySchema, { name: '  ', comment: '' }, { name: 'Enter a name' })).toEqual({ name: 'Enter a name' });
    expect(messagesOf(TeamBodySchema, { name: 'x'.repeat(256), comment: 'y'.repeat(4001) })).toEqual({
      name: 'At most 255 characters',
      comment: 'At most 4,000 characters',
    });
    expect(messagesOf(TeamBodySchema, { name: 'Ops', comment: '' })).toEqual({});
  });

  it('covers e-mail, lengths, numbers, options and missing values', () => {
    const schema = z.object({
      email: z.email(),
      password: z.string().min(8),
      count: z.number().int().min(0).max(10),
      role: z.enum(['A', 'B']),
      ids: z.array(z.string()).min(1),
      missing: z.string(),
    });
    expect(messagesOf(schema, { email: 'nope', password: 'short', count: 11, role: 'C', ids: [] })).toEqual({
      email: 'Enter a valid e-mail address',
      password: 'At least 8 characters',
      count: 'At most 10',
      role: 'Choose one of the options',
      ids: 'Choose at least one',
      missing: 'Required',
    });
    expect(messagesOf(schema.pick({ count: true }), { count: -1 })).toEqual({ count: 'At least 0' });
  });

  it('speaks the language of the console when given its words', () => {
    const schema = z.object({ comment: z.string().max(4000), ids: z.array(z.string()).min(2), missing: z.string() });
    expect(messagesOf(schema, { comment: 'y'.repeat(4001), ids: [] }, {}, german)).toEqual({
      comment: 'Höchstens 4.000 Zeichen',
      ids: 'Wählen Sie mindestens 2 Optionen',
      missing: 'Pflichtfeld',
    });
  });
});
