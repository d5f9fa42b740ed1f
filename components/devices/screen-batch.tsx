'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useId, useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useDeviceCommand } from '@/lib/api/devices';
import type { CommandName } from '@/server/modules/devices/device-commands.schemas';

/**
 * The commands the screens list sends to a selection, each asked first ("Restart 3 screens?"); their words are
 * `devices.batch.<kind>` (label, title, confirm, what).
 */
const BATCH_COMMANDS = {
  restart: { command: 'restart' },
  refresh: { command: 'refreshContent' },
  displayOn: { command: 'display', params: { enabled: true } },
  displayOff: { command: 'display', params: { enabled: false } },
  volume: { command: 'volume' },
  screenshot: { command: 'takeHighResPreview' },
} as const satisfies Record<string, { command: CommandName; params?: Record<string, boolean> }>;

export type BatchCommand = keyof typeof BATCH_COMMANDS;

export type BatchRequest = { kind: BatchCommand; ids: string[] };

/** Asks before sending a command to the selected screens, naming how many; `onSent` gets how many it reached. */
export function BatchCommandDialog({
  request,
  onOpenChange,
  onSent,
}: {
  request: BatchRequest | null;
  onOpenChange: (open: boolean) => void;
  onSent: (request: BatchRequest, updated: number) => void;
}) {
  const t = useTranslations('devices.batch');
  const command = useDeviceCommand();
  const [level, setLevel] = useState('50');
  const levelId = useId();
  useEffect(() => {
    if (request) setLevel('50');
  }, [request]);
  const spec = request ? BATCH_COMMANDS[request.kind] : null;
  const count = request?.ids.length ?? 0;

  return (
    <ConfirmDialog
      open={request !== null}
      onOpenChange={onOpenChange}
      title={request ? t(`${request.kind}.title`, { count }) : ''}
      description={request ? t(`${request.kind}.what`) : undefined}
      confirmLabel={request ? t(`${request.kind}.confirm`, { count }) : t('send')}
      onConfirm={async () => {
        if (!request || !spec) return;
        let params: Record<string, string | number | boolean> | undefined = 'params' in spec ? spec.params : undefined;
        if (request.kind === 'volume') {
          const value = Number(level);
          if (!Number.isInteger(value) || value < 0 || value > 100) throw new Error(t('volumeRange'));
          params = { level: value };
        }
        const { updated } = await command.mutateAsync({ name: spec.command, ids: request.ids, ...(params ? { params } : {}) });
        onSent(request, updated);
      }}
    >
      {request?.kind === 'volume' ? (
        <Field id={levelId} label={t('volumeLabel')}>
          <div className="flex items-center gap-3">
            <input
              type="range"
              min={0}
              max={100}
              value={level}
              onChange={(e) => setLevel(e.target.value)}
              aria-hidden="true"
              tabIndex={-1}
              className="flex-1 accent-brand-600"
            />
            <Input id={levelId} type="number" min={0} max={100} value={level} onChange={(e) => setLevel(e.target.value)} className="w-20" />
          </div>
        </Field>
      ) : null}
    </ConfirmDialog>
  );
}
