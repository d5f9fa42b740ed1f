import type { Segment } from '@/server/modules/display/display.schemas';

/** The layers of what a screen plays (spec 4 §4), highest first, as the console names them everywhere. */
export const LAYER_LABELS: Record<Segment['layer'], string> = {
  EMERGENCY: 'Emergency',
  SCHEDULE: 'Schedule',
  CONTENT: 'Assigned content',
  CHANNELS: 'Channels',
  NONE: 'Nothing to play',
};

