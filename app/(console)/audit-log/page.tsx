import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { AuditLogPage } from '@/components/audit-log/audit-log-page';
import { readSessionUser } from '@/lib/auth/session';
import { canSeeAuditLog } from '@/lib/auth/permissions';

export const metadata: Metadata = { title: 'Audit log' };

export default async function AuditLog() {
  const user = await readSessionUser();
  if (!user) redirect('/login');
  if (!canSeeAuditLog(user.role)) redirect('/');

  return <AuditLogPage />;
}
