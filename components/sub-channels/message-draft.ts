import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import {
  assignmentChanges,
  changedFields,
  createAssignments,
  draftOf,
  emptyDraft,
  sharedRuleFields,
  typeUses,
  type ChannelDraft,
} from '@/components/channels/channel-draft';
import type { Campaign } from '@/lib/api/campaigns';
import type { Message, MessageType } from '@/lib/api/messages';
import { useLabel } from '@/lib/i18n/labels';
import { messageTypeValues } from '@/server/modules/messages/messages.schemas';

export function isMessageType(type: string | undefined): type is MessageType {
  return (messageTypeValues as readonly string[]).includes(type ?? '');
}

/*
 * A sub-channel (message) in the editor: the channel editor's draft (its item lists, targeting and date ranges
 * are the same shapes, spec 2 "Messages use the same device-targeting and assignment fields as campaigns") plus
 * `capped`. What differs is on the wire: one `contentId` instead of a content list, `saturation` as items per
 * turn, no days/hours, playback slots, tags or advertiser; `resetValidFrom`/`resetValidTo` clear the dates.
 */

export type MessageDraft = ChannelDraft & { capped: boolean };

/** The channel types a sub-channel may have, in the channel types' order. */
export const MESSAGE_TYPES: readonly MessageType[] = messageTypeValues;

/** A sub-channel type's name and hint: as for channels, but CONTENT plays one content, not a list. */
export function useMessageTypeWords() {
  const t = useTranslations('subChannels.type');
  const channels = useTranslations('channels.typeHint');
  const label = useLabel();

  return useMemo(
    () => ({
      label: (type: string | undefined) => (type === 'CONTENT' ? t('content') : label('channelType', type)),
      hint: (type: MessageType) => (type === 'CONTENT' ? t('contentHint') : channels(type)),
    }),
    [t, channels, label],
  );
}

export function emptyMessageDraft(): MessageDraft {
  return { ...emptyDraft(), saturation: '1', defaultDuration: '', capped: true };
}

/** The editor's state of a saved message (the single read, with its assignment lists). */
export function messageDraftOf(m: Message): MessageDraft {
  const base = draftOf({ ...m, type: m.type, teamAccessList: m.teamAccessList } as Campaign);

  return {
    ...base,
    contents: m.contentId ? [{ id: m.contentId, name: m.contentName ?? m.contentId }] : [],
    saturation: m.saturation == null ? '1' : String(m.saturation),
    capped: m.isPlayedElementsCappedByItemCount !== false,
  };
}

const intOrUndefined = (v: string) => (v.trim() === '' ? undefined : Number(v));

/** The fields a create and an update share (undefined: not sent). */
function settings(d: MessageDraft) {
  const uses = typeUses(d.type);

  return {
    ...sharedRuleFields(d),
    isPlayedElementsCappedByItemCount: d.capped,
    contentId: uses.contents ? d.contents[0]?.id : undefined,
    defaultDuration: uses.defaultDuration ? intOrUndefined(d.defaultDuration) : undefined,
  };
}

/** POST /api/message: the group, the type and the device selection (both immutable), and what the type plays. */
export function messageCreateBody(d: MessageDraft, messageGroupId: number): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...settings(d),
    version: '2.0',
    messageGroupId,
    type: d.type,
    deviceSelectionMode: d.mode,
    ...createAssignments(d, ['contents', 'messageGroups']),
  };

  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

/** PUT /api/message/{id}: what changed; additions and `removeIds` per list; `reset*` for emptied dates. */
export function messageUpdateBody(initial: MessageDraft, d: MessageDraft): Record<string, unknown> {
  const before = settings(initial);
  const after = settings(d);
  const body = changedFields(before, after);
  if (before.validFrom !== undefined && after.validFrom === undefined) body.resetValidFrom = true;
  if (before.validTo !== undefined && after.validTo === undefined) body.resetValidTo = true;

  return { ...body, ...assignmentChanges(initial, d, ['contents', 'messageGroups']) };
}

/** The form field an API issue path names (`contentId` → the content list). */
export function messageFieldOf(path: string): string {
  if (path === 'contentId') return 'contents';
  if (path === 'resetValidFrom') return 'validFrom';
  if (path === 'resetValidTo') return 'validTo';

  return path;
}
