import type { Segment } from '@/server/modules/display/display.schemas';

/** The layers of what a screen plays (spec 4 §4), highest first, as the console names them everywhere. */
export const LAYER_LABELS: Record<Segment['layer'], string> = {
  EMERGENCY: 'Emergency',
  SCHEDULE: 'Schedule',
  CONTENT: 'Assigned content',
  CHANNELS: 'Channels',
  NONE: 'Nothing to play',
};

/** One sentence on how channels, sub-channels, schedules and emergencies relate (on each of their pages). */
export const LAYERS_SENTENCE =
  'Channels share a screen’s time by weight during their hours, a message-group channel plays its sub-channels in turn, a schedule replaces every channel while it runs, and an emergency replaces everything.';
