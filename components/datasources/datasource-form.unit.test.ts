import { describe, expect, it } from 'vitest';
import type { Datasource } from '@/lib/api/datasources';
import {
  createBodyOf,
  formFieldOf,
  formIssues,
  formValuesOf,
  newFormValues,
  structureOf,
  updateBodyOf,
  type DatasourceFormValues,
} from './datasource-form';

const form = (patch: Partial<DatasourceFormValues>): DatasourceFormValues => ({
  ...newFormValues('Europe/Berlin'),
  name: 'Menu',
  ...patch,
});
const external = (patch: Partial<DatasourceFormValues>) =>
  form({ sourceType: 'EXTERNAL', remoteUrl: 'https://example.com/feed', ...patch });

describe('the create body', () => {
  it('sends an internal datasource with its structure and nothing of the other kinds', () => {
    expect(createBodyOf(form({ structureType: 'LIST', editableByDisplay: true, remoteUrl: 'https://left.over' }))).toEqual({
      name: 'Menu',
      sourceType: 'INTERNAL',
      structureType: 'LIST',
      editableByDisplay: true,
    });
  });

  it('sends the tags when there are any, and replaces them on an update (an emptied list clears them)', () => {
    expect(createBodyOf(form({ tags: ['lobby', 'menu'] }))).toMatchObject({ tags: ['lobby', 'menu'] });
    expect(createBodyOf(form({}))).not.toHaveProperty('tags');
    const stored = { id: 'd1', name: 'Menu', sourceType: 'INTERNAL', structureType: 'KEY_VALUE', tags: ['lobby'] } as Datasource;
    expect(formValuesOf(stored, 'UTC').tags).toEqual(['lobby']);
    expect(updateBodyOf({ ...formValuesOf(stored, 'UTC'), tags: [] }, stored).tags).toEqual([]);
  });

  it('gives RSS, CAP and iCal their own structure whatever was chosen, and lets JSON keep the chosen one', () => {
    expect(structureOf(external({ type: 'RSS', structureType: 'TABLE' }))).toBe('FEED');
    expect(structureOf(external({ type: 'CAP', structureType: 'TABLE' }))).toBe('FEED');
    expect(structureOf(external({ type: 'ICAL', structureType: 'TABLE' }))).toBe('LIST');
    expect(structureOf(external({ type: 'WEBSITE_CONTENT', structureType: 'TABLE' }))).toBe('KEY_VALUE');
    expect(structureOf(external({ type: 'JSON', structureType: 'TABLE' }))).toBe('TABLE');
    expect(structureOf(form({ sourceType: 'SYSTEM', systemDatasourceType: 'DEVICES', structureType: 'TABLE' }))).toBe('LIST');
  });

  it('sends a JSON request with its headers, a POST body and the JSONPath, refreshed every N minutes in seconds', () => {
    const body = createBodyOf(
      external({
        type: 'JSON',
        method: 'POST',
        body: '{"q":1}',
        jsonPath: ' $.items ',
        headers: [
          { name: 'Authorization', value: 'Bearer x' },
          { name: '', value: '' },
        ],
        refreshMinutes: '2',
      }),
    );
    expect(body).toMatchObject({
      type: 'JSON',
      remoteUrl: 'https://example.com/feed',
      refreshFrequency: 120,
      requestSettings: { method: 'POST', headers: { Authorization: 'Bearer x' }, body: '{"q":1}', jsonPath: '$.items' },
    });
    expect(body).not.toHaveProperty('keepLastXDays');
  });

  it('sends a cron schedule instead of a frequency', () => {
    const body = createBodyOf(external({ type: 'RSS', refreshMode: 'cron', cronExpression: '0 6 * * 1-5', cronTimeZone: 'UTC' }));
    expect(body.cronExpressionParameters).toEqual({ cronExpression: '0 6 * * 1-5', timeZone: 'UTC' });
    expect(body).not.toHaveProperty('refreshFrequency');
  });

  it('sends a FILES system datasource with its quick filter and limit', () => {
    const id = '0190a6e4-0000-7000-8000-000000000001';
    expect(createBodyOf(form({ sourceType: 'SYSTEM', systemDatasourceType: 'FILES', quickFilterId: id, maxElementCount: '20' }))).toEqual({
      name: 'Menu',
      sourceType: 'SYSTEM',
      structureType: 'LIST',
      systemDatasourceType: 'FILES',
      quickFilterId: id,
      maxElementCount: 20,
    });
  });

  it('sends a FILE_FROM_URL datasource with its folder and key/value structure, and no folder for other types', () => {
    const folderId = '0190a6e4-0000-7000-8000-000000000002';
    expect(createBodyOf(external({ type: 'FILE_FROM_URL', structureType: 'LIST', fileFolderId: folderId }))).toEqual({
      name: 'Menu',
      sourceType: 'EXTERNAL',
      structureType: 'KEY_VALUE',
      type: 'FILE_FROM_URL',
      remoteUrl: 'https://example.com/feed',
      refreshFrequency: 300,
      fileFolderId: folderId,
    });
    expect(createBodyOf(external({ type: 'JSON', fileFolderId: folderId }))).not.toHaveProperty('fileFolderId');
  });
});

describe('the form check', () => {
  it('accepts a complete datasource of each kind', () => {
    expect(formIssues(form({}))).toEqual([]);
    expect(formIssues(external({ type: 'JSON' }))).toEqual([]);
    expect(formIssues(external({ type: 'ICAL' }))).toEqual([]);
    expect(formIssues(external({ type: 'WEBSITE_CONTENT', selectors: [{ name: 'price', selector: '.price', attribute: '' }] }))).toEqual(
      [],
    );
    expect(formIssues(form({ sourceType: 'SYSTEM', systemDatasourceType: 'DEVICES' }))).toEqual([]);
    expect(formIssues(external({ type: 'FILE_FROM_URL', fileFolderId: '0190a6e4-0000-7000-8000-000000000002' }))).toEqual([]);
  });

  it('asks a FILE_FROM_URL datasource for its folder', () => {
    expect(formIssues(external({ type: 'FILE_FROM_URL' }))).toEqual([{ field: 'fileFolderId', reason: 'required' }]);
    expect(formFieldOf(['fileFolderId'])).toBe('fileFolderId');
  });

  it('names the fields an external datasource misses or got wrong, in the console’s reasons', () => {
    expect(formIssues(external({ remoteUrl: '' }))).toContainEqual({ field: 'remoteUrl', reason: 'required' });
    expect(formIssues(external({ remoteUrl: 'ftp://example.com' }))).toContainEqual({ field: 'remoteUrl', reason: 'badUrl' });
    expect(formIssues(external({ refreshMinutes: '0' }))).toContainEqual({ field: 'refreshMinutes', reason: 'range', min: 1, max: 44_640 });
    expect(formIssues(external({ refreshMinutes: '1.5' }))).toContainEqual({ field: 'refreshMinutes', reason: 'wholeNumber' });
    expect(formIssues(external({ refreshMode: 'cron', cronExpression: 'every day' }))).toContainEqual({
      field: 'cronExpression',
      reason: 'badCron',
    });
  });

  it('checks the rows: header names, twice-given names, a selector without its CSS', () => {
    const headers = formIssues(
      external({
        type: 'XML',
        headers: [
          { name: 'X-Key', value: '1' },
          { name: 'x-key', value: '2' },
          { name: 'Bad header', value: '3' },
        ],
      }),
    );
    expect(headers).toContainEqual({ field: 'headers.1.name', reason: 'twice' });
    expect(headers).toContainEqual({ field: 'headers.2.name', reason: 'badHeaderName' });
    expect(formIssues(external({ type: 'WEBSITE_CONTENT', selectors: [{ name: 'price', selector: ' ', attribute: '' }] }))).toContainEqual({
      field: 'selectors.0.selector',
      reason: 'required',
    });
    expect(formIssues(external({ type: 'WEBSITE_CONTENT', selectors: [] }))).toContainEqual({
      field: 'selectors.0.name',
      reason: 'required',
    });
  });

  it('maps the module’s rules onto fields: a FILES datasource needs its quick filter (kindIssues), a long name is too long (schema)', () => {
    expect(formIssues(form({ sourceType: 'SYSTEM', systemDatasourceType: 'FILES' }))).toEqual([
      { field: 'quickFilterId', reason: 'required' },
    ]);
    expect(formIssues(form({ name: 'x'.repeat(256) }))).toEqual([{ field: 'name', reason: 'tooLong', max: 255 }]);
  });

  it('finds the form field of a server issue path', () => {
    expect(formFieldOf(['requestSettings', 'headers', 'X'])).toBe('headers');
    expect(formFieldOf(['refreshFrequency'])).toBe('refreshMinutes');
    expect(formFieldOf(['cronExpressionParameters', 'timeZone'])).toBe('cronTimeZone');
    expect(formFieldOf(['webScraperParameters', 'selectors', '2', 'selector'])).toBe('selectors.2.selector');
    expect(formFieldOf(['capParameters', 'minimumSeverity'])).toBe('minimumSeverity');
    expect(formFieldOf(['somethingElse'])).toBeUndefined();
  });
});

describe('editing', () => {
  const stored: Datasource = {
    id: '0190a6e4-0000-7000-8000-000000000002',
    name: 'News',
    comment: 'Front page',
    sourceType: 'EXTERNAL',
    structureType: 'FEED',
    type: 'RSS',
    remoteUrl: 'https://example.com/rss',
    refreshFrequency: 600,
    cronExpressionParameters: { cronExpression: '0 * * * *', timeZone: 'UTC' },
    keepLastXDays: 7,
    deactivated: true,
  };

  it('reads a stored datasource into the form', () => {
    expect(formValuesOf(stored, 'Europe/Berlin')).toMatchObject({
      name: 'News',
      type: 'RSS',
      refreshMode: 'cron',
      cronExpression: '0 * * * *',
      refreshMinutes: '10',
      keepLastXDays: '7',
      keepLastXItem: '',
      deactivated: true,
    });
  });

  it('sends the settings without the kinds, and clears what the form emptied', () => {
    const values = { ...formValuesOf(stored, 'UTC'), refreshMode: 'frequency' as const, keepLastXDays: '', deactivated: false };
    const body = updateBodyOf(values, stored);
    expect(body).toMatchObject({
      name: 'News',
      comment: 'Front page',
      deactivated: false,
      remoteUrl: 'https://example.com/rss',
      refreshFrequency: 600,
      cronExpressionParameters: '',
      keepLastXDays: '',
      keepLastXItem: '',
    });
    expect(body).not.toHaveProperty('type');
    expect(body).not.toHaveProperty('sourceType');
  });
});
