'use client';

import { useEffect, useId, useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useDeviceCommand } from '@/lib/api/devices';
import { countOf } from '@/lib/format';
import type { CommandName } from '@/server/modules/devices/device-commands.schemas';

const SCREENS = { one: 'screen', other: 'screens' };

/** The commands the screens list sends to a selection, each asked first ("Restart 3 screens?"). */
export const BATCH_COMMANDS = {
  restart: { label: 'Restart', verb: 'Restart', command: 'restart', what: 'Each player restarts as soon as it hears of it; it shows nothing for a moment.' },
  refresh: { label: 'Refresh content', verb: 'Refresh the content of', command: 'refreshContent', what: 'Each player downloads what it shows anew.' },
  displayOn: { label: 'Display on', verb: 'Turn on the display of', command: 'display', what: 'The players switch their displays on.', params: { enabled: true } },
  displayOff: { label: 'Display off', verb: 'Turn off the display of', command: 'display', what: 'The players switch their displays off until turned on again.', params: { enabled: false } },
  volume: { label: 'Volume', verb: 'Set the volume of', command: 'volume', what: 'Every player plays sound at this level.' },
  screenshot: { label: 'Screenshot', verb: 'Take a screenshot of', command: 'takeHighResPreview', what: 'Each player sends what it shows; the new pictures replace the previews.' },
} as const satisfies Record<string, { label: string; verb: string; command: CommandName; what: string; params?: Record<string, boolean> }>;

export type BatchCommand = keyof typeof BATCH_COMMANDS;

export type BatchRequest = { kind: BatchCommand; ids: string[] };

/** Asks before sending a command to the selected screens, naming how many; `onSent` gets how many it reached. */
export function BatchCommandDialog({ request, onOpenChange, onSent }: { request: BatchRequest | null; onOpenChange: (open: boolean) => void; onSent: (request: BatchRequest, updated: number) => void }) {
  const command = useDeviceCommand();
  const [level, setLevel] = useState('50');
  const levelId = useId();
  useEffect(() => {
    if (request) setLevel('50');
  }, [request]);
  const spec = request ? BATCH_COMMANDS[request.kind] : null;
  const count = countOf(request?.ids.length ?? 0, SCREENS);

  return (
    <ConfirmDialog
      open={request !== null}
      onOpenChange={onOpenChange}
      title={spec ? `${spec.verb} ${count}?` : ''}
      description={spec?.what}
      confirmLabel={spec ? `${spec.label === 'Volume' ? 'Set volume' : spec.label}: ${count}` : 'Send'}
      onConfirm={async () => {
        if (!request || !spec) return;
        let params: Record<string, string | number | boolean> | undefined = 'params' in spec ? spec.params : undefined;
        if (request.kind === 'volume') {
          const value = Number(level);
          if (!Number.isInteger(value) || value < 0 || value > 100) throw new Error('The volume is a whole number from 0 to 100.');
          params = { level: value };
        }
        const { updated } = await command.mutateAsync({ name: spec.command, ids: request.ids, ...(params ? { params } : {}) });
        onSent(request, updated);
      }}
    >
      {request?.kind === 'volume' ? (
        <Field id={levelId} label="Volume (0 to 100)">
          <div className="flex items-center gap-3">
            <input type="range" min={0} max={100} value={level} onChange={(e) => setLevel(e.target.value)} aria-hidden="true" tabIndex={-1} className="flex-1 accent-brand-600" />
            <Input id={levelId} type="number" min={0} max={100} value={level} onChange={(e) => setLevel(e.target.value)} className="w-20" />
          </div>
        </Field>
      ) : null}
    </ConfirmDialog>
  );
}
