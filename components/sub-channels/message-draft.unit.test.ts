import { describe, expect, it } from 'vitest';
import { bodyIssues } from '@/components/channels/channel-draft';
import { MessageCreateSchema, MessageUpdateSchema } from '@/server/modules/messages/messages.schemas';
import {
  emptyMessageDraft,
  messageCreateBody,
  messageDraftOf,
  messageFieldOf,
  messageUpdateBody,
  type MessageDraft,
} from './message-draft';

const draft = (patch: Partial<MessageDraft>): MessageDraft => ({ ...emptyMessageDraft(), name: 'Ticker', ...patch });

describe('messageCreateBody', () => {
  it('sends each type with what names its items, never the campaign-only fields', () => {
    const content = messageCreateBody(draft({ type: 'CONTENT', contents: [{ id: 'c', name: 'C' }] }), 4);
    expect(content).toMatchObject({
      name: 'Ticker',
      version: '2.0',
      messageGroupId: 4,
      type: 'CONTENT',
      deviceSelectionMode: 'DYNAMIC',
      contentId: 'c',
      saturation: 1,
      isPlayedElementsCappedByItemCount: true,
    });
    for (const field of [
      'contentAssignment',
      'affectedHours',
      'affectedDays',
      'tags',
      'playbackSlotDuration',
      'playMultipleItemsInSinglePlaybackSlot',
      'level',
    ])
      expect(content).not.toHaveProperty(field);

    expect(messageCreateBody(draft({ type: 'CONTENT_DYNAMIC', contentFolders: [{ id: 'g', name: 'G' }] }), 4)).toMatchObject({
      contentGroupAssignment: { assignments: [{ contentGroupId: 'g' }] },
      orderingMode: 'DEFAULT',
    });
    expect(
      messageCreateBody(
        draft({
          type: 'ASSETS_STATIC',
          files: [
            { id: 'f1', name: 'F1' },
            { id: 'f2', name: 'F2' },
          ],
          defaultDuration: '8',
        }),
        4,
      ),
    ).toMatchObject({
      fileAssignment: {
        assignments: [
          { fileId: 'f1', weight: 1 },
          { fileId: 'f2', weight: 2 },
        ],
      },
      defaultDuration: 8,
    });
    expect(messageCreateBody(draft({ type: 'ASSETS_DYNAMIC', fileFolders: [{ id: 'd', name: 'D' }] }), 4)).toMatchObject({
      fileFolderAssignment: { assignments: [{ fileFolderId: 'd' }] },
    });
    expect(messageCreateBody(draft({ type: 'CONTENT_QUICK_FILTER', contentQuickFilterId: 'q' }), 4)).toMatchObject({
      contentQuickFilterId: 'q',
    });
    expect(messageCreateBody(draft({ type: 'ASSET_QUICK_FILTER', fileQuickFilterId: 'r' }), 4)).toMatchObject({ fileQuickFilterId: 'r' });
  });

  it('sends the targeting and the date ranges', () => {
    const body = messageCreateBody(
      draft({
        contents: [{ id: 'c', name: 'C' }],
        deviceFolders: [{ id: 'f', name: 'F' }],
        deviceTags: ['lobby'],
        tagOperator: 'AND',
        teamIds: ['t'],
        ranges: [{ from: '2026-12-24', to: '2026-12-26', isExcluded: true }],
      }),
      4,
    );
    expect(body).toMatchObject({
      deviceGroupAssignment: { assignments: [{ deviceGroupId: 'f' }] },
      deviceTagCondition: { tags: ['lobby'], operator: 'AND' },
      teamAccessList: { teams: [{ id: 't' }] },
      affectedDateRanges: { intervals: [{ from: '2026-12-24', to: '2026-12-26', isExcluded: true }] },
    });
    expect(messageCreateBody(draft({ mode: 'STATIC', devices: [{ id: 's', name: 'S' }] }), 4)).toMatchObject({
      deviceSelectionMode: 'STATIC',
      deviceAssignment: { assignments: [{ deviceId: 's' }] },
    });
  });
});

describe('messageUpdateBody', () => {
  const saved = messageDraftOf({
    id: 9,
    name: 'Ticker',
    type: 'ASSETS_STATIC',
    saturation: 0,
    validFrom: Date.UTC(2026, 11, 1),
    validTo: Date.UTC(2026, 11, 31),
    fileAssignments: [
      { id: 'f1', name: 'F1', weight: 1 },
      { id: 'f2', name: 'F2', weight: 2 },
    ],
    deviceSelectionMode: 'DYNAMIC',
  });

  it('reads a saved message back', () => {
    expect(saved).toMatchObject({
      type: 'ASSETS_STATIC',
      saturation: '0',
      validFrom: '2026-12-01',
      validTo: '2026-12-31',
      files: [{ id: 'f1' }, { id: 'f2' }],
      capped: true,
    });
  });

  it('sends only what changed, list changes additively, and resets emptied dates', () => {
    expect(messageUpdateBody(saved, saved)).toEqual({});
    const body = messageUpdateBody(saved, {
      ...saved,
      name: 'News',
      validTo: '',
      files: [
        { id: 'f2', name: 'F2' },
        { id: 'f3', name: 'F3' },
      ],
    });
    expect(body).toEqual({
      name: 'News',
      resetValidTo: true,
      fileAssignment: {
        assignments: [
          { fileId: 'f2', weight: 1 },
          { fileId: 'f3', weight: 2 },
        ],
        removeIds: ['f1'],
      },
    });
    expect(messageUpdateBody(saved, { ...saved, capped: false })).toEqual({ isPlayedElementsCappedByItemCount: false });
  });
});

describe("the API's own schemas check the editor's bodies before they are sent", () => {
  it('a valid create passes; a bad value is named on its editor field', () => {
    const valid = draft({ type: 'CONTENT', contents: [{ id: '0192f1e0-0000-7000-8000-000000000001', name: 'C' }] });
    expect(bodyIssues(MessageCreateSchema, messageCreateBody(valid, 4), messageFieldOf, 'Enter a name')).toEqual({});
    expect(bodyIssues(MessageCreateSchema, messageCreateBody({ ...valid, saturation: '-1' }, 4), messageFieldOf, 'Enter a name')).toEqual({
      saturation: 'At least 0',
    });
    const saved = { ...valid, validFrom: '2026-12-01T00:00' };
    expect(bodyIssues(MessageUpdateSchema, messageUpdateBody(saved, { ...saved, weight: '2' }), messageFieldOf, 'Enter a name')).toEqual(
      {},
    );
  });
});
