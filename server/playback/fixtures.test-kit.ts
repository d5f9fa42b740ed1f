import type { CampaignRules, CandidateContent, CandidateFile, DeviceFacts, MessageGroupRules, MessageRules } from './types';

/* Builders of resolver inputs for tests: sensible defaults (a channel for every device, always eligible) with overrides. */

const ROOT = 'f0000000-0000-4000-8000-000000000000';
export const FOLDER = 'f0000000-0000-4000-8000-000000000001';

const uuid = (n: number, prefix = 'c') => `${prefix}0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const at = (iso: string) => Date.parse(iso);

export function device(overrides: Partial<DeviceFacts> = {}): DeviceFacts {
  return {
    id: uuid(1, 'd'),
    timeZone: 'Europe/Berlin',
    folderIds: [FOLDER, ROOT],
    tags: [],
    teamIds: [],
    quickFilterIds: [],
    emergencyStatus: false,
    ...overrides,
  };
}

export function file(n: number, overrides: Partial<CandidateFile> = {}): CandidateFile {
  return { id: uuid(n, 'a'), name: `file-${n}.png`, kind: 'image', weight: n, ...overrides };
}

export function content(n: number, overrides: Partial<CandidateContent> = {}): CandidateContent {
  return { id: uuid(n, 'b'), name: `content-${n}`, deviceContentType: 'content', pageCount: 1, weight: n, ...overrides };
}

export function campaign(id: number, overrides: Partial<CampaignRules> = {}): CampaignRules {
  return {
    id,
    name: `campaign-${id}`,
    level: 'WIDGET',
    weight: 0,
    enabled: true,
    deviceSelectionMode: 'DYNAMIC',
    deviceGroupIds: [ROOT],
    files: [file(1)],
    ...overrides,
  };
}

export function message(id: number, overrides: Partial<MessageRules> = {}): MessageRules {
  return {
    id,
    name: `message-${id}`,
    weight: 0,
    enabled: true,
    deviceSelectionMode: 'DYNAMIC',
    deviceGroupIds: [ROOT],
    files: [file(100 + id)],
    ...overrides,
  };
}

export const group = (id: number, messages: MessageRules[], weight = 0): MessageGroupRules => ({
  id,
  name: `group-${id}`,
  weight,
  messages,
});
