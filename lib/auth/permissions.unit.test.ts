import { describe, expect, it } from 'vitest';
import { assignableRoles, canManageCustomers, canManageUser, canManageUsers, canSeeAuditLog } from '@/lib/auth/permissions';

describe('permissions', () => {
  it('lets ADMIN assign every role and OWNER every role but ADMIN, highest first', () => {
    expect(assignableRoles('ADMIN')[0]).toBe('ADMIN');
    expect(assignableRoles('ADMIN')).toHaveLength(7);
    expect(assignableRoles('OWNER')).toEqual(['OWNER', 'TECHNICIAN', 'APPROVER', 'EDITOR', 'VIEWER', 'DEVICE_USER']);
    expect(assignableRoles('TECHNICIAN')).toEqual([]);
  });

  it('limits user management to OWNER and ADMIN; OWNER cannot touch an ADMIN', () => {
    expect(canManageUsers('OWNER')).toBe(true);
    expect(canManageUsers('TECHNICIAN')).toBe(false);
    expect(canManageUser('OWNER', 'ADMIN')).toBe(false);
    expect(canManageUser('OWNER', 'EDITOR')).toBe(true);
    expect(canManageUser('ADMIN', 'ADMIN')).toBe(true);
  });

  it('shows customers to ADMIN and to the OWNER of a network owner only', () => {
    expect(canManageCustomers('ADMIN', false)).toBe(true);
    expect(canManageCustomers('OWNER', true)).toBe(true);
    expect(canManageCustomers('OWNER', false)).toBe(false);
    expect(canManageCustomers('TECHNICIAN', true)).toBe(false);
  });

  it('shows the audit log to OWNER and higher', () => {
    expect(canSeeAuditLog('OWNER')).toBe(true);
    expect(canSeeAuditLog('ADMIN')).toBe(true);
    expect(canSeeAuditLog('APPROVER')).toBe(false);
  });
});
