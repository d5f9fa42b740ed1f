import { describe, expect, it } from 'vitest';
import { CampaignCreateSchema, CampaignUpdateSchema } from '@/server/modules/campaigns/campaigns.schemas';
import { bodyIssues, createBody, draftFieldOf, draftOf, emptyDraft, updateBody, type ChannelDraft } from './channel-draft';
import { hourPlays } from './channel-when';

const draft = (patch: Partial<ChannelDraft>): ChannelDraft => ({ ...emptyDraft(), name: 'Lobby', ...patch });
const ENTER_NAME = 'Enter a name';

describe('createBody', () => {
  it("sends the type's items, the device folders and the playback slot of the spec's mapping", () => {
    const body = createBody(
      draft({
        contents: [
          { id: 'a', name: 'A' },
          { id: 'b', name: 'B' },
        ],
        deviceFolders: [{ id: 'f', name: 'F' }],
        slot: 'n',
        slotCount: '3',
        files: [{ id: 'x', name: 'X' }],
      }),
    );
    expect(body).toMatchObject({
      level: 'WIDGET',
      type: 'CONTENT',
      version: '2.0',
      deviceSelectionMode: 'DYNAMIC',
      contentShuffleMode: 'SERIAL',
      contentAssignment: {
        assignments: [
          { contentId: 'a', weight: 1 },
          { contentId: 'b', weight: 2 },
        ],
      },
      deviceGroupAssignment: { assignments: [{ deviceGroupId: 'f' }] },
      playMultipleItemsInSinglePlaybackSlot: true,
      playAllItemsInSinglePlaybackSlot: false,
      playbackSlotNumberOfElementsToPlay: 3,
    });
    // Files belong to another type; ordering is not a CONTENT field.
    expect(body).not.toHaveProperty('fileAssignment');
    expect(body).not.toHaveProperty('orderingMode');
    expect(createBody(draft({ slot: 'all' }))).toMatchObject({
      playMultipleItemsInSinglePlaybackSlot: true,
      playAllItemsInSinglePlaybackSlot: true,
    });
    expect(createBody(draft({ slot: 'one' }))).toMatchObject({ playMultipleItemsInSinglePlaybackSlot: false });
  });

  it('a bounded window carries its zone; all day carries none unless chosen', () => {
    expect(createBody(draft({ allDay: false, from: '22:00', end: '02:00', hoursZone: 'Europe/Berlin' })).affectedHours).toEqual({
      allDay: false,
      from: '22:00',
      end: '02:00',
      timeZone: 'Europe/Berlin',
    });
    expect(createBody(draft({})).affectedHours).toEqual({ allDay: true });
  });
});

describe('item tag conditions and played-asset teams', () => {
  it('a dynamic type sends its item tag condition; every item-reading type its played-asset teams', () => {
    const contentFolder = createBody(
      draft({
        type: 'CONTENT_DYNAMIC',
        contentFolders: [{ id: 'g', name: 'G' }],
        contentTags: ['menu'],
        contentTagOperator: 'AND',
        playedAssetTeamIds: ['t'],
      }),
    );
    expect(contentFolder).toMatchObject({
      contentTagCondition: { tags: ['menu'], operator: 'AND' },
      playedAssetTeamAccessList: { teams: [{ id: 't' }] },
    });
    expect(contentFolder).not.toHaveProperty('fileTagCondition');
    const mediaFolder = createBody(draft({ type: 'ASSETS_DYNAMIC', fileFolders: [{ id: 'd', name: 'D' }], fileTags: ['winter'] }));
    expect(mediaFolder).toMatchObject({ fileTagCondition: { tags: ['winter'], operator: 'OR' } });
    expect(mediaFolder).not.toHaveProperty('contentTagCondition');
    expect(createBody(draft({}))).not.toHaveProperty('contentTagCondition');
  });

  it('reads them back and sends a change only', () => {
    const saved = draftOf({
      id: 8,
      name: 'Menus',
      type: 'CONTENT_DYNAMIC',
      contentTagCondition: { tags: ['menu'], operator: 'AND' },
      playedAssetTeamAccessList: { teams: [{ id: 't', readOnly: false }] },
      contentGroupAssignments: [{ id: 'g', name: 'G' }],
    });
    expect(saved).toMatchObject({ contentTags: ['menu'], contentTagOperator: 'AND', playedAssetTeamIds: ['t'] });
    expect(updateBody(saved, saved)).toEqual({});
    expect(updateBody(saved, { ...saved, contentTags: [], playedAssetTeamIds: [] })).toEqual({
      contentTagCondition: { tags: [], operator: 'AND' },
      playedAssetTeamAccessList: { teams: [] },
    });
  });
});

describe('updateBody', () => {
  const saved = draftOf({
    id: 7,
    name: 'Lobby',
    type: 'CONTENT',
    enabled: true,
    validTo: Date.UTC(2030, 0, 31),
    defaultDuration: 12,
    playbackSlotDuration: 60,
    contentAssignments: [
      { id: 'a', name: 'A', weight: 1 },
      { id: 'b', name: 'B', weight: 2 },
    ],
    deviceGroupAssignments: [{ id: 'f', name: 'F' }],
    deviceSelectionMode: 'DYNAMIC',
  });

  it('sends nothing when nothing changed', () => {
    expect(updateBody(saved, saved)).toEqual({});
  });

  it('adds and removes assignments additively, and resets cleared values', () => {
    const body = updateBody(saved, {
      ...saved,
      contents: [saved.contents[0]!, { id: 'c', name: 'C' }],
      deviceFolders: [],
      validTo: '',
      defaultDuration: '',
      slotDuration: '',
    });
    expect(body).toEqual({
      contentAssignment: { assignments: [{ contentId: 'c', weight: 2 }], removeIds: ['b'] },
      deviceGroupAssignment: { assignments: [], removeIds: ['f'] },
      resetValidTo: true,
      resetDefaultDuration: true,
      resetPlaybackSlotDuration: true,
    });
  });

  it('tags replace, a cleared advertiser or item cap is reset', () => {
    const withMore = { ...saved, tags: ['lobby'], advertiserId: 'adv', duration: '20' };
    expect(updateBody(saved, withMore)).toEqual({ tags: ['lobby'], advertiserId: 'adv', duration: 20 });
    expect(updateBody(withMore, { ...withMore, advertiserId: '', duration: '' })).toEqual({ resetAdvertiserId: true, resetDuration: true });
  });

  it('a new order sends every item with its new weight', () => {
    expect(updateBody(saved, { ...saved, contents: [saved.contents[1]!, saved.contents[0]!] }).contentAssignment).toEqual({
      assignments: [
        { contentId: 'b', weight: 1 },
        { contentId: 'a', weight: 2 },
      ],
      removeIds: [],
    });
  });
});

describe('hourPlays (the week grid)', () => {
  it('a window across midnight belongs to the day it starts on', () => {
    const tuesdayNights = {
      ...emptyDraft(),
      days: { ...emptyDraft().days, monday: false, wednesday: false, thursday: false, friday: false, saturday: false, sunday: false },
      allDay: false,
      from: '22:00',
      end: '02:00',
    };
    expect(hourPlays(tuesdayNights, 1, 22)).toBe(true);
    expect(hourPlays(tuesdayNights, 2, 1)).toBe(true);
    expect(hourPlays(tuesdayNights, 2, 22)).toBe(false);
    expect(hourPlays(tuesdayNights, 1, 1)).toBe(false);
  });
});

describe('playback slot item type, skipDefaultPage and skipInvalidFiles', () => {
  it('sends each only for the types it applies to, and reads it back', () => {
    const content = createBody(
      draft({ contents: [{ id: 'a', name: 'A' }], slotItemType: 'CONTENT_PAGE', skipDefaultPage: true, skipInvalidFiles: true }),
    );
    expect(content).toMatchObject({ playbackSlotItemType: 'CONTENT_PAGE', skipDefaultPage: true });
    expect(content).not.toHaveProperty('skipInvalidFiles');
    const media = createBody(
      draft({ type: 'ASSETS_STATIC', files: [{ id: 'x', name: 'X' }], skipDefaultPage: true, skipInvalidFiles: true }),
    );
    expect(media).toMatchObject({ skipInvalidFiles: true });
    expect(media).not.toHaveProperty('skipDefaultPage');
    expect(media).not.toHaveProperty('playbackSlotItemType');
    const saved = draftOf({ id: 3, name: 'Lobby', type: 'CONTENT', playbackSlotItemType: 'SIMPLE_LOOP_SLIDE', skipDefaultPage: true });
    expect(saved).toMatchObject({ slotItemType: 'SIMPLE_LOOP_SLIDE', skipDefaultPage: true });
    expect(updateBody(saved, { ...saved, slotItemType: 'MESSAGE', skipDefaultPage: false })).toEqual({
      playbackSlotItemType: 'MESSAGE',
      skipDefaultPage: false,
    });
  });
});

describe("bodyIssues: the API's schema checks the body before it is sent", () => {
  it("a valid create passes; bad values are named on the editor's fields", () => {
    expect(
      bodyIssues(
        CampaignCreateSchema,
        createBody(draft({ contents: [{ id: '0192f1e0-0000-7000-8000-000000000001', name: 'A' }] })),
        draftFieldOf,
        ENTER_NAME,
      ),
    ).toEqual({});
    const issues = bodyIssues(
      CampaignCreateSchema,
      createBody(draft({ type: 'ASSETS_STATIC', files: [], defaultDuration: '2', slot: 'n', slotCount: '0', slotDuration: '0' })),
      draftFieldOf,
      ENTER_NAME,
    );
    expect(issues).toMatchObject({
      defaultDuration: 'At least 3',
      slotCount: 'At least 1',
      slotDuration: 'At least 1',
      files: expect.any(String),
    });
  });

  it('an update is checked as an update: only what changed', () => {
    const saved = draftOf({ id: 3, name: 'Lobby', type: 'CONTENT', contentAssignments: [{ id: 'a', name: 'A' }] });
    expect(bodyIssues(CampaignUpdateSchema, updateBody(saved, { ...saved, weight: '4' }), draftFieldOf, ENTER_NAME)).toEqual({});
    expect(bodyIssues(CampaignUpdateSchema, updateBody(saved, { ...saved, saturation: '-1' }), draftFieldOf, ENTER_NAME)).toEqual({
      saturation: 'At least 0',
    });
  });
});
