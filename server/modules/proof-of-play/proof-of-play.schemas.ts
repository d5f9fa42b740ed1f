import { z } from '@hono/zod-openapi';
import { epochMs, intId } from '@/server/http/wire.schemas';

/*
 * Wire shapes of proof of play (spec 4 §5): what a player reports. Times are Unix epoch milliseconds, as
 * everywhere in the player API.
 */

/** Events per call (spec 4 §3). */
export const MAX_PLAY_EVENTS = 10_000;

const count = z.number().int().min(0).max(1_000_000);

export const PlayEventSchema = z
  .object({
    eventId: z.string().uuid().openapi({ description: 'Made by the player; a repeated event of the same device counts once' }),
    startedAt: epochMs.openapi({ description: 'Epoch ms' }),
    endedAt: epochMs.openapi({ description: 'Epoch ms; not before `startedAt`, at most 24 h after it' }),
    completed: z.boolean().openapi({ description: 'The item played to its end' }),
    campaignId: intId.optional().openapi({ description: 'The channel or schedule it played in' }),
    messageId: intId.optional().openapi({ description: 'The sub-channel it played in' }),
    contentId: z.string().uuid().optional(),
    pageId: z.string().min(1).max(256).optional().openapi({ description: 'The page of the content (its name or index)' }),
    widgetKey: z.string().min(1).max(64).optional().openapi({
      description:
        'The slide widget that showed the item (its `id` in the slide: a file, a playlist or a channel widget), or that was shown itself (a datasource widget: the event names nothing else); absent when the item played whole',
    }),
    fileId: z.string().uuid().optional(),
    clicks: count.optional(),
    viewers: count.optional(),
    attentionMs: z.number().int().min(0).max(86_400_000).optional(),
  })
  .openapi('PlayEvent');

export const PlayEventsBodySchema = z
  .array(z.unknown())
  .max(MAX_PLAY_EVENTS)
  .openapi({
    description: `At most ${MAX_PLAY_EVENTS} PlayEvents; each is checked on its own`,
    type: 'array',
    items: { $ref: '#/components/schemas/PlayEvent' },
  });

export const PlayEventsResultSchema = z
  .object({
    accepted: z.number().int().openapi({ description: 'New plays stored' }),
    duplicates: z.number().int().openapi({ description: 'Events this device had reported already (or twice in this call): counted once' }),
    rejected: z
      .array(z.object({ index: z.number().int(), key: z.string(), message: z.string() }))
      .openapi({ description: 'Events refused (the rest are stored): their index in the body and why' }),
  })
  .openapi('PlayEventsResult');

export type PlayEvent = z.infer<typeof PlayEventSchema>;
export type PlayEventsResult = z.infer<typeof PlayEventsResultSchema>;
