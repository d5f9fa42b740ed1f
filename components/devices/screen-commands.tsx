'use client';

import { useState, type ReactNode } from 'react';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Select } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { commandLabel } from '@/lib/api/device-command-labels';
import { isUnconfirmed, useDeviceCommand, useDeviceCommandHistory, useDeviceSettings, type Device } from '@/lib/api/devices';
import { errorMessage } from '@/lib/api/protected';
import { useCurrentUser } from '@/lib/auth/current-user';
import { formatDateTime } from '@/lib/format';
import { hasRole } from '@/server/context/roles';
import type { CommandName, DeviceCommandEntry, DeviceSettings } from '@/server/modules/devices/device-commands.schemas';

type SendInput = Parameters<ReturnType<typeof useDeviceCommand>['mutateAsync']>[0];
type Send = (text: string, input: Omit<SendInput, 'ids'>) => Promise<void>;

const DAYS = [
  ['MON', 'Mon'],
  ['TUE', 'Tue'],
  ['WED', 'Wed'],
  ['THU', 'Thu'],
  ['FRI', 'Fri'],
  ['SAT', 'Sat'],
  ['SUN', 'Sun'],
] as const;
type Day = (typeof DAYS)[number][0];
type Hours = { mode: 'SCREEN' | 'DEVICE'; days: Partial<Record<Day, { from: string; to: string }>> };

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
 * Where a setting stands: the value the screen confirmed, one sent but not confirmed yet, one that did not
 * reach it, or none (the screen uses its own). `entry` is the newest command of the setting's name.
 */
function SettingState({ isSet, entry, unset, testId }: { isSet: boolean; entry: DeviceCommandEntry | undefined; unset: string; testId: string }) {
  let tone = 'text-zinc-500';
  let text: string;
  if (!entry) text = isSet ? 'Set before confirmations were recorded.' : unset;
  else if (entry.status === 'ACKNOWLEDGED') {
    tone = 'text-emerald-700';
    text = `Confirmed by the screen ${formatDateTime(entry.acknowledgedAt)}.`;
  } else if (isUnconfirmed(entry)) {
    tone = 'text-amber-700';
    text = `Pending — sent ${formatDateTime(entry.issuedAt)}, ${entry.status === 'DELIVERED' ? 'delivered, ' : ''}not yet confirmed by the screen.`;
  } else if (entry.status === 'FAILED') {
    tone = 'text-red-700';
    text = `The screen could not apply it${entry.error ? `: ${entry.error}` : ''}.`;
  } else {
    tone = 'text-amber-700';
    text = `Not confirmed — sent ${formatDateTime(entry.issuedAt)}, the screen was not reached in time; it takes the value when it next reads its settings.`;
  }

  return (
    <p className={`pl-38 text-xs ${tone}`} data-testid={testId}>
      {text}
    </p>
  );
}

/** One disruptive command waiting for its confirmation. */
type Disruption = { title: string; description: string; confirmLabel: string; text: string; input: Omit<SendInput, 'ids'> };

/**
 * What a technician tells a screen: settings it keeps (volume, brightness, rotation, reboot time, working
 * hours, display, emergency), each showing the screen's current value and whether the screen confirmed it,
 * and one-shot commands (refresh, screenshot, restart). What interrupts the screen asks first.
 */
export function ScreenCommandsCard({ device }: { device: Device }) {
  const me = useCurrentUser();
  const command = useDeviceCommand(device.customerId);
  const settings = useDeviceSettings(device.id!);
  const [notice, setNotice] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);
  const [disruption, setDisruption] = useState<Disruption | null>(null);
  if (!hasRole(me.role, 'TECHNICIAN')) return <CommandHistoryCard deviceId={device.id!} />;
  const send: Send = async (text, input) => {
    setNotice(null);
    try {
      await command.mutateAsync({ ...input, ids: [device.id!] } as SendInput);
      setNotice({ tone: 'info', text });
    } catch (e) {
      setNotice({ tone: 'error', text: errorMessage(e) });
    }
  };
  const busy = command.isPending;
  const name = device.name || 'this screen';
  const data = settings.data;

  return (
    <>
      <Card className="p-5">
        <h2 className="mb-3 text-sm font-semibold text-zinc-900">Settings and commands</h2>
        {settings.isError ? <p className="text-sm text-red-700">{errorMessage(settings.error)}</p> : null}
        {settings.isPending ? <p className="text-sm text-zinc-500">Loading the screen&apos;s settings…</p> : null}
        {data ? <SettingsForm data={data} busy={busy} send={send} onDisrupt={setDisruption} name={name} /> : null}
        <div className="mt-4 flex flex-wrap gap-2 border-t border-zinc-100 pt-3 text-sm">
          <Button variant="secondary" size="sm" disabled={busy} onClick={() => void send('Refresh sent.', { name: 'refreshContent' })}>
            Refresh content
          </Button>
          <Button variant="secondary" size="sm" disabled={busy} onClick={() => void send('Screenshot requested.', { name: 'takeHighResPreview' })}>
            Take screenshot
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={busy}
            onClick={() =>
              setDisruption({
                title: `Restart ${name}?`,
                description: 'The player restarts as soon as it hears of it; the screen shows nothing for a moment.',
                confirmLabel: 'Restart',
                text: 'Restart sent.',
                input: { name: 'restart' },
              })
            }
          >
            Restart
          </Button>
        </div>
        {notice ? (
          <p role="status" className={`mt-3 text-sm ${notice.tone === 'error' ? 'text-red-700' : 'text-zinc-600'}`}>
            {notice.text}
          </p>
        ) : null}
      </Card>
      <ConfirmDialog
        open={disruption !== null}
        onOpenChange={(open) => !open && setDisruption(null)}
        title={disruption?.title ?? ''}
        description={disruption?.description}
        confirmLabel={disruption?.confirmLabel ?? 'Send'}
        destructive
        onConfirm={async () => {
          if (!disruption) return;
          // The dialog shows the API's message and stays open when the command fails.
          await command.mutateAsync({ ...disruption.input, ids: [device.id!] } as SendInput);
          setNotice({ tone: 'info', text: disruption.text });
        }}
      />
      <CommandHistoryCard deviceId={device.id!} />
    </>
  );
}

/**
 * The setting fields, each starting at the screen's value (blank when the screen has none). Keyed by the
 * stored values, so a value confirmed or changed elsewhere replaces an untouched field's draft.
 */
function SettingsForm({ data, busy, send, onDisrupt, name }: { data: DeviceSettings; busy: boolean; send: Send; onDisrupt: (d: Disruption) => void; name: string }) {
  const newest = (command: CommandName) => data.commands.find((c) => c.name === command);
  const s = data.settings;
  const stored = (key: string) => (s[key] === undefined || s[key] === null ? undefined : s[key]);

  return (
    <div className="space-y-3 text-sm">
      {(
        [
          ['volume', 'Volume'],
          ['brightness', 'Brightness'],
        ] as const
      ).map(([key, label]) => (
        <LevelSetting key={`${key}:${String(stored(key))}`} name={key} label={label} value={stored(key)} entry={newest(key)} busy={busy} send={send} />
      ))}
      <RotationSetting key={`rotation:${JSON.stringify(stored('rotation'))}`} value={stored('rotation')} entry={newest('rotation')} busy={busy} send={send} />
      <RebootSetting key={`reboot:${String(stored('rebootTime'))}`} value={stored('rebootTime')} entry={newest('rebootTime')} busy={busy} send={send} />
      <HoursSetting key={`hours:${JSON.stringify(stored('workingHours'))}`} value={stored('workingHours')} entry={newest('workingHours')} busy={busy} send={send} />
      <div>
        <Row label="Display">
          <span className="w-24 font-medium text-zinc-900" data-testid="setting-display-value">
            {stored('display') === undefined ? 'Not set' : stored('display') === false ? 'Off' : 'On'}
          </span>
          <Button variant="secondary" size="sm" disabled={busy} onClick={() => void send('Display turned on.', { name: 'display', params: { enabled: true } })}>
            Turn on
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={busy}
            onClick={() =>
              onDisrupt({
                title: `Turn off the display of ${name}?`,
                description: 'The screen goes dark until its display is turned on again.',
                confirmLabel: 'Turn off',
                text: 'Display turned off.',
                input: { name: 'display', params: { enabled: false } },
              })
            }
          >
            Turn off
          </Button>
        </Row>
        <SettingState isSet={stored('display') !== undefined} entry={newest('display')} unset="Not set: the screen uses its own (on)." testId="setting-display-state" />
      </div>
      <div>
        <Row label="Emergency">
          <span className="w-24 font-medium text-zinc-900" data-testid="setting-emergency-value">
            {data.emergencyStatus ? 'On' : 'Off'}
          </span>
          {data.emergencyStatus ? (
            <Button variant="secondary" size="sm" disabled={busy} onClick={() => void send('Emergency ended.', { name: 'emergency', params: { emergencyStatus: false } })}>
              End emergency
            </Button>
          ) : (
            <Button
              variant="secondary"
              size="sm"
              className="text-red-700"
              disabled={busy}
              onClick={() =>
                onDisrupt({
                  title: `Start an emergency on ${name}?`,
                  description: 'The screen stops what it plays and shows its emergency content until the emergency is ended.',
                  confirmLabel: 'Start emergency',
                  text: 'Emergency started.',
                  input: { name: 'emergency', params: { emergencyStatus: true } },
                })
              }
            >
              Start emergency
            </Button>
          )}
        </Row>
        {newest('emergency') ? <SettingState isSet entry={newest('emergency')} unset="" testId="setting-emergency-state" /> : null}
      </div>
    </div>
  );
}

type SettingProps = { value: unknown; entry: DeviceCommandEntry | undefined; busy: boolean; send: Send };

function LevelSetting({ name, label, value, entry, busy, send }: SettingProps & { name: 'volume' | 'brightness'; label: string }) {
  const [draft, setDraft] = useState(typeof value === 'number' ? String(value) : '');

  return (
    <div>
      <Row label={`${label} (0–100)`} htmlFor={`level-${name}`}>
        <div className="w-24">
          <Input id={`level-${name}`} type="number" min={0} max={100} placeholder="Not set" value={draft} aria-invalid={(draft !== '' && !level(draft)) || undefined} onChange={(e) => setDraft(e.target.value)} />
        </div>
        <Button variant="secondary" size="sm" disabled={!level(draft) || busy} onClick={() => void send(`${label} set to ${draft}.`, { name, params: { level: Number(draft) } })}>
          Set
        </Button>
      </Row>
      <SettingState isSet={value !== undefined} entry={entry} unset="Not set: the screen uses its own." testId={`setting-${name}-state`} />
    </div>
  );
}

function RotationSetting({ value, entry, busy, send }: SettingProps) {
  const angle = value && typeof value === 'object' && 'angle' in value ? String(value.angle) : '';
  const [draft, setDraft] = useState(angle);

  return (
    <div>
      <Row label="Rotation" htmlFor="rotation">
        <div className="w-32">
          <Select id="rotation" value={draft} onChange={(e) => setDraft(e.target.value)}>
            {draft === '' ? <option value="">Not set</option> : null}
            {['0', '90', '180', '270'].map((a) => (
              <option key={a} value={a}>
                {a}°
              </option>
            ))}
          </Select>
        </div>
        <Button variant="secondary" size="sm" disabled={draft === '' || busy} onClick={() => void send(`Rotation set to ${draft}°.`, { name: 'rotation', params: { angle: Number(draft), type: 'DEVICE' } })}>
          Set
        </Button>
      </Row>
      <SettingState isSet={value !== undefined} entry={entry} unset="Not set: the screen uses its own." testId="setting-rotation-state" />
    </div>
  );
}

function RebootSetting({ value, entry, busy, send }: SettingProps) {
  const [draft, setDraft] = useState(typeof value === 'string' ? value : '');

  return (
    <div>
      <Row label="Daily reboot" htmlFor="reboot-time">
        <div className="w-32">
          <Input id="reboot-time" type="time" value={draft} aria-invalid={(draft !== '' && !isTime(draft)) || undefined} onChange={(e) => setDraft(e.target.value)} />
        </div>
        <Button variant="secondary" size="sm" disabled={!isTime(draft) || busy} onClick={() => void send(`Reboots daily at ${draft}.`, { name: 'rebootTime', params: { time: draft } })}>
          Set
        </Button>
        {value !== undefined ? (
          <Button variant="ghost" size="sm" disabled={busy} onClick={() => void send('Daily reboot removed.', { name: 'rebootTime', remove: true })}>
            Remove
          </Button>
        ) : null}
      </Row>
      <SettingState isSet={value !== undefined} entry={entry} unset="Not set: the screen does not reboot on a schedule." testId="setting-rebootTime-state" />
    </div>
  );
}

/** Working hours per day, as the screen has them: a day unticked does not play; no day at all plays around the clock. */
function HoursSetting({ value, entry, busy, send }: SettingProps) {
  const current = value && typeof value === 'object' ? (value as Hours) : undefined;
  const [days, setDays] = useState<Hours['days']>(current?.days ?? {});
  const ticked = DAYS.filter(([day]) => days[day]);
  const valid = ticked.every(([day]) => isTime(days[day]!.from) && isTime(days[day]!.to));
  const aroundTheClock = ticked.length === 0;
  const storedAround = !current || DAYS.every(([day]) => !current.days?.[day]);

  return (
    <fieldset>
      <legend className="sr-only">Working hours</legend>
      <div className="flex flex-wrap items-start gap-2">
        <span className="w-36 shrink-0 pt-1 text-zinc-500">Working hours</span>
        <div className="space-y-1">
          {DAYS.map(([day, label]) => {
            const hours = days[day];

            return (
              <div key={day} className="flex items-center gap-2">
                <label className="inline-flex w-14 items-center gap-1 text-zinc-700">
                  <input
                    type="checkbox"
                    checked={hours !== undefined}
                    onChange={(e) => {
                      const next = { ...days };
                      // A day ticked takes the hours of the first ticked day, else a blank to fill in.
                      if (e.target.checked) next[day] = ticked[0] ? { ...days[ticked[0][0]]! } : { from: '', to: '' };
                      else delete next[day];
                      setDays(next);
                    }}
                  />
                  {label}
                </label>
                {hours ? (
                  <>
                    <div className="w-28">
                      <Input aria-label={`${label} from`} type="time" value={hours.from} onChange={(e) => setDays({ ...days, [day]: { ...hours, from: e.target.value } })} />
                    </div>
                    <span className="text-zinc-500">to</span>
                    <div className="w-28">
                      <Input aria-label={`${label} to`} type="time" value={hours.to} onChange={(e) => setDays({ ...days, [day]: { ...hours, to: e.target.value } })} />
                    </div>
                  </>
                ) : (
                  <span className="text-zinc-400">{aroundTheClock ? 'plays all day' : 'does not play'}</span>
                )}
              </div>
            );
          })}
          <div className="flex items-center gap-2 pt-1">
            <Button
              variant="secondary"
              size="sm"
              disabled={!valid || busy}
              onClick={() =>
                void send(aroundTheClock ? 'The screen plays around the clock.' : `Working hours set for ${ticked.map(([, label]) => label).join(', ')}.`, {
                  name: 'workingHours',
                  body: { mode: current?.mode ?? 'SCREEN', days },
                })
              }
            >
              {aroundTheClock ? 'Set: around the clock' : 'Set'}
            </Button>
          </div>
        </div>
      </div>
      <SettingState
        isSet={!storedAround}
        entry={entry}
        unset="Not set: the screen plays around the clock."
        testId="setting-workingHours-state"
      />
    </fieldset>
  );
}

const STATUS: Record<DeviceCommandEntry['status'], { label: string; tone: BadgeTone }> = {
  PENDING: { label: 'Waiting for the screen', tone: 'warning' },
  DELIVERED: { label: 'Delivered', tone: 'info' },
  ACKNOWLEDGED: { label: 'Done', tone: 'success' },
  FAILED: { label: 'Failed', tone: 'danger' },
  EXPIRED: { label: 'Expired', tone: 'neutral' },
};

/** What a command set, in a few words ("20", "off", "removed"); empty for a one-shot command. */
function commandValue(entry: DeviceCommandEntry): string {
  const p = entry.params;
  if (p.remove === true) return 'removed';
  if (typeof p.level === 'number') return String(p.level);
  if (typeof p.enabled === 'boolean') return p.enabled ? 'on' : 'off';
  if (typeof p.emergencyStatus === 'boolean') return p.emergencyStatus ? 'on' : 'off';
  if (typeof p.angle === 'number') return `${p.angle}°`;
  if (typeof p.time === 'string') return p.time;

  return '';
}

/** The screen's newest commands, settings included: when each was issued, delivered and confirmed (or expired). */
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
            <li key={entry.id} className="py-2" data-command={entry.name}>
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="min-w-0 truncate font-medium text-zinc-900">
                  {commandLabel(entry.name)}
                  {commandValue(entry) ? <span className="font-normal text-zinc-600"> {commandValue(entry)}</span> : null}
                </span>
                <Badge tone={STATUS[entry.status].tone} className="ml-auto">
                  {STATUS[entry.status].label}
                </Badge>
              </div>
              <p className="mt-0.5 text-xs text-zinc-500">
                Issued {formatDateTime(entry.issuedAt)}
                {entry.deliveredAt ? ` · delivered ${formatDateTime(entry.deliveredAt)}` : ''}
                {entry.acknowledgedAt ? ` · ${entry.ok === false ? 'failed' : 'confirmed'} ${formatDateTime(entry.acknowledgedAt)}` : ''}
                {entry.status === 'EXPIRED' ? ` · expired ${formatDateTime(entry.expiresAt)}` : ''}
              </p>
              {entry.error ? (
                <p className="truncate text-xs text-red-700" title={entry.error}>
                  {entry.error}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
