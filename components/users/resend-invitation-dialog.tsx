'use client';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import type { User } from '@/lib/api/types';
import { useResendPasswordSetup } from '@/lib/api/password-setup';

/** Confirms, then e-mails the user a fresh password-setup link (the older one stops working). */
export function ResendInvitationDialog({ user, onOpenChange }: { user: User | null; onOpenChange: (open: boolean) => void }) {
  const resend = useResendPasswordSetup();

  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={onOpenChange}
      title="Resend invitation"
      confirmLabel="Send new link"
      description={
        user ? (
          <>
            <span className="font-medium text-zinc-800">{user.email}</span> gets an e-mail with a new link to choose their password. The link
            works once, for 7 days; earlier links stop working.
          </>
        ) : null
      }
      onConfirm={() => resend.mutateAsync(user!.email)}
    />
  );
}
