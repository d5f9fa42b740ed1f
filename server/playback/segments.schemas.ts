import { z } from '@hono/zod-openapi';
import { epochMs, intId } from '@/server/http/wire.schemas';

/*
 * What the playback engine answers for a screen's timeline (segments.ts): the wire shapes of the player's and the
 * console's calendars. The display module's schemas re-export them.
 */

export const SEGMENT_LAYERS = ['EMERGENCY', 'SCHEDULE', 'CONTENT', 'CHANNELS', 'NONE'] as const;

export const SegmentContentSchema = z
  .object({ id: z.string().uuid(), name: z.string(), deviceContentType: z.enum(['content', 'simpleLoop']) })
  .openapi('SegmentContent');

const PlayItemSchema = z
  .object({
    type: z.enum(['FILE', 'CONTENT', 'MESSAGE']),
    id: z.string(),
    name: z.string(),
    durationMs: z.number().int().min(0),
    messageId: intId.optional().openapi({ description: 'The sub-channel (message) the item comes from, in a MESSAGE_GROUP channel' }),
  })
  .openapi('PlayItem');

const ChannelPlaySchema = z
  .object({
    campaignId: intId,
    name: z.string(),
    weight: z.number(),
    saturation: z.number().openapi({ description: 'Share of screen time among the channels a widget plays' }),
    tags: z.array(z.string()),
    items: z.array(PlayItemSchema).openapi({ description: 'In play order' }),
    playbackSlot: z
      .object({ items: z.number().int().min(1).optional(), durationMs: z.number().int().min(1).optional() })
      .optional()
      .openapi({ description: 'Bounds of one turn of the channel: at most `items` items and `durationMs` (absent: no bound)' }),
  })
  .openapi('ChannelPlay');

/** An id and a name (a schedule, a channel). */
export const namedRef = z.object({ id: intId, name: z.string() });

export const SegmentSchema = z
  .object({
    from: epochMs.openapi({ description: 'Start (inclusive)' }),
    to: epochMs.openapi({ description: 'End (exclusive)' }),
    layer: z.enum(SEGMENT_LAYERS),
    content: SegmentContentSchema.optional(),
    schedule: namedRef.optional().openapi({
      description:
        "On the SCHEDULE layer: the schedule (campaign level TOP) that plays; beyond the spec's Segment, so a folder's calendar can name a schedule set on a sub-folder",
    }),
    channels: z
      .array(ChannelPlaySchema)
      .openapi({ description: 'Channels (campaigns level WIDGET) eligible during the segment, by weight then id' }),
  })
  .openapi('Segment');

export type Segment = z.infer<typeof SegmentSchema>;
export type ChannelPlay = z.infer<typeof ChannelPlaySchema>;
