'use client';

import { Button } from '@/components/ui/button';
import { CheckboxField, DialogFooter } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';

/** The read-only switch of a team assignment dialog (members, folders). */
export function ReadOnlyField({ id, checked, onChange, description }: { id: string; checked: boolean; onChange: (checked: boolean) => void; description: string }) {
  return <CheckboxField id={id} checked={checked} onChange={(e) => onChange(e.target.checked)} label="Read-only" description={description} />;
}

/** The footer of a team assignment dialog: how many are picked, Cancel, and the submit button. */
export function AssignmentFooter({ picked, isPending, onCancel, submitLabel }: { picked: number; isPending: boolean; onCancel: () => void; submitLabel: string }) {
  return (
    <DialogFooter className="items-center">
      <span className="mr-auto text-sm text-zinc-500" aria-live="polite">
        {picked > 0 ? `${picked} selected` : null}
      </span>
      <Button variant="secondary" onClick={onCancel} disabled={isPending}>
        Cancel
      </Button>
      <Button type="submit" disabled={picked === 0 || isPending}>
        {isPending ? <Spinner /> : null}
        {submitLabel}
      </Button>
    </DialogFooter>
  );
}
