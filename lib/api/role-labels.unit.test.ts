import { describe, expect, it } from 'vitest';
import { roleLabel, ROLE_LABELS } from './types';

describe('role labels', () => {
  it('are the UI names of spec 1 "Roles" (OWNER is the tenant\'s Administrator, ADMIN the Super Administrator)', () => {
    expect(ROLE_LABELS).toEqual({
      ADMIN: 'Super Administrator',
      OWNER: 'Administrator',
      TECHNICIAN: 'Technical manager',
      APPROVER: 'Content manager',
      EDITOR: 'Content editor',
      VIEWER: 'View only',
      DEVICE_USER: 'Device user',
    });
    expect(roleLabel('MESSENGER')).toBe('MESSENGER');
  });
});
