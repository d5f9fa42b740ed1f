'use client';

import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import { DeviceStatus } from '@/components/devices/device-status';
import { EditScreenDialog } from '@/components/devices/edit-screen-dialog';
import { useLicenseWords } from '@/components/devices/license-choices';
import { NowPlayingCard } from '@/components/devices/now-playing';
import { MetricsCard } from '@/components/devices/metrics-card';
import { ScreenAlerts } from '@/components/devices/screen-alerts';
import { ScreenCommandsCard } from '@/components/devices/screen-commands';
import { ScreenExplain } from '@/components/devices/screen-explain';
import { ScreenPlays } from '@/components/devices/screen-plays';
import { ScreenTimeline } from '@/components/devices/screen-timeline';
import { ScreenshotCard } from '@/components/devices/screenshot-card';
import { Alert, LoadError } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Select } from '@/components/ui/field';
import { ChevronLeftIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { contentResource } from '@/lib/api/content';
import { deviceResource, neverConnected, useDeviceCommand, type Device } from '@/lib/api/devices';
import { useCurrentUser } from '@/lib/auth/current-user';
import { useErrorMessage } from '@/lib/i18n/errors';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';
import { hasRole } from '@/server/context/roles';

/** One screen: what it is, what it shows, and the commands a technician sends it. */
export function ScreenDetailPage({ id }: { id: string }) {
  // Live while open: status, last activity and what the screen reports change without a reload.
  const detail = deviceResource.useDetail(id, { refetchInterval: 5000 });
  const me = useCurrentUser();
  const t = useTranslations('devices');
  const [editing, setEditing] = useState(false);
  if (detail.isPending) return <Spinner className="m-8 size-6" label={t('loading')} />;
  if (detail.isError || !detail.data)
    return <LoadError title={t('detail.loadError')} error={detail.error} onRetry={() => void detail.refetch()} />;
  const device = detail.data;

  return (
    <>
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <Link href="/screens" className="inline-flex items-center gap-1 text-sm text-zinc-500 hover:text-zinc-900">
          <ChevronLeftIcon className="size-4" />
          {t('title')}
        </Link>
        <h1 className="text-lg font-semibold text-zinc-900">{device.name || t('unnamed')}</h1>
        <DeviceStatus device={device} />
        {device.emergencyStatus ? <Badge tone="danger">{t('emergency')}</Badge> : null}
        {hasRole(me.role, 'TECHNICIAN') && !device.readOnly ? (
          <Button variant="secondary" className="ml-auto" onClick={() => setEditing(true)}>
            {t('detail.edit')}
          </Button>
        ) : null}
      </div>
      <EditScreenDialog device={editing ? device : null} onOpenChange={setEditing} />
      <ScreenAlerts deviceId={device.id} deviceName={device.name} />
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="space-y-4">
          <DeviceFacts device={device} />
          <NowPlayingCard deviceId={device.id} />
        </div>
        <div className="space-y-4">
          <ScreenshotCard device={device} />
          <ContentCard device={device} />
          <ScreenCommandsCard device={device} />
        </div>
      </div>
      {/* The time axis gets the page's whole width: in a column, a week's day labels had no room at 1024 wide. */}
      <div className="mt-4">
        <ScreenTimeline deviceId={device.id} />
      </div>
      <div className="mt-4 grid items-start gap-4 lg:grid-cols-2">
        <div className="space-y-4">
          <ScreenPlays deviceId={device.id} timeZone={device.timeZone ?? 'UTC'} />
          <MetricsCard deviceId={device.id} />
        </div>
        <ScreenExplain deviceId={device.id} timeZone={device.timeZone ?? 'UTC'} />
      </div>
    </>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[10rem_minmax(0,1fr)] gap-2 py-1.5 text-sm">
      <dt className="text-zinc-500">{label}</dt>
      <dd className="truncate text-zinc-900">{children}</dd>
    </div>
  );
}

function DeviceFacts({ device }: { device: Device }) {
  const t = useTranslations('devices');
  const label = useLabel();
  const format = useFormat();
  const { licenseLabel } = useLicenseWords();
  const resolution =
    device.nativeResolutionWidth && device.nativeResolutionHeight
      ? `${device.nativeResolutionWidth} × ${device.nativeResolutionHeight}`
      : '—';

  return (
    <Card className="p-5">
      <h2 className="mb-2 text-sm font-semibold text-zinc-900">{t('detail.device')}</h2>
      <dl className="divide-y divide-zinc-100">
        <Fact label={t('status')}>
          {neverConnected(device) ? (
            <span className="inline-flex items-center gap-1.5 text-zinc-500" data-status="NEVER">
              <span aria-hidden className="size-2 rounded-full border border-zinc-300" />
              {t('detail.neverConnected')}
            </span>
          ) : (
            <>
              <DeviceStatus device={device} />{' '}
              <span className="text-zinc-500">{t('detail.since', { time: format.dateTime(device.lastDeviceStatusChange, '—') })}</span>
            </>
          )}
        </Fact>
        <Fact label={t('lastActivity')}>{format.dateTime(device.lastActivity, t('never'))}</Fact>
        <Fact label={t('folder')}>
          {/* The root folder is "All screens" here as in the screens list; a path of one id is the root. */}
          {device.deviceGroup && (device.deviceGroupPath ?? '').includes('/') ? (
            <Link href={`/screens?folder=${device.deviceGroup.id}`} className="text-brand-700 hover:underline">
              {device.deviceGroup.name ?? t('untitledFolder')}
            </Link>
          ) : (
            t('allScreens')
          )}
        </Fact>
        <Fact label={t('detail.typePlatform')}>
          {label('deviceType', device.type)} · {label('devicePlatform', device.platform)}
        </Fact>
        <Fact label={t('detail.resolution')}>{resolution}</Fact>
        <Fact label={t('detail.software')}>{[device.version, device.firmwareVersion].filter(Boolean).join(' · ') || '—'}</Fact>
        <Fact label={t('detail.serial')}>{device.serial ?? '—'}</Fact>
        <Fact label={t('detail.localAddress')}>{device.localIpAddress ?? '—'}</Fact>
        <Fact label={t('timeZone')}>{device.timeZone ?? '—'}</Fact>
        <Fact label={t('licence')}>{licenseLabel(device)}</Fact>
        <Fact label={t('detail.tags')}>{device.tags?.length ? device.tags.join(', ') : '—'}</Fact>
      </dl>
    </Card>
  );
}

/** The assigned and the emergency content, chosen from the content library (APPROVER). */
function ContentCard({ device }: { device: Device }) {
  const t = useTranslations('devices.detail');
  const errorMessage = useErrorMessage();
  const me = useCurrentUser();
  const canAssign = hasRole(me.role, 'APPROVER');
  const items = contentResource.useList(
    { page: 0, size: 200, sort: 'name,asc', text: '', kind: 'all', folderId: '' },
    { enabled: canAssign },
  );
  const command = useDeviceCommand(device.customerId);
  const [error, setError] = useState<string | null>(null);
  const assign = async (slot: 'content' | 'emergency', contentId: string) => {
    setError(null);
    try {
      if (contentId)
        await command.mutateAsync({
          name: 'assignContent',
          ids: [device.id],
          params: { contentId, asAssigned: slot === 'content', asEmergency: slot === 'emergency' },
        });
      else
        await command.mutateAsync({
          name: 'detachContent',
          ids: [device.id],
          params: { detachAssigned: slot === 'content', detachEmergency: slot === 'emergency' },
        });
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <Card className="p-5">
      <h2 className="mb-3 text-sm font-semibold text-zinc-900">{t('content')}</h2>
      {(['content', 'emergency'] as const).map((slot) => {
        const current = slot === 'content' ? device.content : device.emergencyContent;
        const label = slot === 'content' ? t('assigned') : t('inEmergency');
        const none = slot === 'content' ? t('none') : t('tenantDefault');

        return (
          <div key={slot} className="mb-3 grid grid-cols-[10rem_minmax(0,1fr)] items-center gap-2 text-sm">
            <label htmlFor={`slot-${slot}`} className="text-zinc-500">
              {label}
            </label>
            {canAssign ? (
              <Select
                id={`slot-${slot}`}
                value={current?.id ?? ''}
                disabled={command.isPending}
                onChange={(e) => void assign(slot, e.target.value)}
              >
                <option value="">{none}</option>
                {current?.id && !(items.data?.content ?? []).some((c) => c.id === current.id) ? (
                  <option value={current.id}>{current.name}</option>
                ) : null}
                {(items.data?.content ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </Select>
            ) : (
              <span className="text-zinc-900">{current?.name ?? none}</span>
            )}
          </div>
        );
      })}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </Card>
  );
}
