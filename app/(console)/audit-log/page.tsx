import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { redirect } from 'next/navigation';
import { AuditLogPage } from '@/components/audit-log/audit-log-page';
import { readSessionUser } from '@/lib/auth/session';
import { canSeeAuditLog } from '@/lib/auth/permissions';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('auditLog'))('title') };
}

export default async function AuditLog() {
  const user = await readSessionUser();
  if (!user) redirect('/login');
  if (!canSeeAuditLog(user.role)) redirect('/');

  return <AuditLogPage />;
}
