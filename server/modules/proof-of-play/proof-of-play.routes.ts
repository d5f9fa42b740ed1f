import { z } from '@hono/zod-openapi';
import { ErrorSchema } from '@/server/http/errors';
import { json } from '@/server/http/list-query';
import { defineRoute } from '@/server/http/route';
import { MAX_PLAY_EVENTS, PlayEventsBodySchema, PlayEventsResultSchema } from './proof-of-play.schemas';

const error = (description: string) => ({ description, ...json(ErrorSchema) });

/** 10 000 events of a few hundred bytes each, with room to spare. */
export const PLAY_EVENTS_MAX_BYTES = 8 * 1024 * 1024;

export const uploadPlayEventsRoute = defineRoute(
  { device: 'assigned' },
  {
    method: 'post',
    path: '/api/display/proofOfPlay',
    operationId: 'uploadPlayEvents',
    tags: ['Player'],
    summary: 'Report plays (proof of play)',
    description:
      `A JSON array or \`application/x-ndjson\` (one PlayEvent a line) of at most ${MAX_PLAY_EVENTS} events. Each is checked on its own: ` +
      '`endedAt` before `startedAt`, a play over 24 h, `startedAt` more than 5 minutes ahead or more than a year back, and ids of ' +
      'another customer refuse that event (listed in `rejected` with its index and reason); the rest are stored. An event id this ' +
      'device reported before (or twice in the call) counts once, under `duplicates`. Plays stay reportable after what they name is deleted. ' +
      'No body stores nothing (an empty batch).',
    request: {
      body: {
        required: false,
        content: {
          'application/json': { schema: PlayEventsBodySchema },
          'application/x-ndjson': { schema: z.string().openapi({ description: 'One PlayEvent (JSON) a line' }) },
        },
      },
    },
    responses: {
      202: { description: 'What was stored, counted twice, or refused', ...json(PlayEventsResultSchema) },
      400: error(`Not a JSON array or NDJSON, or more than ${MAX_PLAY_EVENTS} events`),
      401: error('Missing, unknown or expired device token, a user token, a deleted device, or a restricted customer'),
      403: error('`display.error.notAssigned`: the device is not assigned to a customer yet'),
      413: error('Larger than 8 MiB'),
      415: error('Neither application/json nor application/x-ndjson'),
    },
  },
  { bodyLimit: PLAY_EVENTS_MAX_BYTES },
);
