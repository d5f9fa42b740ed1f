import { describe, expect, it } from 'vitest';
import labels from '@/messages/en/labels.json';

describe('role labels', () => {
  it('are the UI names of spec 1 "Roles" (OWNER is the tenant\'s Administrator, ADMIN the Super Administrator)', () => {
    expect(labels.role).toEqual({
      ADMIN: 'Super Administrator',
      OWNER: 'Administrator',
      TECHNICIAN: 'Technical manager',
      APPROVER: 'Content manager',
      EDITOR: 'Content editor',
      VIEWER: 'View only',
      DEVICE_USER: 'Device user',
    });
  });

  it('name licence types as spec 3 does (BASIC = Lite, ENTERPRISE = Premium, DBA = Broadcaster)', () => {
    expect(labels.licenseType).toEqual({
      BASIC: 'Lite',
      PROFESSIONAL: 'Professional',
      DBA: 'Broadcaster',
      ENTERPRISE: 'Premium',
      VIDEO_WALL: 'Video Wall',
    });
    expect(labels.licenseTier.STARTER).toBe('Essential');
  });
});
