import { describe, expect, it } from 'vitest';
import { actionTargetOf, webhookActionTypes } from '@/server/modules/webhooks/webhooks.schemas';
import {
  actionFamilies,
  actionFormValues,
  actionParamsOf,
  basesOf,
  composeAction,
  createBody,
  decomposeAction,
  enabledBody,
  firstChoiceOf,
  needsInternalDatasource,
  newActionValues,
  paramFieldsOf,
  paramIssues,
  targetingsOf,
  updateBody,
} from './webhook-action-form';

describe('choosing an action type', () => {
  it('reaches every action type of spec 3 from exactly one family, base and targeting', () => {
    const reached = actionFamilies.flatMap((family) =>
      basesOf(family).flatMap((base) => targetingsOf(family).map((targeting) => composeAction({ family, base, targeting }))),
    );
    expect([...reached].sort()).toEqual([...webhookActionTypes].sort());
  });

  it('takes every action type apart into the choice it is made of', () => {
    for (const type of webhookActionTypes) expect(composeAction(decomposeAction(type)!), type).toBe(type);
    expect(decomposeAction('ENABLE_EMERGENCY_ON_DEVICE_GROUP')).toEqual({
      family: 'device',
      base: 'ENABLE_EMERGENCY_ON_DEVICE',
      targeting: 'GROUP',
    });
    expect(decomposeAction('CHANGE_PRIORITY_CAMPAIGN_BY_TAGS')).toEqual({
      family: 'campaign',
      base: 'CHANGE_PRIORITY_CAMPAIGN',
      targeting: 'BY_TAGS',
    });
    expect(decomposeAction('LAUNCH_ROCKET')).toBeUndefined();
  });

  it('refuses a base of another family or a targeting the family does not have', () => {
    expect(composeAction({ family: 'datasource', base: 'RESTART_DEVICE', targeting: 'NONE' })).toBeUndefined();
    expect(composeAction({ family: 'device', base: 'RESTART_DEVICE', targeting: 'BY_TAGS' })).toBeUndefined();
    expect(composeAction({ family: 'campaign', base: 'ENABLE_CAMPAIGN', targeting: 'GROUP' })).toBeUndefined();
  });

  it('starts a family at its first action and targeting', () => {
    expect(composeAction(firstChoiceOf('device'))).toBe('ENABLE_EMERGENCY_ON_DEVICE');
    expect(composeAction(firstChoiceOf('campaign'))).toBe('ENABLE_CAMPAIGN');
    expect(composeAction(firstChoiceOf('folder'))).toBe('FORCE_SYNC_SHARED_FOLDER');
  });
});

describe('parameters', () => {
  it('asks each type for what the executor reads', () => {
    expect(paramFieldsOf('LOAD_URL_ON_DEVICE_TAG').map((f) => f.key)).toEqual(['url']);
    expect(paramFieldsOf('CHANGE_VOLUME_DEVICE_ALL')).toEqual([{ key: 'volumeLevel', kind: 'integer', min: 0, max: 100 }]);
    expect(paramFieldsOf('INCREASE_VALUE_IN_DATASOURCE').map((f) => f.key)).toEqual(['keySelector', 'minimumValue', 'maximumValue']);
    expect(paramFieldsOf('UPLOAD_FILE_TO_FOLDER').map((f) => f.key)).toEqual(['url', 'name']);
    expect(paramFieldsOf('ASSIGN_CONTENT_ON_DEVICE_GROUP')).toEqual([{ key: 'contentId', kind: 'content' }]);
    expect(paramFieldsOf('RESTART_DEVICE')).toEqual([]);
  });

  it('offers only INTERNAL datasources to the actions that write their data', () => {
    expect(needsInternalDatasource('SET_INTERNAL_DATASOURCE')).toBe(true);
    expect(needsInternalDatasource('ROTATE_ARRAY_INTERNAL_DATASOURCE')).toBe(true);
    expect(needsInternalDatasource('INCREASE_VALUE_IN_DATASOURCE')).toBe(true);
    expect(needsInternalDatasource('REFRESH_DATASOURCE')).toBe(false);
    expect(needsInternalDatasource('INSERT_CAP_DATASOURCE')).toBe(false);
  });

  it('leaves an empty parameter to the payload and checks the filled ones', () => {
    expect(paramIssues('CHANGE_VOLUME_DEVICE', { volumeLevel: '' })).toEqual([]);
    expect(paramIssues('CHANGE_VOLUME_DEVICE', { volumeLevel: '101' })).toEqual([{ key: 'volumeLevel', problem: 'max', min: 0, max: 100 }]);
    expect(paramIssues('CHANGE_VOLUME_DEVICE', { volumeLevel: '5.5' })[0]?.problem).toBe('integer');
    expect(paramIssues('LOAD_URL_ON_DEVICE', { url: 'ftp://example.com' })[0]?.problem).toBe('url');
    expect(paramIssues('LOAD_URL_ON_DEVICE', { url: 'https://example.com/menu' })).toEqual([]);
    expect(paramIssues('SET_INTERNAL_DATASOURCE', { data: '{"a":' })[0]?.problem).toBe('json');
    expect(paramIssues('CHANGE_SATURATION_CAMPAIGN', { saturation: 'lots' })[0]?.problem).toBe('number');
    // A parameter another type reads is not this one's problem.
    expect(paramIssues('RESTART_DEVICE', { volumeLevel: 'loud' })).toEqual([]);
  });

  it("saves the type's filled parameters and an API caller's own keys, not another type's", () => {
    expect(actionParamsOf('SHOW_TOAST_MESSAGE_DEVICE', { message: ' Hi ', url: 'https://x.test', shift: 'night' })).toEqual({
      message: 'Hi',
      shift: 'night',
    });
    expect(actionParamsOf('RESTART_DEVICE', { url: 'https://x.test' })).toBeNull();
  });
});

describe('bodies', () => {
  const values = {
    ...newActionValues(['team-1']),
    name: ' Emergency ',
    eventId: 'fire-alarm ',
    family: 'device' as const,
    base: 'ENABLE_EMERGENCY_ON_DEVICE' as const,
    targeting: 'GROUP' as const,
    targetIds: ['folder-1'],
  };

  it('creates with the composed type, the targets and the teams', () => {
    expect(createBody(values)).toEqual({
      name: 'Emergency',
      eventId: 'fire-alarm',
      enabled: false,
      action: 'ENABLE_EMERGENCY_ON_DEVICE_GROUP',
      actionParams: null,
      targetData: { targetIds: ['folder-1'] },
      teamIds: ['team-1'],
    });
    expect(createBody({ ...values, targeting: 'ALL' })).not.toHaveProperty('targetData');
  });

  it('updates every attribute together, clearing the targets of an action that has none', () => {
    expect(updateBody({ ...values, enabled: true })).toMatchObject({ enabled: true, targetData: { targetIds: ['folder-1'] } });
    expect(updateBody({ ...values, targeting: 'ALL' })?.targetData).toEqual({ targetIds: [] });
  });

  it("switches with the action's name, type and parameters, keeping targets and event id", () => {
    const saved = { id: 1, name: 'Toast', action: 'SHOW_TOAST_MESSAGE_DEVICE_ALL', actionParams: { message: 'Hi' }, eventId: 'x' };
    expect(enabledBody(saved, true)).toEqual({
      name: 'Toast',
      action: 'SHOW_TOAST_MESSAGE_DEVICE_ALL',
      enabled: true,
      actionParams: { message: 'Hi' },
    });
    expect(enabledBody({ name: 'Odd', action: 'LAUNCH_ROCKET' }, true)).toBeUndefined();
  });

  it("reads a saved tag action's `tag` parameter as tags", () => {
    const form = actionFormValues({
      name: 'Lobby',
      eventId: 'lobby',
      action: 'RESTART_DEVICE_TAG',
      actionParams: { tag: 'lobby, hall', note: 'kept' },
      targetData: { targetIds: ['lobby'] },
    });
    expect(form).toMatchObject({ family: 'device', targeting: 'TAG', targetIds: ['lobby', 'hall'], params: { note: 'kept' } });
    expect(actionTargetOf(updateBody(form)!.action)).toBe('tag');
    expect(updateBody(form)).toMatchObject({ actionParams: { note: 'kept' }, targetData: { targetIds: ['lobby', 'hall'] } });
  });
});
