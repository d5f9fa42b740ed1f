'use client';

import { useState, type ReactNode } from 'react';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Select } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useDeviceCommand, useDeviceCommandHistory, type Device } from '@/lib/api/devices';
import { errorMessage } from '@/lib/api/protected';
import { useCurrentUser } from '@/lib/auth/current-user';
import { formatDateTime } from '@/lib/format';
import { hasRole } from '@/server/context/roles';
import type { DeviceCommandEntry } from '@/server/modules/devices/device-commands.schemas';

type SendInput = Parameters<ReturnType<typeof useDeviceCommand>['mutateAsync']>[0];

const DAYS = [
  ['MON', 'Mon'],
  ['TUE', 'Tue'],
  ['WED', 'Wed'],
  ['THU', 'Thu'],
  ['FRI', 'Fri'],
  ['SAT', 'Sat'],
  ['SUN', 'Sun'],
] as const;

const level = (raw: string) => /^\d{1,3}$/.test(raw) && Number(raw) <= 100;
const isTime = (raw: string) => /^([01]\d|2[0-3]):[0-5]\d$/.test(raw);

function Row({ label, htmlFor, children }: { label: string; htmlFor?: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={htmlFor} className="w-36 shrink-0 text-zinc-500">
        {label}
      </label>
      {children}
    </div>
  );
}

/**
 * What a technician tells a screen: settings it keeps (volume, brightness, rotation, reboot time, working
 * hours, display) and one-shot commands (refresh, screenshot, restart). A connected screen gets them at once.
 */
export function ScreenCommandsCard({ device }: { device: Device }) {
  const me = useCurrentUser();
  const command = useDeviceCommand();
  const [volume, setVolume] = useState('50');
  const [brightness, setBrightness] = useState('80');
  const [angle, setAngle] = useState('0');
  const [rebootTime, setRebootTime] = useState('03:30');
  const [hours, setHours] = useState({ from: '08:00', to: '20:00', days: new Set<string>(['MON', 'TUE', 'WED', 'THU', 'FRI']) });
  const [notice, setNotice] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);
  if (!hasRole(me.role, 'TECHNICIAN')) return <CommandHistoryCard deviceId={device.id!} />;
  const send = async (text: string, input: Omit<SendInput, 'ids'>) => {
    setNotice(null);
    try {
      await command.mutateAsync({ ...input, ids: [device.id!] } as SendInput);
      setNotice({ tone: 'info', text });
    } catch (e) {
      setNotice({ tone: 'error', text: errorMessage(e) });
    }
  };
  const busy = command.isPending;
  const hoursValid = isTime(hours.from) && isTime(hours.to) && hours.days.size > 0;

  return (
    <>
      <Card className="p-5">
        <h2 className="mb-3 text-sm font-semibold text-zinc-900">Commands</h2>
        <div className="space-y-3 text-sm">
          {(
            [
              ['volume', 'Volume', volume, setVolume],
              ['brightness', 'Brightness', brightness, setBrightness],
            ] as const
          ).map(([name, label, value, setValue]) => (
            <Row key={name} label={`${label} (0–100)`} htmlFor={`level-${name}`}>
              <div className="w-24">
                <Input id={`level-${name}`} type="number" min={0} max={100} value={value} aria-invalid={!level(value) || undefined} onChange={(e) => setValue(e.target.value)} />
              </div>
              <Button variant="secondary" size="sm" disabled={!level(value) || busy} onClick={() => void send(`${label} set to ${value}.`, { name, params: { level: Number(value) } })}>
                Set
              </Button>
            </Row>
          ))}
          <Row label="Rotation" htmlFor="rotation">
            <div className="w-24">
              <Select id="rotation" value={angle} onChange={(e) => setAngle(e.target.value)}>
                {['0', '90', '180', '270'].map((a) => (
                  <option key={a} value={a}>
                    {a}°
                  </option>
                ))}
              </Select>
            </div>
            <Button variant="secondary" size="sm" disabled={busy} onClick={() => void send(`Rotation set to ${angle}°.`, { name: 'rotation', params: { angle: Number(angle), type: 'DEVICE' } })}>
              Set
            </Button>
          </Row>
          <Row label="Daily reboot" htmlFor="reboot-time">
            <div className="w-32">
              <Input id="reboot-time" type="time" value={rebootTime} aria-invalid={!isTime(rebootTime) || undefined} onChange={(e) => setRebootTime(e.target.value)} />
            </div>
            <Button variant="secondary" size="sm" disabled={!isTime(rebootTime) || busy} onClick={() => void send(`Reboots daily at ${rebootTime}.`, { name: 'rebootTime', params: { time: rebootTime } })}>
              Set
            </Button>
            <Button variant="ghost" size="sm" disabled={busy} onClick={() => void send('Daily reboot removed.', { name: 'rebootTime', remove: true })}>
              Remove
            </Button>
          </Row>
          <fieldset className="space-y-2">
            <legend className="sr-only">Working hours</legend>
            <Row label="Working hours" htmlFor="hours-from">
              <div className="w-32">
                <Input id="hours-from" aria-label="From" type="time" value={hours.from} onChange={(e) => setHours({ ...hours, from: e.target.value })} />
              </div>
              <span className="text-zinc-500">to</span>
              <div className="w-32">
                <Input aria-label="To" type="time" value={hours.to} onChange={(e) => setHours({ ...hours, to: e.target.value })} />
              </div>
            </Row>
            <div className="flex flex-wrap items-center gap-2 pl-38">
              {DAYS.map(([day, label]) => (
                <label key={day} className="inline-flex items-center gap-1 text-zinc-700">
                  <input
                    type="checkbox"
                    checked={hours.days.has(day)}
                    onChange={(e) => {
                      const days = new Set(hours.days);
                      if (e.target.checked) days.add(day);
                      else days.delete(day);
                      setHours({ ...hours, days });
                    }}
                  />
                  {label}
                </label>
              ))}
              <Button
                variant="secondary"
                size="sm"
                disabled={!hoursValid || busy}
                onClick={() =>
                  void send(`Working hours set to ${hours.from}–${hours.to}.`, {
                    name: 'workingHours',
                    body: { mode: 'SCREEN', days: Object.fromEntries([...hours.days].map((d) => [d, { from: hours.from, to: hours.to }])) },
                  })
                }
              >
                Set
              </Button>
            </div>
          </fieldset>
          <div className="flex flex-wrap gap-2 pt-1">
            <Button variant="secondary" size="sm" disabled={busy} onClick={() => void send('Display turned on.', { name: 'display', params: { enabled: true } })}>
              Display on
            </Button>
            <Button variant="secondary" size="sm" disabled={busy} onClick={() => void send('Display turned off.', { name: 'display', params: { enabled: false } })}>
              Display off
            </Button>
            <Button variant="secondary" size="sm" disabled={busy} onClick={() => void send('Refresh sent.', { name: 'refreshContent' })}>
              Refresh content
            </Button>
            <Button variant="secondary" size="sm" disabled={busy} onClick={() => void send('Screenshot requested.', { name: 'takeHighResPreview' })}>
              Take screenshot
            </Button>
            <Button variant="secondary" size="sm" disabled={busy} onClick={() => void send('Restart sent.', { name: 'restart' })}>
              Restart
            </Button>
            <Button
              variant="secondary"
              size="sm"
              className="text-red-700"
              disabled={busy}
              onClick={() => void send(device.emergencyStatus ? 'Emergency ended.' : 'Emergency started.', { name: 'emergency', params: { emergencyStatus: !device.emergencyStatus } })}
            >
              {device.emergencyStatus ? 'End emergency' : 'Start emergency'}
            </Button>
          </div>
          {notice ? (
            <p role="status" className={notice.tone === 'error' ? 'text-red-700' : 'text-zinc-600'}>
              {notice.text}
            </p>
          ) : null}
        </div>
      </Card>
      <CommandHistoryCard deviceId={device.id!} />
    </>
  );
}

const STATUS: Record<DeviceCommandEntry['status'], { label: string; tone: BadgeTone }> = {
  PENDING: { label: 'Waiting for the screen', tone: 'warning' },
  DELIVERED: { label: 'Delivered', tone: 'info' },
  ACKNOWLEDGED: { label: 'Done', tone: 'success' },
  FAILED: { label: 'Failed', tone: 'danger' },
  EXPIRED: { label: 'Expired', tone: 'neutral' },
};

/** The screen's newest one-shot commands: sent, delivered, done or failed. Settings show in the manifest, not here. */
function CommandHistoryCard({ deviceId }: { deviceId: string }) {
  const history = useDeviceCommandHistory(deviceId);
  const entries = history.data ?? [];

  return (
    <Card className="p-5">
      <h2 className="mb-3 text-sm font-semibold text-zinc-900">Recent commands</h2>
      {history.isError ? <p className="text-sm text-red-700">{errorMessage(history.error)}</p> : null}
      {entries.length === 0 && !history.isPending ? <p className="text-sm text-zinc-500">No commands sent yet.</p> : null}
      {entries.length > 0 ? (
        <ul className="divide-y divide-zinc-100 text-sm" aria-label="Recent commands">
          {entries.map((entry) => (
            <li key={entry.id} className="flex items-center gap-3 py-1.5">
              <span className="w-40 truncate font-medium text-zinc-900">{entry.name}</span>
              <span className="text-zinc-500">{formatDateTime(entry.issuedAt)}</span>
              <Badge tone={STATUS[entry.status].tone} className="ml-auto">{STATUS[entry.status].label}</Badge>
              {entry.error ? <span className="max-w-48 truncate text-red-700" title={entry.error}>{entry.error}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
