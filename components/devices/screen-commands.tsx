'use client';

import { useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Select } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { isUnconfirmed, useDeviceCommand, useDeviceCommandHistory, useDeviceSettings, type Device } from '@/lib/api/devices';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel, type Label } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import { useFormat } from '@/lib/i18n/use-format';
import { hasRole } from '@/server/context/roles';
import type { CommandName, DeviceCommandEntry, DeviceSettings } from '@/server/modules/devices/device-commands.schemas';

type SendInput = Parameters<ReturnType<typeof useDeviceCommand>['mutateAsync']>[0];
type Send = (text: string, input: Omit<SendInput, 'ids'>) => Promise<void>;

const DAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
type Day = (typeof DAYS)[number];
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
function SettingState({
  isSet,
  entry,
  unset,
  testId,
}: {
  isSet: boolean;
  entry: DeviceCommandEntry | undefined;
  unset: string;
  testId: string;
}) {
  const t = useTranslations('devices.commands');
  const format = useFormat();
  let tone = 'text-zinc-500';
  let text: string;
  if (!entry) text = isSet ? t('setBefore') : unset;
  else if (entry.status === 'ACKNOWLEDGED') {
    tone = 'text-emerald-700';
    text = t('confirmed', { time: format.dateTime(entry.acknowledgedAt) });
  } else if (isUnconfirmed(entry)) {
    tone = 'text-amber-700';
    text = t('pending', { time: format.dateTime(entry.issuedAt), delivered: entry.status === 'DELIVERED' ? 'yes' : 'no' });
  } else if (entry.status === 'FAILED') {
    tone = 'text-red-700';
    text = entry.error ? t('failedWith', { error: entry.error }) : t('failed');
  } else {
    tone = 'text-amber-700';
    text = t('notConfirmed', { time: format.dateTime(entry.issuedAt) });
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
  const t = useTranslations('devices.commands');
  const tDevices = useTranslations('devices');
  const errorMessage = useErrorMessage();
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
  const name = device.name || t('thisScreen');
  const data = settings.data;

  return (
    <>
      <Card className="p-5">
        <h2 className="mb-3 text-sm font-semibold text-zinc-900">{t('heading')}</h2>
        {settings.isError ? <p className="text-sm text-red-700">{errorMessage(settings.error)}</p> : null}
        {settings.isPending ? <p className="text-sm text-zinc-500">{t('loading')}</p> : null}
        {data ? <SettingsForm data={data} busy={busy} send={send} onDisrupt={setDisruption} name={name} /> : null}
        <div className="mt-4 flex flex-wrap gap-2 border-t border-zinc-100 pt-3 text-sm">
          <Button variant="secondary" size="sm" disabled={busy} onClick={() => void send(t('refreshSent'), { name: 'refreshContent' })}>
            {t('refresh')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={busy}
            onClick={() => void send(t('screenshotSent'), { name: 'takeHighResPreview' })}
          >
            {t('screenshot')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={busy}
            onClick={() =>
              setDisruption({
                title: t('restartTitle', { name }),
                description: t('restartText'),
                confirmLabel: tDevices('restart'),
                text: t('restartSent'),
                input: { name: 'restart' },
              })
            }
          >
            {tDevices('restart')}
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
        confirmLabel={disruption?.confirmLabel ?? t('send')}
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
function SettingsForm({
  data,
  busy,
  send,
  onDisrupt,
  name,
}: {
  data: DeviceSettings;
  busy: boolean;
  send: Send;
  onDisrupt: (d: Disruption) => void;
  name: string;
}) {
  const newest = (command: CommandName) => data.commands.find((c) => c.name === command);
  const s = data.settings;
  const stored = (key: string) => (s[key] === undefined || s[key] === null ? undefined : s[key]);
  const t = useTranslations('devices.commands');

  return (
    <div className="space-y-3 text-sm">
      {(['volume', 'brightness'] as const).map((key) => (
        <LevelSetting
          key={`${key}:${String(stored(key))}`}
          name={key}
          label={t(key)}
          value={stored(key)}
          entry={newest(key)}
          busy={busy}
          send={send}
        />
      ))}
      <RotationSetting
        key={`rotation:${JSON.stringify(stored('rotation'))}`}
        value={stored('rotation')}
        entry={newest('rotation')}
        busy={busy}
        send={send}
      />
      <RebootSetting
        key={`reboot:${String(stored('rebootTime'))}`}
        value={stored('rebootTime')}
        entry={newest('rebootTime')}
        busy={busy}
        send={send}
      />
      <HoursSetting
        key={`hours:${JSON.stringify(stored('workingHours'))}`}
        value={stored('workingHours')}
        entry={newest('workingHours')}
        busy={busy}
        send={send}
      />
      <div>
        <Row label={t('display')}>
          <span className="w-24 font-medium text-zinc-900" data-testid="setting-display-value">
            {stored('display') === undefined ? t('notSet') : stored('display') === false ? t('off') : t('on')}
          </span>
          <Button
            variant="secondary"
            size="sm"
            disabled={busy}
            onClick={() => void send(t('displayOn'), { name: 'display', params: { enabled: true } })}
          >
            {t('turnOn')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={busy}
            onClick={() =>
              onDisrupt({
                title: t('displayOffTitle', { name }),
                description: t('displayOffText'),
                confirmLabel: t('turnOff'),
                text: t('displayOff'),
                input: { name: 'display', params: { enabled: false } },
              })
            }
          >
            {t('turnOff')}
          </Button>
        </Row>
        <SettingState
          isSet={stored('display') !== undefined}
          entry={newest('display')}
          unset={t('displayUnset')}
          testId="setting-display-state"
        />
      </div>
      <div>
        <Row label={t('emergency')}>
          <span className="w-24 font-medium text-zinc-900" data-testid="setting-emergency-value">
            {data.emergencyStatus ? t('on') : t('off')}
          </span>
          {data.emergencyStatus ? (
            <Button
              variant="secondary"
              size="sm"
              disabled={busy}
              onClick={() => void send(t('emergencyEnded'), { name: 'emergency', params: { emergencyStatus: false } })}
            >
              {t('endEmergency')}
            </Button>
          ) : (
            <Button
              variant="secondary"
              size="sm"
              className="text-red-700"
              disabled={busy}
              onClick={() =>
                onDisrupt({
                  title: t('emergencyTitle', { name }),
                  description: t('emergencyText'),
                  confirmLabel: t('startEmergency'),
                  text: t('emergencyStarted'),
                  input: { name: 'emergency', params: { emergencyStatus: true } },
                })
              }
            >
              {t('startEmergency')}
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
  const t = useTranslations('devices.commands');

  return (
    <div>
      <Row label={t('level', { label })} htmlFor={`level-${name}`}>
        <div className="w-32">
          <Input
            id={`level-${name}`}
            type="number"
            min={0}
            max={100}
            placeholder={t('notSet')}
            value={draft}
            aria-invalid={(draft !== '' && !level(draft)) || undefined}
            onChange={(e) => setDraft(e.target.value)}
          />
        </div>
        <Button
          variant="secondary"
          size="sm"
          disabled={!level(draft) || busy}
          onClick={() => void send(t('levelSet', { label, value: draft }), { name, params: { level: Number(draft) } })}
        >
          {t('set')}
        </Button>
      </Row>
      <SettingState isSet={value !== undefined} entry={entry} unset={t('unset')} testId={`setting-${name}-state`} />
    </div>
  );
}

function RotationSetting({ value, entry, busy, send }: SettingProps) {
  const angle = value && typeof value === 'object' && 'angle' in value ? String(value.angle) : '';
  const [draft, setDraft] = useState(angle);
  const t = useTranslations('devices.commands');

  return (
    <div>
      <Row label={t('rotation')} htmlFor="rotation">
        <div className="w-40">
          <Select id="rotation" value={draft} onChange={(e) => setDraft(e.target.value)}>
            {draft === '' ? <option value="">{t('notSet')}</option> : null}
            {['0', '90', '180', '270'].map((a) => (
              <option key={a} value={a}>
                {a}°
              </option>
            ))}
          </Select>
        </div>
        <Button
          variant="secondary"
          size="sm"
          disabled={draft === '' || busy}
          onClick={() =>
            void send(t('rotationSet', { angle: draft }), { name: 'rotation', params: { angle: Number(draft), type: 'DEVICE' } })
          }
        >
          {t('set')}
        </Button>
      </Row>
      <SettingState isSet={value !== undefined} entry={entry} unset={t('unset')} testId="setting-rotation-state" />
    </div>
  );
}

function RebootSetting({ value, entry, busy, send }: SettingProps) {
  const [draft, setDraft] = useState(typeof value === 'string' ? value : '');
  const t = useTranslations('devices.commands');

  return (
    <div>
      <Row label={t('reboot')} htmlFor="reboot-time">
        <div className="w-32">
          <Input
            id="reboot-time"
            type="time"
            value={draft}
            aria-invalid={(draft !== '' && !isTime(draft)) || undefined}
            onChange={(e) => setDraft(e.target.value)}
          />
        </div>
        <Button
          variant="secondary"
          size="sm"
          disabled={!isTime(draft) || busy}
          onClick={() => void send(t('rebootSet', { time: draft }), { name: 'rebootTime', params: { time: draft } })}
        >
          {t('set')}
        </Button>
        {value !== undefined ? (
          <Button
            variant="ghost"
            size="sm"
            disabled={busy}
            onClick={() => void send(t('rebootRemoved'), { name: 'rebootTime', remove: true })}
          >
            {t('remove')}
          </Button>
        ) : null}
      </Row>
      <SettingState isSet={value !== undefined} entry={entry} unset={t('rebootUnset')} testId="setting-rebootTime-state" />
    </div>
  );
}

/** Working hours per day, as the screen has them: a day unticked does not play; no day at all plays around the clock. */
function HoursSetting({ value, entry, busy, send }: SettingProps) {
  const current = value && typeof value === 'object' ? (value as Hours) : undefined;
  const t = useTranslations('devices.commands');
  const [days, setDays] = useState<Hours['days']>(current?.days ?? {});
  const ticked = DAYS.filter((day) => days[day]);
  const valid = ticked.every((day) => isTime(days[day]!.from) && isTime(days[day]!.to));
  const aroundTheClock = ticked.length === 0;
  const storedAround = !current || DAYS.every((day) => !current.days?.[day]);

  return (
    <fieldset>
      <legend className="sr-only">{t('hours')}</legend>
      <div className="flex flex-wrap items-start gap-2">
        <span className="w-36 shrink-0 pt-1 text-zinc-500">{t('hours')}</span>
        <div className="space-y-1">
          {DAYS.map((day) => {
            const hours = days[day];
            const label = t(`days.${day}`);

            return (
              <div key={day} className="flex items-center gap-2">
                <label className="inline-flex w-14 items-center gap-1 text-zinc-700">
                  <input
                    type="checkbox"
                    checked={hours !== undefined}
                    onChange={(e) => {
                      const next = { ...days };
                      // A day ticked takes the hours of the first ticked day, else a blank to fill in.
                      if (e.target.checked) next[day] = ticked[0] ? { ...days[ticked[0]]! } : { from: '', to: '' };
                      else delete next[day];
                      setDays(next);
                    }}
                  />
                  {label}
                </label>
                {hours ? (
                  <>
                    <div className="w-28">
                      <Input
                        aria-label={t('from', { day: label })}
                        type="time"
                        value={hours.from}
                        onChange={(e) => setDays({ ...days, [day]: { ...hours, from: e.target.value } })}
                      />
                    </div>
                    <span className="text-zinc-500">{t('toWord')}</span>
                    <div className="w-28">
                      <Input
                        aria-label={t('to', { day: label })}
                        type="time"
                        value={hours.to}
                        onChange={(e) => setDays({ ...days, [day]: { ...hours, to: e.target.value } })}
                      />
                    </div>
                  </>
                ) : (
                  <span className="text-zinc-400">{aroundTheClock ? t('allDay') : t('notPlaying')}</span>
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
                void send(
                  aroundTheClock ? t('aroundTheClock') : t('hoursSet', { days: ticked.map((day) => t(`days.${day}`)).join(', ') }),
                  {
                    name: 'workingHours',
                    body: { mode: current?.mode ?? 'SCREEN', days },
                  },
                )
              }
            >
              {aroundTheClock ? t('setAround') : t('set')}
            </Button>
          </div>
        </div>
      </div>
      <SettingState isSet={!storedAround} entry={entry} unset={t('hoursUnset')} testId="setting-workingHours-state" />
    </fieldset>
  );
}

const STATUS_TONES: Record<DeviceCommandEntry['status'], BadgeTone> = {
  PENDING: 'warning',
  DELIVERED: 'info',
  ACKNOWLEDGED: 'success',
  FAILED: 'danger',
  EXPIRED: 'neutral',
};

/**
 * A command as the history names it: its label (the label table's; a webhook device action by its name) and what it
 * set, in a few words ("20", "off", "removed"; empty for a one-shot command). The display reads "Display off".
 */
function commandSummary(entry: DeviceCommandEntry, t: Translate<'devices.commands'>, label: Label): { name: string; value: string } {
  const p = entry.params;
  if (entry.name === 'display' && typeof p.enabled === 'boolean')
    return { name: t('displaySwitched', { state: p.enabled ? 'on' : 'off' }), value: '' };
  const name = label('command', entry.name);
  if (p.remove === true) return { name, value: t('value.removed') };
  if (typeof p.level === 'number') return { name, value: String(p.level) };
  if (typeof p.enabled === 'boolean') return { name, value: p.enabled ? t('value.on') : t('value.off') };
  if (typeof p.emergencyStatus === 'boolean') return { name, value: p.emergencyStatus ? t('value.on') : t('value.off') };
  if (typeof p.angle === 'number') return { name, value: `${p.angle}°` };
  if (typeof p.time === 'string') return { name, value: p.time };

  return { name, value: '' };
}

/** The screen's newest commands, settings included: when each was issued, delivered and confirmed (or expired). */
function CommandHistoryCard({ deviceId }: { deviceId: string }) {
  const history = useDeviceCommandHistory(deviceId);
  const entries = history.data ?? [];
  const t = useTranslations('devices.commands');
  const label = useLabel();
  const format = useFormat();
  const errorMessage = useErrorMessage();

  return (
    <Card className="p-5">
      <h2 className="mb-3 text-sm font-semibold text-zinc-900">{t('history')}</h2>
      {history.isError ? <p className="text-sm text-red-700">{errorMessage(history.error)}</p> : null}
      {entries.length === 0 && !history.isPending ? <p className="text-sm text-zinc-500">{t('noHistory')}</p> : null}
      {entries.length > 0 ? (
        <ul className="divide-y divide-zinc-100 text-sm" aria-label={t('history')}>
          {entries.map((entry) => {
            const { name, value } = commandSummary(entry, t, label);
            const times = [
              t('issued', { time: format.dateTime(entry.issuedAt) }),
              entry.deliveredAt ? t('delivered', { time: format.dateTime(entry.deliveredAt) }) : null,
              entry.acknowledgedAt
                ? t(entry.ok === false ? 'failedAt' : 'confirmedAt', { time: format.dateTime(entry.acknowledgedAt) })
                : null,
              entry.status === 'EXPIRED' ? t('expiredAt', { time: format.dateTime(entry.expiresAt) }) : null,
            ];

            return (
              <li key={entry.id} className="py-2" data-command={entry.name}>
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <span className="min-w-0 truncate font-medium text-zinc-900">
                    {name}
                    {value ? <span className="font-normal text-zinc-600"> {value}</span> : null}
                  </span>
                  <Badge tone={STATUS_TONES[entry.status]} className="ml-auto">
                    {t(`status.${entry.status}`)}
                  </Badge>
                </div>
                <p className="mt-0.5 text-xs text-zinc-500">{times.filter(Boolean).join(' · ')}</p>
                {entry.error ? (
                  <p className="truncate text-xs text-red-700" title={entry.error}>
                    {entry.error}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </Card>
  );
}
