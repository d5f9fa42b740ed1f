import { describe, expect, it } from 'vitest';
import { CampaignCreateSchema, CampaignUpdateSchema } from './campaigns.schemas';

const uuid = '0190f5a4-0000-7000-8000-000000000001';
const base = { name: 'x', level: 'WIDGET', version: '2.0' };
const paths = (body: unknown) => {
  const parsed = CampaignCreateSchema.safeParse(body);

  return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join('.'));
};

describe('CampaignCreateSchema', () => {
  it('accepts each type with its required fields and treats nulls as absent', () => {
    expect(
      paths({
        ...base,
        type: 'CONTENT',
        contentShuffleMode: 'BALANCED',
        contentAssignment: { assignments: [{ contentId: uuid }] },
        validTo: null,
      }),
    ).toEqual([]);
    expect(paths({ ...base, type: 'ASSET_QUICK_FILTER', fileQuickFilterId: uuid, defaultDuration: 3, orderingMode: 'DEFAULT' })).toEqual(
      [],
    );
  });

  it('names the missing fields of the type, the level and the device selection', () => {
    expect(paths({ ...base, type: 'ASSETS_STATIC' }).sort()).toEqual(['defaultDuration', 'fileAssignment', 'orderingMode']);
    expect(
      paths({
        ...base,
        level: 'TOP',
        type: 'CONTENT',
        contentShuffleMode: 'SERIAL',
        contentAssignment: { assignments: [{ contentId: uuid }] },
      }),
    ).toEqual(['affectedDateRanges']);
    expect(
      paths({
        ...base,
        type: 'MESSAGE_GROUP',
        contentShuffleMode: 'SERIAL',
        messageGroupAssignment: { assignments: [{ messageGroupId: 1 }] },
        deviceSelectionMode: 'STATIC',
      }),
    ).toEqual(['deviceAssignment']);
  });

  it('refuses the types the service does not create, a version other than 2.0 and dates in the wrong order', () => {
    expect(paths({ ...base, type: 'DSP_X_MEDIA' })).toEqual(['type']);
    expect(paths({ ...base, type: 'SIMPLE_LOOP' })).toEqual(['type']);
    expect(
      paths({
        ...base,
        version: '1.0',
        type: 'MESSAGE_GROUP',
        contentShuffleMode: 'SERIAL',
        messageGroupAssignment: { assignments: [{ messageGroupId: 1 }] },
      }),
    ).toEqual(['version']);
    expect(
      paths({
        ...base,
        type: 'MESSAGE_GROUP',
        contentShuffleMode: 'SERIAL',
        messageGroupAssignment: { assignments: [{ messageGroupId: 1 }] },
        validFrom: '2026-03-02',
        validTo: '2026-03-01',
      }),
    ).toEqual(['validTo']);
  });
});

describe('CampaignUpdateSchema', () => {
  it('drops nulls, keeps reset flags and lets type and deviceSelectionMode through unchecked', () => {
    const parsed = CampaignUpdateSchema.parse({ name: null, resetValidTo: true, type: 'WHATEVER', deviceSelectionMode: 1 });
    expect(parsed).toEqual({ resetValidTo: true, type: 'WHATEVER', deviceSelectionMode: 1 });
  });
});
