import { describe, expect, it } from 'vitest';
import { roles } from '@/server/context/roles';
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- the test compares the table with the server's own enum values
import { linkStates } from '@/server/modules/users/password-setup.service';
import { campaignLevelValues, campaignTypeValues, playbackSlotItemTypeValues } from '@/server/modules/campaigns/campaigns.schemas';
import { licenseTiers, verticals } from '@/server/modules/customers/customers.schemas';
import { contentOrientations, deviceContentTypes, structureTypes } from '@/server/modules/content/content.schemas';
import { FIT_MODES, TRANSITIONS, WIDGET_TYPES } from '@/server/modules/content/content-data.schemas';
import { devicePlatforms, deviceStatuses, deviceTypes, licenseStatuses, licenseTypes } from '@/server/modules/devices/devices.schemas';
import { actionCommandNames, commandParams } from '@/server/modules/devices/device-commands.schemas';
import { REASON_CODES, SEGMENT_LAYERS } from '@/server/modules/display/display.schemas';
import { LogEntrySchema, logLevelValues } from '@/server/modules/audit-log/audit-log.schemas';
import { reportGroupings } from '@/server/modules/proof-of-play/reports.schemas';
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- the test compares the table with the server's own enum values
import { reportResolutions } from '@/server/modules/proof-of-play/report-periods';
import { resourceKeys } from '@/server/modules/resource-limits/resource-keys.schemas';
import { tagTypeValues } from '@/server/modules/tags/tags.schemas';
import { filteredEntityTypeValues } from '@/server/modules/quick-filters/quick-filters.schemas';
import {
  capSeverities,
  externalTypes,
  sourceTypes,
  structureTypes as datasourceStructures,
  systemTypes,
} from '@/server/modules/datasources/datasources.schemas';
import { executionOutcomes } from '@/server/modules/webhooks/webhooks.schemas';
import { alertRuleTypes } from '@/server/modules/alerts/alert-rules.schemas';
import { actionBases, actionFamilies, actionTargetings } from '@/components/webhooks/webhook-action-form';
import { SUBJECT_TYPES } from '@/lib/reports/report-params';
import { LANGUAGES } from '@/lib/api/types';
import { licensePayTypes, recurrenceTypes } from '@/server/modules/licences/licences.schemas';
import de from '@/messages/de';
import en from '@/messages/en';
import { labelFrom, type LabelEnum } from './labels';

/** Every enum the console shows, with the values the server's schemas declare. */
const ENUMS: Record<LabelEnum, readonly string[]> = {
  role: roles,
  deviceStatus: deviceStatuses,
  deviceType: deviceTypes,
  devicePlatform: devicePlatforms,
  licenseStatus: licenseStatuses,
  licenseType: licenseTypes,
  licensePayType: licensePayTypes,
  recurrenceType: recurrenceTypes,
  licenseTier: licenseTiers,
  // The batch commands and the one-shot commands of the webhook device actions (both in a screen's history).
  command: [...Object.keys(commandParams), ...actionCommandNames],
  contentType: [...deviceContentTypes, ...structureTypes],
  layer: SEGMENT_LAYERS,
  resolution: reportResolutions,
  groupBy: reportGroupings,
  reportSubject: SUBJECT_TYPES,
  channelType: campaignTypeValues,
  slotItemType: playbackSlotItemTypeValues,
  channelLevel: campaignLevelValues,
  eligibilityReason: REASON_CODES,
  logLevel: logLevelValues,
  actorKind: LogEntrySchema.shape.actorKind.unwrap().options,
  auditAction: ['create', 'update', 'delete'],
  resource: resourceKeys,
  vertical: verticals,
  orientation: [...contentOrientations, 'LANDSCAPE', 'PORTRAIT'],
  transition: TRANSITIONS,
  fit: FIT_MODES,
  widgetType: WIDGET_TYPES,
  fileKind: ['image', 'video', 'audio', 'pdf', 'font', 'json', 'other'],
  language: LANGUAGES.map((l) => l.code),
  linkState: linkStates,
  // What a tag or a quick filter applies to (the quick filter's types are a part of the tag's).
  entityType: [...tagTypeValues, ...filteredEntityTypeValues],
  datasourceSource: sourceTypes,
  // The external formats and the system types, as the list's "Type" column names them.
  datasourceType: [...externalTypes, ...systemTypes],
  datasourceStructure: datasourceStructures,
  capSeverity: capSeverities,
  // A webhook action type is shown as what it does (the bases) and how it targets (the suffixes, in the form's words).
  webhookFamily: actionFamilies,
  webhookAction: actionBases,
  webhookTargeting: actionTargetings,
  webhookOutcome: executionOutcomes,
  alertRuleType: alertRuleTypes,
};

describe('the label table', () => {
  for (const [name, catalogue] of [
    ['en', en],
    ['de', de],
  ] as const) {
    it(`labels every value of every enum in ${name}, and nothing else`, () => {
      for (const [table, values] of Object.entries(ENUMS)) {
        expect(Object.keys(catalogue.labels[table as LabelEnum]).sort(), `${name} labels.${table}`).toEqual([...new Set(values)].sort());
      }
      expect(Object.keys(catalogue.labels).sort()).toEqual(Object.keys(ENUMS).sort());
    });
  }

  it('says Administrator for OWNER and names commands and licences in words', () => {
    expect(labelFrom(en.labels, 'role', 'OWNER')).toBe('Administrator');
    expect(labelFrom(en.labels, 'licenseStatus', 'UN_LICENSED')).toBe('No licence');
    expect(labelFrom(de.labels, 'licenseStatus', 'UN_LICENSED')).toBe('Keine Lizenz');
    expect(labelFrom(en.labels, 'command', 'takeHighResPreview')).toBe('Screenshot');
    expect(labelFrom(de.labels, 'command', 'takeHighResPreview')).toBe('Bildschirmfoto');
  });

  it('shows an unknown value as it is and a missing one as the fallback', () => {
    expect(labelFrom(en.labels, 'role', 'MESSENGER')).toBe('MESSENGER');
    expect(labelFrom(en.labels, 'role', null)).toBe('—');
    expect(labelFrom(en.labels, 'role', undefined, 'none')).toBe('none');
  });
});
